/**
 * Bitbucket Cloud sign-in (OAuth 2, scope `account`). The profile is `GET
 * https://api.bitbucket.org/2.0/user`, which has no e-mail: the user signs in without one
 * (the addresses are at `/2.0/user/emails`, with the `email` scope).
 *
 * Callback URL to register (the OAuth consumer's callback URL, in the workspace settings):
 * `<origin>/auth/callback/bitbucket`. Credentials from `AUTH_BITBUCKET_ID` (the consumer key)
 * and `AUTH_BITBUCKET_SECRET`.
 *
 * @example
 * ```ts
 * import Bitbucket from "@tessera/core/providers/bitbucket"
 * const config = { providers: [Bitbucket] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The user of `GET https://api.bitbucket.org/2.0/user`. */
export interface BitbucketProfile {
  account_id: string;
  uuid: string;
  username?: string;
  nickname?: string;
  display_name: string | null;
  account_status?: string;
  created_on?: string;
  links: {
    avatar: { href?: string } | null;
    html?: { href?: string };
    [link: string]: unknown;
  };
  [field: string]: unknown;
}

/**
 * Bitbucket provider.
 *
 * @example
 * ```ts
 * Bitbucket({ authorization: { params: { scope: "account email" } } })
 * ```
 */
export default function Bitbucket<P extends BitbucketProfile = BitbucketProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "bitbucket",
    name: "Bitbucket",
    type: "oauth",
    authorization: {
      url: "https://bitbucket.org/site/oauth2/authorize",
      params: { scope: "account" },
    },
    token: "https://bitbucket.org/site/oauth2/access_token",
    userinfo: "https://api.bitbucket.org/2.0/user",
    profile(profile) {
      return {
        id: profile.account_id,
        name: profile.display_name ?? profile.username ?? null,
        email: null,
        image: profile.links.avatar?.href ?? null,
      };
    },
    style: { brandColor: "#205081" },
    options,
  };
}
