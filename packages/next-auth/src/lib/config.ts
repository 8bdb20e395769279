/**
 * next-auth v4's options as a Tessera configuration for `@tessera/next`: v4's cookie names, v4's
 * session token (A256GCM JWE, salt `""`) and OAuth check cookies (salt = the cookie's name),
 * `NEXTAUTH_SECRET`, and the callbacks, events and pages
 * as they are (their v4 parameters are the ones the core passes).
 */
import { type AuthConfig, setEnvDefaults, siteUrlFromEnv } from "@tessera/core";
import { decodeV4Token as v4Decode, encodeV4Token as v4Encode } from "@tessera/next/next-auth-v4";
import type { NextAuthConfig } from "@tessera/next/types";
import type { AuthOptions, JWT } from "../types.js";
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
 * The sealing of the cookies of an OAuth sign-in in flight (`next-auth.state`,
 * `next-auth.pkce.code_verifier`, `next-auth.nonce`) as v4 writes them: its JWE with the cookie's
 * name as salt (info `NextAuth.js Generated Encryption Key (<name>)`). v4 seals them with its own
 * codec even when the app brings a `jwt.encode`, and so does this. A sign-in started on a v4
 * deployment completes on Tessera, and one started on Tessera completes on v4 after a rollback.
 */
function checkCookieCodec(secret: string): NonNullable<CoreJwt["checkCookieCodec"]> {
  return {
    encode: ({ token, salt, maxAge }) => v4Encode({ token, salt, secret, maxAge }),
    decode: ({ token, salt }) => v4Decode<Record<string, unknown>>({ token, salt, secret }),
  };
}

/**
 * The Tessera configuration equivalent to v4 `options` (a `@tessera/next` configuration).
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
      ...(secret !== undefined && {
        ...sessionCodec(options, secret),
        checkCookieCodec: checkCookieCodec(secret),
      }),
    },
  };
  return config;
}

const prepared = new WeakMap<AuthOptions, AuthConfig>();

/**
 * The Tessera configuration serving `options`, with the environment defaults filled in (base path
 * from `NEXTAUTH_URL`'s path, else `/api/auth`; `trustHost` from `AUTH_TRUST_HOST`/`VERCEL`).
 * Made once per options object, so the core resolves it once, not per request.
 *
 * @example
 * ```ts
 * const config = configFor(authOptions)
 * config.basePath // "/api/auth"
 * ```
 */
export function configFor(options: AuthOptions): AuthConfig {
  let config = prepared.get(options);
  if (!config) {
    config = toTesseraConfig(options) as AuthConfig;
    if (!config.basePath) {
      const site = siteUrlFromEnv(process.env);
      let path = "";
      try {
        path = site ? new URL(site).pathname.replace(/\/+$/, "") : "";
      } catch {
        // A malformed NEXTAUTH_URL is reported as a configuration error when a request comes.
      }
      config.basePath = path || "/api/auth";
    }
    setEnvDefaults(process.env, config, true);
    prepared.set(options, config);
  }
  return config;
}
