/**
 * VK sign-in (OAuth 2, VK API). VK returns the e-mail in the token response (with the `email`
 * scope), not in the profile; numeric user ids; every request carries the API version `v`
 * (default 5.126, see {@link VKOptions.apiVersion}). The token response lacks `token_type`, which
 * is added, and the profile is read with `users.get`, the access token as a POST parameter.
 *
 * Deliberate difference from Auth.js: the default API version is 5.126 (Auth.js sends 5.131);
 * set `apiVersion` to choose another.
 *
 * Callback URL to register: `<origin>/auth/callback/vk`. Credentials from `AUTH_VK_ID` and
 * `AUTH_VK_SECRET`.
 *
 * @example
 * ```ts
 * import VK from "@tessera/core/providers/vk"
 * const config = { providers: [VK({ apiVersion: "5.199" })] }
 * ```
 */
import { OAuthCallbackError } from "../errors.js";
import { providerJson } from "../lib/oauth/provider-request.js";
import { bearerTokenResponse } from "../lib/oauth/token-response.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

type Flag = 0 | 1;

/**
 * A VK user from `users.get` (https://dev.vk.com/en/method/users.get), with `email` from the
 * token response.
 */
export interface VKProfile {
  id: number;
  first_name: string;
  last_name: string;
  photo_100: string;
  can_access_closed: boolean;
  is_closed: boolean;
  email?: string | null;
  about?: string;
  activities?: string;
  bdate?: string;
  books?: string;
  deactivated?: string;
  domain?: string;
  games?: string;
  home_town?: string;
  interests?: string;
  maiden_name?: string;
  movies?: string;
  music?: string;
  nickname?: string;
  quotes?: string;
  screen_name?: string;
  site?: string;
  status?: string;
  tv?: string;
  photo_id?: string;
  photo_50?: string;
  photo_200?: string;
  photo_200_orig?: string;
  photo_400?: string;
  photo_400_orig?: string;
  photo_max?: string;
  photo_max_orig?: string;
  timezone?: number;
  followers_count?: number;
  common_count?: number;
  online_app?: number;
  blacklisted?: Flag;
  blacklisted_by_me?: Flag;
  can_post?: Flag;
  can_see_all_posts?: Flag;
  can_see_audio?: Flag;
  can_send_friend_request?: Flag;
  can_write_private_message?: Flag;
  has_mobile?: Flag;
  has_photo?: Flag;
  is_favorite?: Flag;
  is_friend?: Flag;
  is_hidden_from_feed?: Flag;
  is_no_index?: Flag;
  online?: Flag;
  online_mobile?: Flag;
  trending?: Flag;
  verified?: Flag;
  friend_status?: 0 | 1 | 2 | 3;
  sex?: 0 | 1 | 2;
  relation?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
  wall_default?: "all" | "owner";
  city?: { id: number; title: string };
  country?: { id: number; title: string };
  last_seen?: { platform?: 1 | 2 | 3 | 4 | 5 | 6 | 7; time?: number };
  occupation?: { id?: number; name?: string; type?: "work" | "school" | "university" };
  relatives?: {
    id?: number;
    name?: string;
    type: "parent" | "child" | "grandparent" | "grandchild" | "sibling";
  }[];
  career?: unknown;
  connections?: unknown;
  contacts?: unknown;
  counters?: unknown;
  crop_photo?: unknown;
  education?: unknown;
  exports?: unknown;
  military?: unknown;
  personal?: unknown;
  relation_partner?: unknown;
  schools?: unknown;
  status_audio?: unknown;
  universities?: unknown;
  /** Names in grammatical cases: `first_name_nom` … `_gen`, `_dat`, `_acc`, `_ins`, `_abl`. */
  [field: `first_name_${string}` | `last_name_${string}`]: string | undefined;
  [field: string]: unknown;
}

/** Options of {@link VK}. */
export interface VKOptions<P extends VKProfile = VKProfile> extends OAuthUserConfig<P> {
  /** VK API version sent as `v` with every request. Default `5.126`. */
  apiVersion?: string;
}

/** Adds the `token_type` VK leaves out (RFC 6749 §5.1 requires it); drops a `0` (never) expiry. */
export const conformVKToken: (response: Response) => Promise<Response | undefined> =
  bearerTokenResponse();

/**
 * VK provider.
 *
 * @example
 * ```ts
 * VK({ apiVersion: "5.199", userinfo: { params: { fields: "photo_200,screen_name" } } })
 * ```
 */
export default function VK<P extends VKProfile = VKProfile>(
  options: VKOptions<P> = {},
): OAuthConfig<P> {
  const v = options.apiVersion ?? "5.126";
  return {
    id: "vk",
    name: "VK",
    type: "oauth",
    authorization: `https://oauth.vk.com/authorize?scope=email&v=${encodeURIComponent(v)}`,
    token: {
      url: `https://oauth.vk.com/access_token?v=${encodeURIComponent(v)}`,
      conform: conformVKToken,
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    userinfo: {
      url: "https://api.vk.com/method/users.get",
      params: { fields: "photo_100", v },
      async request({ tokens, provider }) {
        const url = provider.userinfo?.url ?? "https://api.vk.com/method/users.get";
        const body = (await providerJson(provider, url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ access_token: String(tokens.access_token) }),
        })) as { response?: VKProfile[]; error?: { error_code?: number; error_msg?: string } };
        const user = body.response?.[0];
        if (!user)
          throw new OAuthCallbackError(
            `VK's users.get failed: ${String(body.error?.error_code)} ${String(body.error?.error_msg)}.`,
          );
        return { ...user, email: typeof tokens.email === "string" ? tokens.email : null };
      },
    },
    profile(profile) {
      return {
        id: String(profile.id),
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: profile.photo_100 ?? null,
      };
    },
    style: { brandColor: "#0077FF" },
    options,
  };
}
