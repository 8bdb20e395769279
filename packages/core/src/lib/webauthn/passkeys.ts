/**
 * Passkey management (Tessera extension): a signed-in user's passkeys as a list, renamed or
 * deleted, and the details recorded when a passkey is created or used. Needs an adapter with
 * `listPasskeysByUserId`, `updatePasskey` and `deletePasskey`; without them nothing is recorded
 * and the `passkeys` action answers 404.
 */
import type { AdapterPasskey, AdapterUser, PasskeyDetails } from "../../adapters.js";
import { AdapterError } from "../../errors.js";
import { passkeyAdapter } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import type { WebAuthnConfig } from "../provider-types.js";
import { storedCredentialId, stringToTransports, webauthnCredentialId } from "./credential.js";
import { relyingPartyFor } from "./relying-party.js";

/** Longest passkey name kept: it is shown in lists, and storage is not free. */
export const MAX_PASSKEY_NAME_LENGTH = 64;

/** One entry of `GET <basePath>/passkeys`. Dates are ISO 8601; unknown ones are null. */
export interface ListedPasskey {
  /** The credential id as the browser names it (base64url): `PublicKeyCredential.id`. */
  id: string;
  name: string | null;
  createdAt: string | null;
  lastUsedAt: string | null;
  /** `multiDevice` for a passkey that can be synced, `singleDevice` for one bound to a device. */
  deviceType: string;
  /** Whether the passkey is backed up (synced) right now. */
  backedUp: boolean;
  transports: string[];
}

/**
 * What the browser needs for the WebAuthn Signal API calls about the user's passkeys: the RP id,
 * and per user handle the credential ids the server accepts (handles are random per passkey).
 */
export interface PasskeySignals {
  rpId: string;
  /** The user's name and display name, as registration gave them to the authenticator. */
  name: string;
  displayName: string;
  /** `signalAllAcceptedCredentials` arguments: every known handle with the user's ids. */
  userHandles: string[];
  allAcceptedCredentialIds: string[];
}

function isoOrNull(value: Date | null | undefined): string | null {
  return value instanceof Date ? value.toISOString() : null;
}

/**
 * The listed form of a stored passkey.
 *
 * @example
 * ```ts
 * listedPasskey(await adapter.updatePasskey({ userId, credentialID, name: "Phone" }))
 * ```
 */
export function listedPasskey(passkey: AdapterPasskey): ListedPasskey {
  return {
    id: webauthnCredentialId(passkey.credentialID),
    name: passkey.name ?? null,
    createdAt: isoOrNull(passkey.createdAt),
    lastUsedAt: isoOrNull(passkey.lastUsedAt),
    deviceType: passkey.credentialDeviceType,
    backedUp: passkey.credentialBackedUp === true,
    transports: stringToTransports(passkey.transports) ?? [],
  };
}

/** The first WebAuthn provider of the config (whose relying party the signals name). */
function webauthnProvider(ctx: AuthContext): WebAuthnConfig | undefined {
  return ctx.providers.find((provider) => provider.type === "webauthn") as
    | WebAuthnConfig
    | undefined;
}

/** The RP id the Signal API calls name: the one the WebAuthn provider's options carry. */
export function signalRpId(ctx: AuthContext): string {
  const provider = webauthnProvider(ctx);
  return provider ? relyingPartyFor(provider, ctx.url).id : ctx.url.hostname;
}

/**
 * The Signal API arguments for `user`'s current passkeys.
 *
 * @example
 * ```ts
 * const signals = passkeySignals(ctx, user, await adapter.listPasskeysByUserId(user.id))
 * ```
 */
export function passkeySignals(
  ctx: AuthContext,
  user: AdapterUser,
  passkeys: readonly AdapterPasskey[],
): PasskeySignals {
  const rpId = signalRpId(ctx);
  const name = user.email || user.name || user.id;
  const handles = new Set<string>();
  for (const passkey of passkeys) if (passkey.userHandle) handles.add(passkey.userHandle);
  return {
    rpId,
    name,
    displayName: user.name || name,
    userHandles: [...handles],
    allAcceptedCredentialIds: passkeys.map((passkey) => webauthnCredentialId(passkey.credentialID)),
  };
}

/**
 * Records a registration or a sign-in on the passkey's details, when the adapter keeps them. A
 * failure is logged and does not fail the sign-in: the details are informative.
 */
export async function recordPasskeyUse(
  ctx: AuthContext,
  key: { userId: string; credentialID: string },
  details: Partial<PasskeyDetails>,
): Promise<void> {
  const adapter = passkeyAdapter(ctx.config);
  if (!adapter) return;
  try {
    await adapter.updatePasskey({ ...key, ...details });
  } catch (error) {
    ctx.logger.error(error instanceof AdapterError ? error : new AdapterError(error as Error));
  }
}

/** The stored credential id of a browser-side one, or null when it cannot be one. */
export function storedIdOf(id: unknown): string | null {
  // Real ids are at most 1023 bytes (WebAuthn §5.8.3); anything else is refused before storage.
  if (typeof id !== "string" || id === "" || id.length > 1400 || !/^[\w-]+$/.test(id)) return null;
  return storedCredentialId(id);
}
