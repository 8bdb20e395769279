/**
 * Zoom sign-in (OAuth 2 of a Zoom "General app", user-managed). An empty `scope` is sent, so
 * Zoom grants the scopes added to the app in the Zoom App Marketplace (it needs
 * `user:read:user` for the profile). The profile is `GET https://api.zoom.us/v2/users/me`; the
 * user is named by `first_name` and `last_name`, with `email` and the `pic_url` picture.
 *
 * Callback URL to register (the app's "OAuth Redirect URL", and in its allow list):
 * `<origin>/auth/callback/zoom`. Credentials from `AUTH_ZOOM_ID` and `AUTH_ZOOM_SECRET`.
 *
 * @example
 * ```ts
 * import Zoom from "@tessera/core/providers/zoom"
 * const config = { providers: [Zoom] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.zoom.us/v2/users/me`. */
export interface ZoomProfile {
  id: string;
  first_name: string;
  last_name: string;
  display_name?: string;
  email: string;
  type: number;
  role_name: string;
  pmi: number;
  use_pmi: boolean;
  vanity_url?: string;
  personal_meeting_url: string;
  timezone: string;
  verified: number;
  dept: string;
  created_at: string;
  last_login_time: string;
  last_client_version?: string;
  pic_url: string;
  host_key?: string;
  jid: string;
  group_ids: string[];
  im_group_ids: string[];
  account_id: string;
  language: string;
  phone_country: string;
  phone_number: string;
  status: string;
  [field: string]: unknown;
}

/**
 * Zoom provider.
 *
 * @example
 * ```ts
 * Zoom({ clientId: process.env.ZOOM_ID, clientSecret: process.env.ZOOM_SECRET })
 * ```
 */
export default function Zoom<P extends ZoomProfile = ZoomProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "zoom",
    name: "Zoom",
    type: "oauth",
    authorization: "https://zoom.us/oauth/authorize?scope",
    token: "https://zoom.us/oauth/token",
    userinfo: "https://api.zoom.us/v2/users/me",
    profile(profile) {
      return {
        id: profile.id,
        name: `${profile.first_name} ${profile.last_name}`,
        email: profile.email,
        image: profile.pic_url,
      };
    },
    style: { brandColor: "#0b5cff" },
    options,
  };
}
