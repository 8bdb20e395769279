/**
 * The passkey-management extension of the Redis adapter (`listPasskeysByUserId`, `updatePasskey`,
 * `deletePasskey`). A user's passkey details live in one hash, `<user key>:passkey-details`
 * (field: credential id, value: JSON), under the user's hash tag like the user's other indexes.
 */
import type { Adapter, AdapterAuthenticator, AdapterPasskey } from "@tessera/core/adapters";
import type { Cluster, Redis } from "ioredis";
import type { KeyScheme } from "./keys.js";

interface StoredDetails {
  name: string | null;
  createdAt: number | null;
  lastUsedAt: number | null;
  userHandle: string | null;
}

const NO_DETAILS: StoredDetails = {
  name: null,
  createdAt: null,
  lastUsedAt: null,
  userHandle: null,
};

/**
 * The hash of `userId`'s passkey details.
 *
 * @example
 * ```ts
 * passkeyDetailsKey(keyScheme("auth:"), "42") // "auth:user:{42}:passkey-details"
 * ```
 */
export function passkeyDetailsKey(keys: KeyScheme, userId: string): string {
  return `${keys.user(userId)}:passkey-details`;
}

function parsed(json: string | null | undefined): StoredDetails {
  if (!json) return NO_DETAILS;
  try {
    return { ...NO_DETAILS, ...(JSON.parse(json) as Partial<StoredDetails>) };
  } catch {
    return NO_DETAILS;
  }
}

function passkeyFrom(authenticator: AdapterAuthenticator, details: StoredDetails): AdapterPasskey {
  return {
    ...authenticator,
    name: details.name,
    createdAt: details.createdAt === null ? null : new Date(details.createdAt),
    lastUsedAt: details.lastUsedAt === null ? null : new Date(details.lastUsedAt),
    userHandle: details.userHandle,
  };
}

const time = (value: Date | null) => (value ? value.getTime() : null);

/**
 * The three methods over `redis`, with the adapter's own authenticator reads.
 *
 * @example
 * ```ts
 * const methods = redisPasskeyMethods(redis, keys, adapter.getAuthenticator, adapter.listAuthenticatorsByUserId)
 * ```
 */
export function redisPasskeyMethods(
  redis: Redis | Cluster,
  keys: KeyScheme,
  getAuthenticator: (credentialID: string) => Promise<AdapterAuthenticator | null>,
  listAuthenticators: (userId: string) => Promise<AdapterAuthenticator[]>,
): Required<Pick<Adapter, "listPasskeysByUserId" | "updatePasskey" | "deletePasskey">> {
  // IDOR: the stored owner must be the caller's user, so a credential id alone reaches nothing.
  async function owned(userId: string, credentialID: string) {
    const authenticator = await getAuthenticator(credentialID);
    return authenticator?.userId === userId ? authenticator : null;
  }

  return {
    async listPasskeysByUserId(userId) {
      const authenticators = await listAuthenticators(userId);
      if (authenticators.length === 0) return [];
      const details = await redis.hmget(
        passkeyDetailsKey(keys, userId),
        ...authenticators.map((authenticator) => authenticator.credentialID),
      );
      return authenticators.map((authenticator, index) =>
        passkeyFrom(authenticator, parsed(details[index])),
      );
    },

    async updatePasskey({ userId, credentialID, ...patch }) {
      const authenticator = await owned(userId, credentialID);
      if (!authenticator) return null;
      const key = passkeyDetailsKey(keys, userId);
      const current = parsed(await redis.hget(key, credentialID));
      const next: StoredDetails = {
        name: patch.name !== undefined ? patch.name : current.name,
        createdAt: patch.createdAt !== undefined ? time(patch.createdAt) : current.createdAt,
        lastUsedAt: patch.lastUsedAt !== undefined ? time(patch.lastUsedAt) : current.lastUsedAt,
        userHandle: patch.userHandle !== undefined ? patch.userHandle : current.userHandle,
      };
      await redis.hset(key, credentialID, JSON.stringify(next));
      return passkeyFrom(authenticator, next);
    },

    async deletePasskey({ userId, credentialID }) {
      const authenticator = await owned(userId, credentialID);
      if (!authenticator) return null;
      const key = passkeyDetailsKey(keys, userId);
      const details = parsed(await redis.hget(key, credentialID));
      const removed = await redis.del(keys.authenticator(credentialID));
      await redis.srem(keys.userAuthenticators(userId), credentialID);
      await redis.hdel(key, credentialID);
      return removed === 1 ? passkeyFrom(authenticator, details) : null;
    },
  };
}
