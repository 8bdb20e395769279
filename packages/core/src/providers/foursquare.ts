/**
 * Foursquare sign-in (OAuth 2). The profile is `GET https://api.foursquare.com/v2/users/self`,
 * called with the access token as the `oauth_token` query parameter and the API version date as
 * `v`, as Foursquare's v2 API requires (`apiVersion`, `YYYYMMDD`, default `20230131`: "prepared
 * for API changes up to this date"). The user sits under `response.user`: named by first and
 * last name, with the contact e-mail and the photo at its original size.
 *
 * Deliberate difference from Auth.js: the code is exchanged with the client id and secret as
 * request parameters (`client_secret_post`), as Foursquare documents, and the token response,
 * which has no `token_type`, is taken as the bearer token it is; Auth.js's token response check
 * refuses it.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent (Foursquare has no scopes);
 * Auth.js's provider parser adds `openid profile email`.
 *
 * Callback URL to register (the app's redirect URI in Foursquare's developer console):
 * `<origin>/auth/callback/foursquare`. Credentials from `AUTH_FOURSQUARE_ID` and
 * `AUTH_FOURSQUARE_SECRET`.
 *
 * @example
 * ```ts
 * import Foursquare from "@tessera/core/providers/foursquare"
 * const config = { providers: [Foursquare] }
 * ```
 */
import { providerJson } from "../lib/oauth/provider-request.js";
import { bearerTokenResponse } from "../lib/oauth/token-response.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The user of `GET https://api.foursquare.com/v2/users/self`. */
export interface FoursquareUser {
  id: string;
  firstName: string;
  lastName?: string;
  contact?: { email?: string; [field: string]: unknown };
  photo?: { prefix: string; suffix: string };
  [field: string]: unknown;
}

/** The response of `GET https://api.foursquare.com/v2/users/self`. */
export interface FoursquareProfile {
  meta?: { code: number; requestId?: string };
  response: { user: FoursquareUser };
  [field: string]: unknown;
}

/** Options of {@link Foursquare}: provider overrides plus the API version. */
export interface FoursquareOptions<P extends FoursquareProfile = FoursquareProfile>
  extends OAuthUserConfig<P> {
  /** The API version date sent as `v` (`YYYYMMDD`). Default `20230131`. */
  apiVersion?: string;
}

/**
 * Foursquare provider.
 *
 * @example
 * ```ts
 * Foursquare({ apiVersion: "20240601" })
 * ```
 */
export default function Foursquare<P extends FoursquareProfile = FoursquareProfile>(
  options: FoursquareOptions<P> = {},
): OAuthConfig<P> {
  const { apiVersion = "20230131", ...rest } = options;
  const profileUrl = `https://api.foursquare.com/v2/users/self?v=${encodeURIComponent(apiVersion)}`;
  return {
    id: "foursquare",
    name: "Foursquare",
    type: "oauth",
    authorization: "https://foursquare.com/oauth2/authenticate",
    token: { url: "https://foursquare.com/oauth2/access_token", conform: bearerTokenResponse() },
    userinfo: {
      url: profileUrl,
      async request({ tokens, provider }) {
        const url = new URL(provider.userinfo?.url ?? profileUrl);
        url.searchParams.set("oauth_token", String(tokens.access_token));
        return (await providerJson(provider, url)) as Record<string, unknown>;
      },
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile({ response: { user } }) {
      return {
        id: user.id,
        name: `${user.firstName} ${user.lastName}`,
        email: user.contact?.email,
        image: user.photo ? `${user.photo.prefix}original${user.photo.suffix}` : null,
      };
    },
    style: { brandColor: "#000000" },
    options: rest,
  };
}
