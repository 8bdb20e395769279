/**
 * next-auth v4's cookie names and attributes, so that cookies a v4 site set are read after the
 * switch (and the other way round): `next-auth.*`, prefixed `__Secure-` on https (`__Host-` for
 * the CSRF cookie), `HttpOnly`, `SameSite=Lax`, `Path=/`.
 */
import type { CookieOption, CookiesOptions } from "@tessera/core/types";
import { v4SessionCookieName } from "@tessera/next/next-auth-v4";

const CHECK_MAX_AGE = 60 * 15;

/**
 * Whether v4 would use secure cookies: `useSecureCookies` when set, else whether the site URL
 * (`NEXTAUTH_URL`, or `AUTH_URL`) is https, else whether the app runs on Vercel (which serves
 * https only), as next-auth v4's `getToken` decides.
 *
 * @example
 * ```ts
 * process.env.NEXTAUTH_URL = "https://app.example"
 * v4UsesSecureCookies(undefined) // true
 * ```
 */
export function v4UsesSecureCookies(useSecureCookies: boolean | undefined): boolean {
  if (useSecureCookies !== undefined) return useSecureCookies;
  const site = process.env.NEXTAUTH_URL || process.env.AUTH_URL;
  if (site) return site.startsWith("https://");
  return Boolean(process.env.VERCEL);
}

/**
 * The cookies next-auth v4 writes, for the core's `cookies` option.
 *
 * @example
 * ```ts
 * v4Cookies(true).csrfToken.name // "__Host-next-auth.csrf-token"
 * ```
 */
export function v4Cookies(secure: boolean): CookiesOptions {
  const prefix = secure ? "__Secure-" : "";
  const option = (name: string, extra: Partial<CookieOption["options"]> = {}): CookieOption => ({
    name,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure, ...extra },
  });
  return {
    sessionToken: option(v4SessionCookieName(secure)),
    callbackUrl: option(`${prefix}next-auth.callback-url`),
    // v4 scopes the CSRF cookie to the host (`__Host-`) on https, as Tessera does.
    csrfToken: option(`${secure ? "__Host-" : ""}next-auth.csrf-token`),
    pkceCodeVerifier: option(`${prefix}next-auth.pkce.code_verifier`, { maxAge: CHECK_MAX_AGE }),
    state: option(`${prefix}next-auth.state`, { maxAge: CHECK_MAX_AGE }),
    nonce: option(`${prefix}next-auth.nonce`),
    // v4 has no WebAuthn; the name follows v4's scheme should an app turn it on.
    webauthnChallenge: option(`${prefix}next-auth.challenge`, { maxAge: CHECK_MAX_AGE }),
  };
}
