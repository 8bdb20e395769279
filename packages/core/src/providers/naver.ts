/**
 * Naver sign-in (Naver Login, OAuth 2). The profile is `GET https://openapi.naver.com/v1/nid/me`,
 * whose user sits under `response`: the user is identified by Naver's `id` and named by the
 * `nickname`, with the `email` and `profile_image` the user agreed to share. Which fields Naver
 * returns is chosen in the application's settings (the profile items it asks for), not by a
 * scope.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent. Naver Login has no scopes
 * (the profile fields are chosen in the application's settings); Auth.js's provider parser adds
 * `openid profile email`.
 *
 * Callback URL to register (the application's Callback URL in Naver Developers):
 * `<origin>/auth/callback/naver`. Credentials from `AUTH_NAVER_ID` and `AUTH_NAVER_SECRET`.
 *
 * @example
 * ```ts
 * import Naver from "@tessera/core/providers/naver"
 * const config = { providers: [Naver] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://openapi.naver.com/v1/nid/me`. */
export interface NaverProfile {
  resultcode: string;
  message: string;
  response: {
    id: string;
    nickname?: string;
    name?: string;
    email?: string;
    gender?: "F" | "M" | "U";
    age?: string;
    birthday?: string;
    profile_image?: string;
    birthyear?: string;
    mobile?: string;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/**
 * Naver provider.
 *
 * @example
 * ```ts
 * Naver({ clientId: process.env.NAVER_CLIENT_ID, clientSecret: process.env.NAVER_CLIENT_SECRET })
 * ```
 */
export default function Naver<P extends NaverProfile = NaverProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "naver",
    name: "Naver",
    type: "oauth",
    authorization: "https://nid.naver.com/oauth2.0/authorize",
    token: "https://nid.naver.com/oauth2.0/token",
    userinfo: "https://openapi.naver.com/v1/nid/me",
    profile(profile) {
      return {
        id: profile.response.id,
        name: profile.response.nickname,
        email: profile.response.email,
        image: profile.response.profile_image,
      };
    },
    style: { brandColor: "#03c75a" },
    options,
  };
}
