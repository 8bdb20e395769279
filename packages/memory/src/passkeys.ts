/**
 * The passkey-management extension of the memory adapter (`listPasskeysByUserId`, `updatePasskey`,
 * `deletePasskey`): details live in a map of their own beside the authenticators.
 */
import type {
  Adapter,
  AdapterAuthenticator,
  AdapterPasskey,
  PasskeyDetails,
} from "@tessera/core/adapters";

const NO_DETAILS: PasskeyDetails = {
  name: null,
  createdAt: null,
  lastUsedAt: null,
  userHandle: null,
};

function dateCopy(value: Date | null): Date | null {
  return value ? new Date(value.getTime()) : null;
}

function passkey(authenticator: AdapterAuthenticator, details = NO_DETAILS): AdapterPasskey {
  return {
    ...authenticator,
    name: details.name,
    createdAt: dateCopy(details.createdAt),
    lastUsedAt: dateCopy(details.lastUsedAt),
    userHandle: details.userHandle,
  };
}

/**
 * The three passkey methods over `authenticators` and `details` (both keyed by credential id).
 *
 * @example
 * ```ts
 * const adapter = { ...otherMethods, ...passkeyMethods(store.authenticators, store.passkeyDetails) }
 * ```
 */
export function passkeyMethods(
  authenticators: Map<string, AdapterAuthenticator>,
  details: Map<string, PasskeyDetails>,
): Required<Pick<Adapter, "listPasskeysByUserId" | "updatePasskey" | "deletePasskey">> {
  // IDOR: every lookup checks the owner, so a credential id alone reaches nobody's passkey.
  const owned = (userId: string, credentialID: string) => {
    const authenticator = authenticators.get(credentialID);
    return authenticator && authenticator.userId === userId ? authenticator : undefined;
  };
  return {
    async listPasskeysByUserId(userId) {
      return [...authenticators.values()]
        .filter((authenticator) => authenticator.userId === userId)
        .map((authenticator) => passkey(authenticator, details.get(authenticator.credentialID)));
    },

    async updatePasskey({ userId, credentialID, ...patch }) {
      const authenticator = owned(userId, credentialID);
      if (!authenticator) return null;
      const current = details.get(credentialID) ?? NO_DETAILS;
      const next: PasskeyDetails = {
        name: patch.name !== undefined ? patch.name : current.name,
        createdAt: dateCopy(patch.createdAt !== undefined ? patch.createdAt : current.createdAt),
        lastUsedAt: dateCopy(
          patch.lastUsedAt !== undefined ? patch.lastUsedAt : current.lastUsedAt,
        ),
        userHandle: patch.userHandle !== undefined ? patch.userHandle : current.userHandle,
      };
      details.set(credentialID, next);
      return passkey(authenticator, next);
    },

    async deletePasskey({ userId, credentialID }) {
      const authenticator = owned(userId, credentialID);
      if (!authenticator) return null;
      const deleted = passkey(authenticator, details.get(credentialID));
      authenticators.delete(credentialID);
      details.delete(credentialID);
      return deleted;
    },
  };
}
