/**
 * Twitter / X sign-in (OAuth 2 with PKCE, X API v2). X returns no e-mail unless the app has the
 * `users.email` scope and asks for `confirmed_email`.
 *
 * Deliberate difference from Auth.js: the user's `email` is X's `confirmed_email` (the address X
 * has confirmed); Auth.js reads `data.email`, a field X API v2 does not define, so its users get
 * no e-mail from X. See docs/migrating-from-authjs.md.
 *
 * Callback URL to register: `<origin>/auth/callback/twitter`. Credentials from
 * `AUTH_TWITTER_ID` and `AUTH_TWITTER_SECRET` (the OAuth 2.0 client id and secret).
 *
 * @example
 * ```ts
 * import Twitter from "@tessera/core/providers/twitter"
 * const config = { providers: [Twitter] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET /2/users/me`. */
export interface TwitterProfile {
  data: {
    id: string;
    name: string;
    username: string;
    profile_image_url?: string;
    confirmed_email?: string;
    description?: string;
    verified?: boolean;
    created_at?: string;
    [field: string]: unknown;
  };
  [key: string]: unknown;
}

/**
 * Twitter / X provider.
 *
 * @example
 * ```ts
 * Twitter({
 *   authorization: { params: { scope: "users.read tweet.read users.email offline.access" } },
 *   userinfo: "https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email",
 * })
 * ```
 */
export default function Twitter<P extends TwitterProfile = TwitterProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "twitter",
    name: "Twitter",
    type: "oauth",
    checks: ["pkce", "state"],
    authorization: "https://x.com/i/oauth2/authorize?scope=users.read tweet.read offline.access",
    token: "https://api.x.com/2/oauth2/token",
    userinfo: "https://api.x.com/2/users/me?user.fields=profile_image_url",
    profile({ data }) {
      return {
        id: data.id,
        name: data.name,
        email: data.confirmed_email ?? null,
        image: data.profile_image_url ?? null,
      };
    },
    style: { brandColor: "#000000" },
    options,
  };
}
