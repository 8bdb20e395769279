/**
 * Webex sign-in (OAuth 2, a Webex "integration"). The scopes `spark:kms spark:people_read` are
 * asked for; the profile is `GET <apiBaseUrl>/people/me`, whose user has a `displayName`, an
 * `avatar` and a list of `emails`, the first of which becomes the user's e-mail.
 *
 * Webex's API lives at `https://webexapis.com/v1`; pass `apiBaseUrl` for another base (Webex for
 * Government: `https://api-usgov.webex.com/v1`), which moves every endpoint.
 *
 * Callback URL to register (the integration's "Redirect URI(s)" at developer.webex.com):
 * `<origin>/auth/callback/webex`. Credentials from `AUTH_WEBEX_ID` and `AUTH_WEBEX_SECRET`.
 *
 * @example
 * ```ts
 * import Webex from "@tessera/core/providers/webex"
 * const config = { providers: [Webex] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://webexapis.com/v1/people/me`. */
export interface WebexProfile {
  id: string;
  emails: string[];
  displayName?: string;
  nickName?: string;
  firstName?: string;
  lastName?: string;
  avatar?: string;
  orgId?: string;
  [field: string]: unknown;
}

/** Options of {@link Webex}: provider overrides plus the API's base URL. */
export interface WebexOptions<P extends WebexProfile = WebexProfile> extends OAuthUserConfig<P> {
  /** The base URL of Webex's REST API, without a trailing slash. Default `https://webexapis.com/v1`. */
  apiBaseUrl?: string;
}

/**
 * Webex provider.
 *
 * @example
 * ```ts
 * Webex({ apiBaseUrl: "https://api-usgov.webex.com/v1" })
 * ```
 */
export default function Webex<P extends WebexProfile = WebexProfile>(
  options: WebexOptions<P> = {},
): OAuthConfig<P> {
  const { apiBaseUrl = "https://webexapis.com/v1", ...rest } = options;
  return {
    id: "webex",
    name: "Webex",
    type: "oauth",
    authorization: {
      url: `${apiBaseUrl}/authorize`,
      params: { scope: "spark:kms spark:people_read" },
    },
    token: `${apiBaseUrl}/access_token`,
    userinfo: `${apiBaseUrl}/people/me`,
    profile(profile) {
      return {
        id: profile.id,
        email: profile.emails[0],
        name: profile.displayName,
        image: profile.avatar,
      };
    },
    style: { brandColor: "#00A0D1" },
    options: rest,
  };
}
