/**
 * next-auth v4's session tokens, read (A256GCM JWE, HKDF salt `""` and v4's info). Its own module,
 * loaded with the first v4 cookie (next-auth-v4-cookies.ts), so that `jose`'s JWE code is neither
 * evaluated nor, in one-file bundles, shipped with its encryption half where no v4 token is read.
 */
import type { JWT } from "@tessera/core";
import { jwtDecrypt } from "jose";
import { v4EncryptionKey } from "./next-auth-v4-keys.js";

/** A secret as next-auth v4 takes it: a string or bytes (a Node `Buffer` is bytes). */
export type V4Secret = string | Uint8Array;

/** Parameters of {@link decodeV4Token}. */
export interface V4DecodeParams {
  token?: string;
  salt?: string;
  secret: V4Secret;
}

/**
 * Decrypts a token written by `encodeV4Token` or by next-auth v4. Returns `null` without a
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
