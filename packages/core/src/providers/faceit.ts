/**
 * FACEIT sign-in (FACEIT Connect, OAuth 2). The scopes `openid profile email` are asked for (the
 * ones FACEIT documents for the user's nickname, e-mail, guid and avatar), and the consent page
 * opens with `redirect_popup=true`. The code is exchanged with HTTP Basic client authentication
 * (the default `client_secret_basic`), which FACEIT requires. The profile is
 * `GET https://api.faceit.com/auth/v1/resources/userinfo`: the user is identified by `guid`,
 * with FACEIT's `name`, `email` and `picture`.
 *
 * Callback URL to register (the OAuth2 client's redirect URL in FACEIT's developer portal):
 * `<origin>/auth/callback/faceit`. Credentials from `AUTH_FACEIT_ID` and `AUTH_FACEIT_SECRET`.
 *
 * @example
 * ```ts
 * import FACEIT from "@tessera/core/providers/faceit"
 * const config = { providers: [FACEIT] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.faceit.com/auth/v1/resources/userinfo`. */
export interface FACEITProfile {
  guid: string;
  name?: string;
  nickname?: string;
  email?: string;
  picture?: string;
  locale?: string;
  [field: string]: unknown;
}

/**
 * FACEIT provider.
 *
 * @example
 * ```ts
 * FACEIT({ authorization: { params: { scope: "openid profile email membership" } } })
 * ```
 */
export default function FACEIT<P extends FACEITProfile = FACEITProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "faceit",
    name: "FACEIT",
    type: "oauth",
    authorization:
      "https://accounts.faceit.com/accounts?redirect_popup=true&scope=openid+profile+email",
    token: "https://api.faceit.com/auth/v1/oauth/token",
    userinfo: "https://api.faceit.com/auth/v1/resources/userinfo",
    profile(profile) {
      return {
        id: profile.guid,
        name: profile.name,
        email: profile.email,
        image: profile.picture,
      };
    },
    style: { brandColor: "#ff5500" },
    options,
  };
}
