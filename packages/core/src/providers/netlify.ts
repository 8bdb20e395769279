/**
 * Netlify sign-in (OAuth 2). Netlify's authorize URL carries an empty `scope` parameter; the
 * profile is read from `GET https://api.netlify.com/api/v1/user`.
 *
 * Callback URL to register (the OAuth application under User settings → Applications):
 * `<origin>/auth/callback/netlify`. Credentials from `AUTH_NETLIFY_ID` and
 * `AUTH_NETLIFY_SECRET`.
 *
 * @example
 * ```ts
 * import Netlify from "@tessera/core/providers/netlify"
 * const config = { providers: [Netlify] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.netlify.com/api/v1/user`. */
export interface NetlifyProfile {
  id: string;
  full_name: string;
  email: string;
  avatar_url: string;
  [field: string]: unknown;
}

/**
 * Netlify provider.
 *
 * @example
 * ```ts
 * Netlify({ clientId: process.env.NETLIFY_ID, clientSecret: process.env.NETLIFY_SECRET })
 * ```
 */
export default function Netlify<P extends NetlifyProfile = NetlifyProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "netlify",
    name: "Netlify",
    type: "oauth",
    authorization: "https://app.netlify.com/authorize?scope",
    token: "https://api.netlify.com/oauth/token",
    userinfo: "https://api.netlify.com/api/v1/user",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.full_name,
        email: profile.email,
        image: profile.avatar_url,
      };
    },
    style: { brandColor: "#32e6e2" },
    options,
  };
}
