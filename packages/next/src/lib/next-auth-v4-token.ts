/**
 * next-auth v4's session tokens: encode and decode (A256GCM JWE, HKDF salt `""` and v4's info),
 * and v4's session cookies as the core's legacy session cookies. Public as
 * `@tessera/next/next-auth-v4`.
 */
import type { JWT, LegacySessionCookie } from "@tessera/core";
import { EncryptJWT, jwtDecrypt } from "jose";
import { v4EncryptionKey } from "./next-auth-v4-keys.js";

/** A secret as next-auth v4 takes it: a string or bytes (a Node `Buffer` is bytes). */
export type V4Secret = string | Uint8Array;

/** Parameters of {@link encodeV4Token}. */
export interface V4EncodeParams<Claims = JWT> {
  /** The claims; `iat`, `exp` and `jti` are added. */
  token?: Claims;
  /** Key derivation salt: `""` (the default) for session tokens, the cookie name for others. */
  salt?: string;
  secret: V4Secret;
  /** Seconds until `exp`; default 30 days. */
  maxAge?: number;
}

/** Parameters of {@link decodeV4Token}. */
export interface V4DecodeParams {
  token?: string;
  salt?: string;
  secret: V4Secret;
}

const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;

/**
 * Encrypts `token` as next-auth v4 does: a compact JWE with the protected header exactly
 * `{"alg":"dir","enc":"A256GCM"}`, and `iat`, `exp` (now + `maxAge`) and `jti` (a random UUID).
 *
 * @example
 * ```ts
 * const value = await encodeV4Token({ token: { sub: "42" }, secret: process.env.NEXTAUTH_SECRET! })
 * ```
 */
export async function encodeV4Token<Claims = JWT>(params: V4EncodeParams<Claims>): Promise<string> {
  const { token = {}, secret, maxAge = DEFAULT_MAX_AGE, salt = "" } = params;
  const key = await v4EncryptionKey(secret, salt);
  const now = Math.floor(Date.now() / 1000);
  return new EncryptJWT(token as Record<string, unknown>)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt(now)
    .setExpirationTime(now + maxAge)
    .setJti(crypto.randomUUID())
    .encrypt(key);
}

/**
 * Decrypts a token written by {@link encodeV4Token} or by next-auth v4. Returns `null` without a
 * token; throws when it is malformed, tampered with, encrypted under another secret or expired
 * (15 s of clock skew allowed), as next-auth v4's `decode` does.
 *
 * @example
 * ```ts
 * const claims = await decodeV4Token({ token: cookieValue, secret: process.env.NEXTAUTH_SECRET! })
 * ```
 */
export async function decodeV4Token<Claims = JWT>(params: V4DecodeParams): Promise<Claims | null> {
  const { token, secret, salt = "" } = params;
  if (!token) return null;
  const key = await v4EncryptionKey(secret, salt);
  // Algorithm confusion: only the one algorithm pair v4 writes is accepted.
  const { payload } = await jwtDecrypt(token, key, {
    clockTolerance: 15,
    keyManagementAlgorithms: ["dir"],
    contentEncryptionAlgorithms: ["A256GCM"],
  });
  return payload as Claims;
}

/** next-auth v4's session cookie name: `next-auth.session-token`, `__Secure-` prefixed on https. */
export function v4SessionCookieName(secure: boolean): string {
  return `${secure ? "__Secure-" : ""}next-auth.session-token`;
}

/**
 * next-auth v4's session cookies (http and https names) as legacy session cookies
 * (`jwt.legacySessionCookies`): decoded with each of `secrets` (the current one and the ones it
 * replaced), a valid one's claims carry over as they are.
 *
 * @example
 * ```ts
 * jwt: { legacySessionCookies: v4SessionCookies(() => [process.env.NEXTAUTH_SECRET!]) }
 * ```
 */
export function v4SessionCookies(secrets: () => readonly string[]): LegacySessionCookie[] {
  const decode = async (token: string): Promise<JWT | null> => {
    for (const secret of secrets()) {
      try {
        const claims = await decodeV4Token({ token, secret });
        if (claims) return claims;
      } catch {
        // Not this secret (or not a v4 token at all): the next secret is tried.
      }
    }
    return null;
  };
  return [v4SessionCookieName(false), v4SessionCookieName(true)].map((name) => ({ name, decode }));
}
