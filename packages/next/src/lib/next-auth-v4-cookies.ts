/**
 * next-auth v4's session cookies as the core's legacy session cookies (`nextAuthV4Cookies: true`).
 * The decoder (JWE through `jose`) loads with the first v4 cookie a request carries: an app, and
 * every middleware bundle, that never sees one does not evaluate it.
 */
import type { JWT, LegacySessionCookie } from "@tessera/core";

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
    const { decodeV4Token } = await import("./next-auth-v4-decode.js");
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
