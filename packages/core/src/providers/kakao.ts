/**
 * Kakao sign-in (Kakao Login, OAuth 2). An empty `scope` is sent, so Kakao asks for the consent
 * items set for the app (Kakao Login > Consent items); set `authorization.params.scope` (e.g.
 * `profile_nickname profile_image account_email`) to ask for others. The code is exchanged with
 * the client credentials in the request body (`client_secret_post`). The profile is
 * `GET https://kapi.kakao.com/v2/user/me`: the numeric user id, with the nickname, image and
 * e-mail under `kakao_account`, each present only where the user agreed to share it.
 *
 * The client id is the app's REST API key (App settings > Summary); the client secret is made
 * under Kakao Login > Security and must be enabled there.
 *
 * Callback URL to register (Kakao Login > Redirect URI, with the web platform's site domain set):
 * `<origin>/auth/callback/kakao`. Credentials from `AUTH_KAKAO_ID` and `AUTH_KAKAO_SECRET`.
 *
 * @example
 * ```ts
 * import Kakao from "@tessera/core/providers/kakao"
 * const config = { providers: [Kakao] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** An ISO 8601 date-time, as Kakao sends them. */
export type DateTime = string;
/** `kakao_account.gender`. */
export type Gender = "female" | "male";
/** The calendar of `kakao_account.birthday`. */
export type Birthday = "SOLAR" | "LUNAR";
/** `kakao_account.age_range`. */
export type AgeRange =
  | "1-9"
  | "10-14"
  | "15-19"
  | "20-29"
  | "30-39"
  | "40-49"
  | "50-59"
  | "60-69"
  | "70-79"
  | "80-89"
  | "90-";

/** The response of `GET https://kapi.kakao.com/v2/user/me`. */
export interface KakaoProfile {
  id: number;
  has_signed_up?: boolean;
  connected_at?: DateTime;
  synched_at?: DateTime;
  properties?: {
    nickname?: string;
    profile_image?: string;
    thumbnail_image?: string;
    [field: string]: unknown;
  };
  kakao_account?: {
    profile_needs_agreement?: boolean;
    profile_nickname_needs_agreement?: boolean;
    profile_image_needs_agreement?: boolean;
    profile?: {
      nickname?: string;
      thumbnail_image_url?: string;
      profile_image_url?: string;
      is_default_image?: boolean;
      is_default_nickname?: boolean;
    };
    name_needs_agreement?: boolean;
    name?: string;
    email_needs_agreement?: boolean;
    is_email_valid?: boolean;
    is_email_verified?: boolean;
    email?: string;
    age_range?: AgeRange;
    birthyear?: string;
    birthday?: string;
    birthday_type?: Birthday;
    gender?: Gender;
    phone_number?: string;
    ci?: string;
    ci_authenticated_at?: DateTime;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/**
 * Kakao provider.
 *
 * @example
 * ```ts
 * Kakao({ authorization: { params: { scope: "profile_nickname profile_image account_email" } } })
 * ```
 */
export default function Kakao<P extends KakaoProfile = KakaoProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "kakao",
    name: "Kakao",
    type: "oauth",
    authorization: "https://kauth.kakao.com/oauth/authorize?scope",
    token: "https://kauth.kakao.com/oauth/token",
    userinfo: "https://kapi.kakao.com/v2/user/me",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const account = profile.kakao_account;
      return {
        id: String(profile.id),
        name: account?.profile?.nickname,
        email: account?.email,
        image: account?.profile?.profile_image_url,
      };
    },
    style: { brandColor: "#fee500" },
    options,
  };
}
