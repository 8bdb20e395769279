/**
 * Yandex ID sign-in (OAuth 2). The profile comes from `login.yandex.ru/info` with Yandex's
 * `Authorization: OAuth <token>` scheme; the avatar URL is built from `default_avatar_id` in the
 * size chosen by {@link YandexOptions.avatarSize}.
 *
 * Callback URL to register: `<origin>/auth/callback/yandex`. Credentials from `AUTH_YANDEX_ID`
 * and `AUTH_YANDEX_SECRET`.
 *
 * @example
 * ```ts
 * import Yandex from "@tessera/core/providers/yandex"
 * const config = { providers: [Yandex({ avatarSize: "islands-retina-50" })] }
 * ```
 */
import { providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/**
 * The response of `GET https://login.yandex.ru/info?format=json`
 * (https://yandex.com/dev/id/doc/en/user-information).
 */
export interface YandexProfile {
  id: string;
  client_id: string;
  login: string;
  psuid: string;
  /** `YYYY-MM-DD`, unknown parts zero-filled; null when unknown. */
  birthday?: string | null;
  default_avatar_id?: string;
  default_email?: string;
  /** May be omitted by the API. */
  default_phone?: { id: number; number: string };
  display_name?: string;
  /** Currently only the default e-mail. */
  emails?: string[];
  first_name?: string;
  last_name?: string;
  real_name?: string;
  is_avatar_empty?: boolean;
  sex?: "female" | "male" | null;
  [field: string]: unknown;
}

/** Avatar sizes: `islands-small` 28×28 … `islands-retina-50` 100×100, `islands-200` 200×200. */
export type YandexAvatarSize =
  | "islands-small"
  | "islands-34"
  | "islands-middle"
  | "islands-50"
  | "islands-retina-small"
  | "islands-68"
  | "islands-75"
  | "islands-retina-middle"
  | "islands-retina-50"
  | "islands-200";

/** Options of {@link Yandex}. */
export interface YandexOptions<P extends YandexProfile = YandexProfile> extends OAuthUserConfig<P> {
  /** Size of the avatar in `user.image`. Default `islands-200`. */
  avatarSize?: YandexAvatarSize;
}

/**
 * The download URL of a Yandex avatar.
 *
 * @example
 * ```ts
 * yandexAvatarUrl("131652443/kmsYEIOLDsBEWFuS1Gxn0ZM8-1", "islands-68")
 * // "https://avatars.yandex.net/get-yapic/131652443/kmsYEIOLDsBEWFuS1Gxn0ZM8-1/islands-68"
 * ```
 */
export function yandexAvatarUrl(avatarId: string, size: YandexAvatarSize = "islands-200"): string {
  return `https://avatars.yandex.net/get-yapic/${avatarId}/${size}`;
}

/**
 * Yandex provider.
 *
 * @example
 * ```ts
 * Yandex({ authorization: { params: { scope: "login:info login:email" } } })
 * ```
 */
export default function Yandex<P extends YandexProfile = YandexProfile>(
  options: YandexOptions<P> = {},
): OAuthConfig<P> {
  const avatarSize = options.avatarSize ?? "islands-200";
  return {
    id: "yandex",
    name: "Yandex",
    type: "oauth",
    authorization: "https://oauth.yandex.ru/authorize?scope=login:info+login:email+login:avatar",
    token: "https://oauth.yandex.ru/token",
    userinfo: {
      url: "https://login.yandex.ru/info?format=json",
      async request({ tokens, provider }) {
        const url = provider.userinfo?.url ?? "https://login.yandex.ru/info?format=json";
        return (await providerJson(provider, url, {
          headers: { authorization: `OAuth ${String(tokens.access_token)}` },
        })) as Record<string, unknown>;
      },
    },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.display_name ?? profile.real_name ?? profile.first_name ?? profile.login,
        email: profile.default_email ?? profile.emails?.[0] ?? null,
        image:
          !profile.is_avatar_empty && profile.default_avatar_id
            ? yandexAvatarUrl(profile.default_avatar_id, avatarSize)
            : null,
      };
    },
    style: { brandColor: "#FC3F1D" },
    options,
  };
}
