/**
 * Encrypted JWT helpers, compatible with Auth.js v5 cookies in both directions.
 *
 * @example
 * ```ts
 * import { encode, decode, getToken } from "@tessera/core/jwt"
 * const token = await encode({ token: { sub: "42" }, secret, salt: "authjs.session-token" })
 * const payload = await decode({ token, secret, salt: "authjs.session-token" })
 * const fromRequest = await getToken({ req: request }) // infers cookie name, salt and AUTH_SECRET
 * ```
 */
import { MissingSecret } from "./errors.js";
import { processEnv, secretsFromEnv, siteUrlFromEnv } from "./lib/config/env.js";
import { decodeJwt, encodeJwt, secretList } from "./lib/crypto/jwe.js";
import { parseCookies, readChunkedCookie } from "./lib/http/cookies.js";
import { readJwtToken } from "./lib/session/jwt-revocation.js";
import type { SharedStore } from "./lib/store/shared-store.js";
import type { JWT, JWTDecodeParams, JWTEncodeParams, LoggerInstance } from "./types.js";

export type { DefaultJWT, JWTOptions } from "./types.js";
export type { JWT, JWTDecodeParams, JWTEncodeParams };

/**
 * Encrypts a JWT payload as a JWE (`dir` + A256CBC-HS512) with the first secret, adding `iat`,
 * `exp` (now + `maxAge`, default 30 days) and `jti`.
 *
 * @example
 * ```ts
 * const jwe = await encode({ token: { name: "Ada" }, secret: process.env.AUTH_SECRET!, salt: "authjs.session-token" })
 * ```
 */
export function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  return encodeJwt(params);
}

/**
 * Decrypts a JWE written by {@link encode} (or by Auth.js). Returns `null` when there is no token;
 * throws when it is malformed, tampered, foreign, expired or issued in the future (15 s of clock
 * skew allowed). With `maxAge`, a token older than `iat + maxAge` is refused even if its `exp` is
 * later. With several secrets, the one whose key id matches the token's `kid` is used.
 *
 * @example
 * ```ts
 * const payload = await decode({ token: cookieValue, secret: [newSecret, oldSecret], salt: "authjs.session-token", maxAge: 3600 })
 * ```
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  return decodeJwt<Payload>(params);
}

export interface GetTokenParams<R extends boolean = false> {
  /** A `Request`, or any object with `headers` (a `Headers` or a plain record). */
  req: Request | { headers: Headers | Record<string, string | string[] | undefined>; url?: string };
  /** Defaults to `AUTH_SECRET` (and `AUTH_SECRET_1..3`). */
  secret?: string | string[];
  /** Defaults to the cookie name. */
  salt?: string;
  /** Defaults to `authjs.session-token`, or `__Secure-authjs.session-token` when secure. */
  cookieName?: string;
  /** Defaults to true when `AUTH_URL` or the request URL is https. */
  secureCookie?: boolean;
  /**
   * The session's lifetime in seconds (your `session.maxAge`): a token older than `iat + maxAge`
   * is refused even if its `exp` is later. Without it only `exp` and `iat` are checked.
   */
  maxAge?: number;
  /** Return the encrypted string instead of the payload. */
  raw?: R;
  decode?: (params: JWTDecodeParams) => Promise<JWT | null> | JWT | null;
  logger?: Pick<LoggerInstance, "error"> | Console;
  /**
   * Tessera extension: the store of your `jwt.revocation`. With it, the token of a revoked
   * session (signed out, `revokeJwtSession`) answers `null`, and so does any token while the
   * store cannot be read (fail closed; the error is logged). Without it getToken only decodes,
   * as Auth.js's does. Back-channel logouts are not consulted here: `auth()` and the session
   * read check them.
   */
  revocation?: SharedStore;
  /** Seconds a "not revoked" answer is trusted by this process; default 1, 0 asks every time. */
  revocationCacheSeconds?: number;
}

function headerValue(req: GetTokenParams["req"], name: string): string | null {
  const headers = req.headers;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join("; ") : (value ?? null);
}

/**
 * Reads the session JWT of a request, from its cookies (chunked or not) or from an
 * `Authorization: Bearer` header. Returns `null` when there is none or it does not decode.
 *
 * It decodes only: a copied cookie of a signed-out session still decodes until it expires. Pass
 * `revocation` (your `jwt.revocation` store) to refuse revoked sessions too. Back-channel logouts
 * of the OpenID Provider are never consulted by getToken; read the session (`auth()`) for those.
 *
 * @example
 * ```ts
 * const token = await getToken({ req: request })
 * if (!token) return new Response("Unauthorized", { status: 401 })
 * ```
 */
export async function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string | null : JWT | null> {
  type Result = R extends true ? string | null : JWT | null;
  const { req, raw, logger = console } = params;
  const env = processEnv();
  const envUrl = siteUrlFromEnv(env);
  const requestUrl = "url" in req && typeof req.url === "string" ? req.url : undefined;
  const secureCookie =
    params.secureCookie ??
    (envUrl ? envUrl.startsWith("https://") : (requestUrl?.startsWith("https://") ?? false));
  const cookieName = params.cookieName ?? `${secureCookie ? "__Secure-" : ""}authjs.session-token`;
  const salt = params.salt ?? cookieName;
  const secret = params.secret ?? secretsFromEnv(env);
  if (secretList(secret).length === 0)
    throw new MissingSecret("getToken() needs a secret: pass `secret` or set AUTH_SECRET.");

  let token = readChunkedCookie(parseCookies(headerValue(req, "cookie")), cookieName);
  const authorization = headerValue(req, "authorization");
  if (!token && authorization?.startsWith("Bearer ")) {
    try {
      token = decodeURIComponent(authorization.slice(7).trim());
    } catch {
      return null as Result;
    }
  }
  if (!token) return null as Result;
  if (raw) return token as Result;
  // Decoded, and with a revocation store checked by the same rule as the session read.
  return (await readJwtToken({
    token,
    decode: params.decode ?? decode,
    secret,
    salt,
    maxAge: params.maxAge,
    revocation: params.revocation,
    revocationCacheSeconds: params.revocationCacheSeconds,
    logger,
  })) as Result;
}
