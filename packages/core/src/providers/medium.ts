/**
 * Medium sign-in (OAuth 2). The scope `basicProfile` is asked for and the profile is read from
 * `GET https://api.medium.com/v1/me`, whose user sits under `data`. Medium never gives the
 * e-mail address, so the user's `email` is always `null`.
 *
 * Callback URL to register (the integration's callback URLs in Medium's settings):
 * `<origin>/auth/callback/medium`. Credentials from `AUTH_MEDIUM_ID` and `AUTH_MEDIUM_SECRET`.
 *
 * @example
 * ```ts
 * import Medium from "@tessera/core/providers/medium"
 * const config = { providers: [Medium] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.medium.com/v1/me`. */
export interface MediumProfile {
  data: {
    id: string;
    username: string;
    name: string;
    url: string;
    imageUrl: string;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/**
 * Medium provider.
 *
 * @example
 * ```ts
 * Medium({ clientId: process.env.MEDIUM_ID, clientSecret: process.env.MEDIUM_SECRET })
 * ```
 */
export default function Medium<P extends MediumProfile = MediumProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "medium",
    name: "Medium",
    type: "oauth",
    authorization: "https://medium.com/m/oauth/authorize?scope=basicProfile",
    token: "https://api.medium.com/v1/tokens",
    userinfo: "https://api.medium.com/v1/me",
    profile(profile) {
      return {
        id: profile.data.id,
        name: profile.data.name,
        email: null,
        image: profile.data.imageUrl,
      };
    },
    style: { brandColor: "#000000" },
    options,
  };
}
