/**
 * `encode` and `decode` of JWT sessions over a {@link SessionTokenCache}: the public functions of
 * `@tessera/core/jwt` and the check cookies use the shared cache ({@link encodeJwt},
 * {@link decodeJwt}), a resolved config binds its own.
 */
import { MissingSecret } from "../../errors.js";
import type { JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "../../types.js";
import {
  decryptSessionToken,
  encryptSessionToken,
  SessionTokenCache,
  sharedSessionTokenCache,
} from "./jwe.js";
import { defaultEngine } from "./keys.js";

/** Thirty days, Auth.js's default session lifetime. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;

/** The configured secrets, empty ones dropped; the first one encrypts. */
export function secretList(secret: string | string[]): string[] {
  // A config's list is read on every session read: copied only when it has empty entries.
  if (Array.isArray(secret)) return secret.every(Boolean) ? secret : secret.filter(Boolean);
  return secret ? [secret] : [];
}

/**
 * Encrypts `params.token` with the first secret, keys cached in `cache`.
 *
 * @example
 * ```ts
 * const jwe = await encodeSessionToken({ token: { sub: "42" }, secret, salt: "authjs.session-token" }, cache)
 * ```
 */
export function encodeSessionToken<Payload = JWT>(
  params: JWTEncodeParams<Payload>,
  cache: SessionTokenCache,
): Promise<string> {
  const { token = {}, secret, salt, maxAge = DEFAULT_MAX_AGE } = params;
  const secrets = secretList(secret);
  if (secrets.length === 0) throw new MissingSecret("encode() needs a secret.");
  if (typeof salt !== "string") throw new TypeError("encode() needs a salt (the cookie name).");
  const claims = token as Record<string, unknown>;
  return encryptSessionToken(claims, secrets, salt, maxAge, defaultEngine, cache);
}

/**
 * Decrypts `params.token` (any of the secrets), keys cached in `cache`; `null` without a token.
 * A value, not a promise, on node:crypto once the key is derived (the session read's fast path:
 * it then awaits nothing); every failure is a rejected promise, as from an async function.
 *
 * @example
 * ```ts
 * const payload = await decodeSessionToken({ token, secret: [next, previous], salt: "authjs.session-token" }, cache)
 * ```
 */
export function decodeSessionToken<Payload = JWT>(
  params: JWTDecodeParams,
  cache: SessionTokenCache,
): Payload | null | Promise<Payload | null> {
  try {
    const { token, secret, salt, maxAge } = params;
    if (!token) return null;
    const secrets = secretList(secret);
    if (secrets.length === 0) throw new MissingSecret("decode() needs a secret.");
    if (typeof salt !== "string") throw new TypeError("decode() needs a salt (the cookie name).");
    if (maxAge !== undefined && !(Number.isFinite(maxAge) && maxAge >= 0))
      throw new TypeError("decode() needs maxAge to be a number of seconds.");
    return decryptSessionToken(token, secrets, salt, defaultEngine, { maxAge }, cache) as
      | Payload
      | Promise<Payload>;
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * {@link encodeSessionToken} with the shared key cache (keyed by secret and salt): what
 * `@tessera/core/jwt`'s `encode` does, and how the PKCE, state, nonce and WebAuthn challenge
 * cookies are sealed.
 *
 * @example
 * ```ts
 * const jwe = await encodeJwt({ token: { value: verifier }, secret, salt: "authjs.pkce.code_verifier", maxAge: 900 })
 * ```
 */
export function encodeJwt<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  return encodeSessionToken(params, sharedSessionTokenCache);
}

/**
 * {@link decodeSessionToken} with the shared key cache, always as a promise: what
 * `@tessera/core/jwt`'s `decode` does, and how the check cookies are opened.
 *
 * @example
 * ```ts
 * const payload = await decodeJwt<{ value: string }>({ token: cookieValue, secret, salt: "authjs.state" })
 * ```
 */
export async function decodeJwt<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  return decodeSessionToken<Payload>(params, sharedSessionTokenCache);
}

/**
 * The default `jwt.encode`/`decode` of one resolved config: {@link encodeSessionToken} and
 * {@link decodeSessionToken} over a key cache of its own, shared with no other config.
 *
 * @example
 * ```ts
 * const { encode, decode } = sessionTokenCodec()
 * ```
 */
export function sessionTokenCodec(): Pick<JWTOptions, "encode" | "decode"> {
  const cache = new SessionTokenCache();
  return {
    encode: (params) => encodeSessionToken(params, cache),
    decode: (params) => decodeSessionToken(params, cache),
  };
}
