/**
 * How credentials are stored. Adapters keep `credentialID` and `credentialPublicKey` as standard
 * base64 (Auth.js's `AdapterAuthenticator`: "Base64 encoded", with padding, as Auth.js writes them), while
 * WebAuthn messages carry base64url (W3C WebAuthn §5.1). Converting through bytes keeps
 * databases written by Auth.js usable as they are.
 */
import type { AdapterAuthenticator } from "../../adapters.js";
import { base64url, fromBase64url } from "../crypto/encoding.js";

const hasBuffer = typeof (globalThis as { Buffer?: unknown }).Buffer === "function";
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Standard base64 (RFC 4648 §4) with padding. */
export function toBase64(bytes: Uint8Array): string {
  if (hasBuffer)
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Decodes base64, padded or not, in either alphabet; throws `TypeError` on anything else. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  if (!BASE64.test(text)) throw new TypeError("invalid base64");
  return fromBase64url(text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"));
}

/**
 * The stored form of a credential id from a WebAuthn message (base64url → base64).
 *
 * @example
 * ```ts
 * storedCredentialId("-_8") // "+/8="
 * ```
 */
export function storedCredentialId(webauthnId: string): string {
  return toBase64(fromBase64url(webauthnId));
}

/** The WebAuthn (base64url) form of a stored credential id or key. */
export function webauthnCredentialId(stored: string): string {
  return base64url(fromBase64(stored));
}

/** Transports are stored as one comma-separated string (Auth.js's "concatenated transport flags"). */
export function transportsToString(transports: readonly string[] | undefined): string | null {
  return transports?.length ? transports.join(",") : null;
}

/** The inverse of {@link transportsToString}. */
export function stringToTransports(value: string | null | undefined): string[] | undefined {
  return value ? value.split(",").filter(Boolean) : undefined;
}

/** A credential descriptor (for `allowCredentials` / `excludeCredentials`) of a stored authenticator. */
export function descriptorOf(authenticator: AdapterAuthenticator): {
  id: string;
  transports?: string[];
} {
  const transports = stringToTransports(authenticator.transports);
  return {
    id: webauthnCredentialId(authenticator.credentialID),
    ...(transports && { transports }),
  };
}
