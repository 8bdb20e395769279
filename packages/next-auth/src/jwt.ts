/**
 * next-auth v4's JWT helpers: `encode`, `decode` and `getToken`, reading and writing the session
 * tokens next-auth@4 itself writes and reads (a JWE with `alg: "dir"`, `enc: "A256GCM"`, its key
 * derived with HKDF-SHA-256 from the secret, salt `""` and the info
 * `NextAuth.js Generated Encryption Key`), so a site moves to Tessera, and back, without signing
 * anyone out.
 *
 * @example
 * ```ts
 * import { getToken } from "@tessera/next-auth/jwt"
 *
 * export async function GET(req: Request) {
 *   const token = await getToken({ req })
 *   return Response.json({ signedIn: token !== null })
 * }
 * ```
 */
import { getToken as getCoreToken } from "@tessera/core/jwt";
import { decodeV4Token, encodeV4Token, v4SessionCookieName } from "@tessera/next/next-auth-v4";
import { v4UsesSecureCookies } from "./lib/cookies.js";
import type { JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "./types.js";

export type {
  DefaultJWT,
  JWT,
  JWTDecodeParams,
  JWTEncodeParams,
  JWTOptions,
  Secret,
} from "./types.js";

/**
 * Encrypts `token` as next-auth v4 does: a compact JWE with the protected header exactly
 * `{"alg":"dir","enc":"A256GCM"}`, and `iat`, `exp` (now + `maxAge`) and `jti` (a random UUID).
 *
 * @example
 * ```ts
 * const cookieValue = await encode({ token: { sub: "42", name: "Ada" }, secret: process.env.NEXTAUTH_SECRET! })
 * ```
 */
export function encode(params: JWTEncodeParams): Promise<string> {
  return encodeV4Token(params);
}

/**
 * Decrypts a token written by {@link encode} or by next-auth v4. Returns `null` without a token;
 * throws when it is malformed, tampered with, encrypted under another secret or expired (15 s of
 * clock skew allowed), as next-auth v4's `decode` does.
 *
 * @example
 * ```ts
 * const claims = await decode({ token: cookieValue, secret: process.env.NEXTAUTH_SECRET! })
 * ```
 */
export function decode(params: JWTDecodeParams): Promise<JWT | null> {
  return decodeV4Token<JWT>(params);
}

/** A request `getToken` reads: a Fetch/`NextRequest`, or a Node (`NextApiRequest`) request. */
export type GetTokenRequest =
  | Request
  | { headers: Headers | Record<string, string | string[] | undefined>; url?: string };

/** Parameters of {@link getToken}, as next-auth v4 takes them. */
export interface GetTokenParams<R extends boolean = false> {
  req: GetTokenRequest;
  /** Default: `true` when `NEXTAUTH_URL` is https (or on Vercel without it). */
  secureCookie?: boolean;
  /** Default: `next-auth.session-token`, `__Secure-` prefixed when secure. */
  cookieName?: string;
  /** Answer the encrypted token itself instead of its claims. */
  raw?: R;
  /** Default: `NEXTAUTH_SECRET`, else `AUTH_SECRET`. */
  secret?: string;
  decode?: JWTOptions["decode"];
  logger?: Pick<Console, "error">;
}

/**
 * The session token's claims of a request, read from the session cookie (chunked or not) or an
 * `Authorization: Bearer` header, or `null` when there is none or it does not decode. With
 * `raw: true`, the encrypted token itself.
 *
 * @example
 * ```ts
 * // pages/api/me.ts
 * import type { NextApiRequest, NextApiResponse } from "next"
 * import { getToken } from "@tessera/next-auth/jwt"
 *
 * export default async function handler(req: NextApiRequest, res: NextApiResponse) {
 *   const token = await getToken({ req })
 *   res.status(token ? 200 : 401).json({ email: token?.email ?? null })
 * }
 * ```
 */
export async function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string | null : JWT | null> {
  type Result = R extends true ? string | null : JWT | null;
  const secureCookie = params.secureCookie ?? v4UsesSecureCookies(undefined);
  const cookieName = params.cookieName ?? v4SessionCookieName(secureCookie);
  const secret = params.secret ?? process.env.NEXTAUTH_SECRET ?? process.env.AUTH_SECRET;
  if (!secret) return null as Result;
  const decodeToken = params.decode ?? decode;
  try {
    return (await getCoreToken({
      req: params.req,
      secureCookie,
      cookieName,
      secret,
      raw: params.raw === true,
      decode: async ({ token }) => (await decodeToken({ token, secret })) ?? null,
      logger: params.logger ?? console,
    })) as Result;
  } catch {
    // A cookie that does not decode is no session: v4's getToken answers null, never throws.
    return null as Result;
  }
}
