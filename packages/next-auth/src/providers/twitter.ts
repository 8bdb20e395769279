/**
 * next-auth v4's Twitter provider: OAuth 1.0a ([RFC 5849](https://www.rfc-editor.org/rfc/rfc5849),
 * X API v1.1) unless `version: "2.0"` is given, as v4 has it, so a v4 app's X sign-in, its
 * registered callback URL and its users' account rows carry over unchanged.
 *
 * @example
 * ```ts
 * import TwitterProvider from "@tessera/next-auth/providers/twitter"
 *
 * TwitterProvider({ clientId: process.env.TWITTER_ID!, clientSecret: process.env.TWITTER_SECRET! })
 * // OAuth 2.0 (X API v2) instead:
 * TwitterProvider({ clientId: "…", clientSecret: "…", version: "2.0" })
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "@tessera/core/providers";
import Twitter, { type TwitterProfile } from "@tessera/core/providers/twitter";

export type { TwitterProfile } from "@tessera/core/providers/twitter";

/** The user of X API v1.1's `account/verify_credentials.json`. */
export interface TwitterLegacyProfile {
  id: number;
  id_str: string;
  name: string;
  screen_name: string;
  email?: string;
  profile_image_url_https: string;
  [field: string]: unknown;
}

/**
 * X sign-in with OAuth 1.0a, as v4's `TwitterLegacy`: the API key and secret are `clientId` and
 * `clientSecret`; the e-mail comes when the X app may ask for it (`include_email=true`).
 *
 * @example
 * ```ts
 * import { TwitterLegacy } from "@tessera/next-auth/providers/twitter"
 * TwitterLegacy({ clientId: process.env.TWITTER_API_KEY!, clientSecret: process.env.TWITTER_API_SECRET! })
 * ```
 */
export function TwitterLegacy<P extends TwitterLegacyProfile = TwitterLegacyProfile>(
  options: OAuthUserConfig<P>,
): OAuthConfig<P> {
  return {
    id: "twitter",
    name: "Twitter (Legacy)",
    type: "oauth",
    version: "1.0A",
    authorization: "https://api.twitter.com/oauth/authenticate",
    accessTokenUrl: "https://api.twitter.com/oauth/access_token",
    requestTokenUrl: "https://api.twitter.com/oauth/request_token",
    profileUrl: "https://api.twitter.com/1.1/account/verify_credentials.json?include_email=true",
    // OAuth 1.0a has no PKCE; the request token travels in the sealed state cookie instead.
    checks: ["state"],
    // The account row keeps the token credentials, as v4 stores them (`oauth_token`, `oauth_token_secret`).
    account: (tokens) => ({
      oauth_token: tokens.oauth_token,
      oauth_token_secret: tokens.oauth_token_secret,
    }),
    profile(profile) {
      return {
        id: profile.id_str,
        name: profile.name,
        email: profile.email ?? null,
        image: profile.profile_image_url_https.replace(/_normal\.(jpg|png|gif)$/, ".$1"),
      };
    },
    style: { brandColor: "#1da1f2" },
    options,
  };
}

/**
 * v4's `TwitterProvider`: OAuth 1.0a ({@link TwitterLegacy}) by default, OAuth 2.0 with
 * `version: "2.0"`.
 *
 * @example
 * ```ts
 * TwitterProvider({ clientId: "…", clientSecret: "…", version: "2.0" })
 * ```
 */
export default function TwitterProvider(
  options: OAuthUserConfig<TwitterLegacyProfile> | OAuthUserConfig<TwitterProfile>,
): OAuthConfig<TwitterLegacyProfile> | OAuthConfig<TwitterProfile> {
  if (options.version === "2.0") {
    const { version: _version, ...rest } = options as OAuthUserConfig<TwitterProfile>;
    return Twitter(rest);
  }
  return TwitterLegacy(options as OAuthUserConfig<TwitterLegacyProfile>);
}
