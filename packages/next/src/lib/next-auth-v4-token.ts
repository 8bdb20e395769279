/**
 * next-auth v4's session tokens, written: A256GCM JWE, HKDF salt `""` and v4's info. Public as
 * `@tessera/next/next-auth-v4`; reading them is next-auth-v4-decode.ts.
 */
import type { JWT } from "@tessera/core";
import { EncryptJWT } from "jose";
import type { V4Secret } from "./next-auth-v4-decode.js";
import { v4EncryptionKey } from "./next-auth-v4-keys.js";

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
