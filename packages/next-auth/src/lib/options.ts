/**
 * next-auth v4's options as a Tessera configuration for `@tessera/next`: v4's cookie names, v4's
 * session token (A256GCM JWE, salt `""`), `NEXTAUTH_SECRET`, and the callbacks, events and pages
 * as they are (their v4 parameters are the ones the core passes). One `@tessera/next` instance
 * per options object, made at its first use.
 */
import type { AuthConfig } from "@tessera/core";
import NextAuthV5 from "@tessera/next";
import type { NextAuthConfig, NextAuthResult } from "@tessera/next/types";
import { type JWT, decode as v4Decode, encode as v4Encode } from "../jwt.js";
import type { AuthOptions } from "../types.js";
import { v4Cookies, v4UsesSecureCookies } from "./cookies.js";

/** The secret v4 would use: the option, `jwt.secret`, `NEXTAUTH_SECRET`, then `AUTH_SECRET`. */
export function v4Secret(options: AuthOptions): string | undefined {
  return (
    options.secret ||
    options.jwt?.secret ||
    process.env.NEXTAUTH_SECRET ||
    process.env.AUTH_SECRET ||
    undefined
  );
}

type CoreJwt = NonNullable<NextAuthConfig["jwt"]>;

/**
 * The session token codec: v4's (or the app's v4 `jwt.encode`/`decode`), called as v4 calls it.
 * The core passes the cookie name as salt and its secrets as a list; v4 session tokens use the salt
 * `""` and one secret.
 */
function sessionCodec(options: AuthOptions, secret: string): Pick<CoreJwt, "encode" | "decode"> {
  const encodeToken = options.jwt?.encode ?? v4Encode;
  const decodeToken = options.jwt?.decode ?? v4Decode;
  return {
    encode: async ({ token, maxAge }) =>
      encodeToken({ token: (token ?? {}) as JWT, secret, ...(maxAge !== undefined && { maxAge }) }),
    decode: async ({ token }) => {
      if (!token) return null;
      return (await decodeToken({ token, secret })) ?? null;
    },
  };
}

/**
 * The `@tessera/next` configuration equivalent to v4 `options`.
 *
 * @example
 * ```ts
 * const config = toTesseraConfig({ providers: [GitHub], secret: "…" })
 * config.cookies?.sessionToken?.name // "next-auth.session-token" (http) or "__Secure-…" (https)
 * ```
 */
export function toTesseraConfig(options: AuthOptions): NextAuthConfig {
  const secret = v4Secret(options);
  const secure = v4UsesSecureCookies(options.useSecureCookies);
  const { jwt, secret: _secret, cookies, ...rest } = options;
  const config: NextAuthConfig = {
    ...(rest as Omit<NextAuthConfig, "jwt" | "cookies" | "secret">),
    useSecureCookies: secure,
    cookies: { ...v4Cookies(secure), ...cookies },
    ...(secret !== undefined && { secret }),
    jwt: {
      ...(jwt?.maxAge !== undefined && { maxAge: jwt.maxAge }),
      ...(secret !== undefined && sessionCodec(options, secret)),
    },
  };
  return config;
}

/** One options object's Tessera configuration and the `@tessera/next` instance serving it. */
export interface Prepared {
  /** The configuration, with the environment defaults `@tessera/next` filled in (base path…). */
  config: NextAuthConfig & AuthConfig;
  instance: NextAuthResult;
}

const prepared = new WeakMap<AuthOptions, Prepared>();

/**
 * The configuration and `@tessera/next` instance serving `options`, made once per options object
 * (the core then resolves the configuration once, not per request).
 *
 * @example
 * ```ts
 * const session = await preparedFor(authOptions).instance.auth()
 * ```
 */
export function preparedFor(options: AuthOptions): Prepared {
  let known = prepared.get(options);
  if (!known) {
    const config = toTesseraConfig(options);
    // `@tessera/next` fills the environment defaults (base path, trustHost) into `config` itself.
    const instance = NextAuthV5(config);
    known = { config: config as NextAuthConfig & AuthConfig, instance };
    prepared.set(options, known);
  }
  return known;
}
