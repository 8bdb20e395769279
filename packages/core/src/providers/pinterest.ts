/**
 * Pinterest sign-in (Pinterest API v5 OAuth 2). The scope `user_accounts:read` is asked for and
 * the profile is `GET https://api.pinterest.com/v5/user_account`: the user is identified and
 * named by the Pinterest `username`, with the `profile_image`. Pinterest never gives the e-mail
 * address, so the user's `email` is always `null`. The code is exchanged with HTTP Basic client
 * authentication (the default `client_secret_basic`), which Pinterest requires.
 *
 * In production the app needs Standard access: apps with Trial access work only for their
 * owner.
 *
 * Callback URL to register (the app's redirect URIs in Pinterest's developer portal):
 * `<origin>/auth/callback/pinterest`. Credentials from `AUTH_PINTEREST_ID` (the app id) and
 * `AUTH_PINTEREST_SECRET`.
 *
 * @example
 * ```ts
 * import Pinterest from "@tessera/core/providers/pinterest"
 * const config = { providers: [Pinterest] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.pinterest.com/v5/user_account`. */
export interface PinterestProfile {
  account_type: "BUSINESS" | "PINNER";
  profile_image: string;
  website_url: string;
  username: string;
  business_name?: string | null;
  board_count?: number;
  pin_count?: number;
  follower_count?: number;
  following_count?: number;
  monthly_views?: number;
  [field: string]: unknown;
}

/**
 * Pinterest provider.
 *
 * @example
 * ```ts
 * Pinterest({ authorization: { params: { scope: "user_accounts:read boards:read pins:read" } } })
 * ```
 */
export default function Pinterest<P extends PinterestProfile = PinterestProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "pinterest",
    name: "Pinterest",
    type: "oauth",
    authorization: {
      url: "https://www.pinterest.com/oauth",
      params: { scope: "user_accounts:read" },
    },
    token: "https://api.pinterest.com/v5/oauth/token",
    userinfo: "https://api.pinterest.com/v5/user_account",
    profile(profile) {
      return {
        id: profile.username,
        name: profile.username,
        email: null,
        image: profile.profile_image,
      };
    },
    style: { brandColor: "#bd081c" },
    options,
  };
}
