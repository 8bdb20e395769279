/**
 * osu! sign-in (osu! API v2 OAuth 2). The scope `identify` is asked for and the profile is
 * `GET https://osu.ppy.sh/api/v2/me`: the user is identified by the osu! user id and named by the
 * `username`, with the `avatar_url`. osu! never gives the e-mail address, so the user's `email`
 * is always `null`.
 *
 * Callback URL to register (the application's "Application Callback URLs" in the osu! account
 * settings, "OAuth" section): `<origin>/auth/callback/osu`. Credentials from `AUTH_OSU_ID` and
 * `AUTH_OSU_SECRET`.
 *
 * @example
 * ```ts
 * import Osu from "@tessera/core/providers/osu"
 * const config = { providers: [Osu] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The compact user of osu!'s API v2. */
export interface OsuUserCompact {
  avatar_url: string;
  country_code: string;
  default_group: string;
  id: number;
  is_active: boolean;
  is_bot: boolean;
  is_deleted: boolean;
  is_online: boolean;
  is_supporter: boolean;
  last_visit: string | null;
  pm_friends_only: boolean;
  profile_colour: string | null;
  username: string;
}

/** The response of `GET https://osu.ppy.sh/api/v2/me`. */
export interface OsuProfile extends OsuUserCompact {
  discord?: string | null;
  has_supported?: boolean;
  interests?: string | null;
  join_date?: string;
  kudosu?: { available: number; total: number };
  location?: string | null;
  max_blocks?: number;
  max_friends?: number;
  occupation?: string | null;
  playmode?: string;
  playstyle?: string[];
  post_count?: number;
  profile_order?: string[];
  title?: string | null;
  title_url?: string | null;
  twitter?: string | null;
  website?: string | null;
  country?: { code: string; name: string };
  cover?: { custom_url: string | null; url: string; id: number | null };
  is_restricted?: boolean;
  [field: string]: unknown;
}

/**
 * osu! provider.
 *
 * @example
 * ```ts
 * Osu({ authorization: { params: { scope: "identify public" } } })
 * ```
 */
export default function Osu<P extends OsuProfile = OsuProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "osu",
    name: "osu!",
    type: "oauth",
    authorization: "https://osu.ppy.sh/oauth/authorize?scope=identify",
    token: "https://osu.ppy.sh/oauth/token",
    userinfo: "https://osu.ppy.sh/api/v2/me",
    profile(profile) {
      return {
        id: String(profile.id),
        name: profile.username,
        email: null,
        image: profile.avatar_url,
      };
    },
    style: { brandColor: "#ff66aa" },
    options,
  };
}
