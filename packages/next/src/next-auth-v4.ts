/**
 * next-auth v4's session token format, for apps leaving v4: encode and decode v4 tokens (a JWE
 * with `alg: "dir"`, `enc: "A256GCM"`, its key HKDF-SHA-256 of the secret with the salt `""` and
 * the info `NextAuth.js Generated Encryption Key`), and the legacy session cookies that
 * `nextAuthV4Cookies: true` reads. `@tessera/next-auth/jwt` is built on these.
 *
 * @example
 * ```ts
 * import { decodeV4Token } from "@tessera/next/next-auth-v4"
 * const claims = await decodeV4Token({ token: cookieValue, secret: process.env.NEXTAUTH_SECRET! })
 * ```
 */

export { v4SessionCookieName, v4SessionCookies } from "./lib/next-auth-v4-cookies.js";
export { decodeV4Token, type V4DecodeParams, type V4Secret } from "./lib/next-auth-v4-decode.js";
export { encodeV4Token, type V4EncodeParams } from "./lib/next-auth-v4-token.js";
