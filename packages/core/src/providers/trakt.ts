/**
 * Trakt sign-in (OAuth 2). Trakt's API needs, besides the access token, the headers
 * `trakt-api-version: 2` and `trakt-api-key: <client id>` on every request: the profile request,
 * `GET https://api.trakt.tv/users/me?extended=full`, sends them. The user is named by `name` and
 * identified by the `slug` of its `ids`; Trakt never gives the e-mail address, so `email` is
 * `null`. The image is the Trakt avatar URL, which Trakt does not allow to be hot-linked: copy it
 * if it is shown.
 *
 * To use Trakt's staging environment, replace the URLs (`https://api-staging.trakt.tv`, …) with
 * the `authorization`, `token` and `userinfo` options.
 *
 * Callback URL to register (the application's "Redirect uri" at trakt.tv/oauth/applications):
 * `<origin>/auth/callback/trakt`. Credentials from `AUTH_TRAKT_ID` and `AUTH_TRAKT_SECRET`.
 *
 * @example
 * ```ts
 * import Trakt from "@tessera/core/providers/trakt"
 * const config = { providers: [Trakt] }
 * ```
 */
import { bearer, providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.trakt.tv/users/me?extended=full`. */
export interface TraktProfile {
  username: string;
  private: boolean;
  name: string;
  vip: boolean;
  vip_ep: boolean;
  ids: { slug: string; uuid?: string; [id: string]: unknown };
  joined_at: string;
  location: string | null;
  about: string | null;
  gender: string | null;
  age: number | null;
  images: { avatar: { full: string } };
  [field: string]: unknown;
}

/** The name Auth.js gives the Trakt profile type. */
export type TraktUser = TraktProfile;

const PROFILE_URL = "https://api.trakt.tv/users/me?extended=full";

/**
 * Trakt provider.
 *
 * @example
 * ```ts
 * Trakt({ clientId: process.env.TRAKT_ID, clientSecret: process.env.TRAKT_SECRET })
 * ```
 */
export default function Trakt<P extends TraktProfile = TraktProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "trakt",
    name: "Trakt",
    type: "oauth",
    authorization: "https://trakt.tv/oauth/authorize?scope=",
    token: "https://api.trakt.tv/oauth/token",
    userinfo: {
      url: PROFILE_URL,
      async request({ tokens, provider }) {
        const url = provider.userinfo?.url ?? PROFILE_URL;
        return (await providerJson(provider, url, {
          headers: {
            ...bearer(tokens.access_token),
            "content-type": "application/json",
            "trakt-api-version": "2",
            "trakt-api-key": provider.clientId ?? "",
          },
        })) as Record<string, unknown>;
      },
    },
    profile(profile) {
      return {
        id: profile.ids.slug,
        name: profile.name,
        email: null,
        image: profile.images.avatar.full,
      };
    },
    style: { brandColor: "#ED2224" },
    options,
  };
}
