/**
 * WordPress.com sign-in (OAuth 2 of the WordPress.com REST API, for WordPress.com accounts and
 * Jetpack-connected sites). The scope `auth` is asked for, which allows reading the account;
 * the profile is `GET https://public-api.wordpress.com/rest/v1/me`, with the user's numeric
 * `ID`, `display_name`, `email` and `avatar_URL`.
 *
 * Callback URL to register (the application's "Redirect URLs" at developer.wordpress.com/apps):
 * `<origin>/auth/callback/wordpress`. Credentials from `AUTH_WORDPRESS_ID` (the client ID) and
 * `AUTH_WORDPRESS_SECRET` (the client secret).
 *
 * @example
 * ```ts
 * import WordPress from "@tessera/core/providers/wordpress"
 * const config = { providers: [WordPress] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://public-api.wordpress.com/rest/v1/me`. */
export interface WordPressProfile {
  ID: number;
  display_name: string;
  username: string;
  email: string;
  email_verified?: boolean;
  primary_blog?: number;
  avatar_URL: string;
  profile_URL?: string;
  [field: string]: unknown;
}

/**
 * WordPress.com provider.
 *
 * @example
 * ```ts
 * WordPress({ authorization: { params: { scope: "global" } } })
 * ```
 */
export default function WordPress<P extends WordPressProfile = WordPressProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "wordpress",
    name: "WordPress.com",
    type: "oauth",
    authorization: "https://public-api.wordpress.com/oauth2/authorize?scope=auth",
    token: "https://public-api.wordpress.com/oauth2/token",
    userinfo: "https://public-api.wordpress.com/rest/v1/me",
    profile(profile) {
      return {
        id: String(profile.ID),
        name: profile.display_name,
        email: profile.email,
        image: profile.avatar_URL,
      };
    },
    style: { brandColor: "#21759B" },
    options,
  };
}
