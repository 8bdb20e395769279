/**
 * TikTok sign-in (Login Kit for Web, OAuth 2). TikTok names the client id "client key" and wants
 * it as `client_key` in the authorization and token requests; the profile carries only the
 * fields listed in the `fields` parameter (each needs its scope), and TikTok has no e-mail.
 *
 * Deliberate difference from Auth.js: `state` is sent as TikTok requires, the authorization URL
 * keeps the trailing slash TikTok documents, and `client_key` is a plain token parameter (Auth.js
 * sends it from a custom token request).
 *
 * Production apps cannot use `localhost`: register the domain and the callback URL
 * `<origin>/auth/callback/tiktok`. Credentials from `AUTH_TIKTOK_ID` (the client key) and
 * `AUTH_TIKTOK_SECRET`.
 *
 * @example
 * ```ts
 * import TikTok from "@tessera/core/providers/tiktok"
 * const config = { providers: [TikTok] }
 * ```
 */
import { OAuthCallbackError } from "../errors.js";
import { processEnv } from "../lib/config/env.js";
import { bearer, providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/**
 * The response of `GET /v2/user/info/`
 * (https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info).
 */
export interface TikTokProfile {
  data: {
    user: {
      open_id: string;
      union_id?: string;
      avatar_url: string;
      avatar_url_100?: string;
      avatar_large_url?: string;
      display_name: string;
      username: string;
      bio_description?: string;
      profile_deep_link?: string;
      is_verified?: boolean;
      follower_count?: number;
      following_count?: number;
      likes_count?: number;
      video_count?: number;
      /** Not supported by TikTok. */
      email?: string;
    };
  };
  error: { code: string; message: string; log_id: string };
  [key: string]: unknown;
}

/** Fields TikTok can return; each needs its scope (`user.info.basic`, `.profile`, `.stats`). */
export type TikTokField = keyof TikTokProfile["data"]["user"];

/** Options of {@link TikTok}. */
export interface TikTokOptions<P extends TikTokProfile = TikTokProfile> extends OAuthUserConfig<P> {
  /** Profile fields to ask for. Default `open_id`, `avatar_url`, `display_name` (`user.info.basic`). */
  fields?: TikTokField[] | string;
}

const DEFAULT_FIELDS: TikTokField[] = ["open_id", "avatar_url", "display_name"];

/**
 * TikTok provider.
 *
 * @example
 * ```ts
 * TikTok({
 *   authorization: { params: { scope: "user.info.basic,user.info.profile" } },
 *   fields: ["open_id", "avatar_url", "display_name", "username", "is_verified"],
 * })
 * ```
 */
export default function TikTok<P extends TikTokProfile = TikTokProfile>(
  options: TikTokOptions<P> = {},
): OAuthConfig<P> {
  // The client key is needed as a request parameter, so it is read here (options, then env).
  const clientKey = options.clientId ?? processEnv().AUTH_TIKTOK_ID;
  const fields = Array.isArray(options.fields)
    ? options.fields.join(",")
    : (options.fields ?? DEFAULT_FIELDS.join(","));
  return {
    id: "tiktok",
    name: "TikTok",
    type: "oauth",
    checks: ["pkce", "state"],
    authorization: {
      url: "https://www.tiktok.com/v2/auth/authorize/",
      params: { client_key: clientKey, scope: "user.info.basic" },
    },
    token: {
      url: "https://open.tiktokapis.com/v2/oauth/token/",
      params: { client_key: clientKey },
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    userinfo: {
      url: "https://open.tiktokapis.com/v2/user/info/",
      params: { fields },
      async request({ tokens, provider }) {
        const url = provider.userinfo?.url ?? "https://open.tiktokapis.com/v2/user/info/";
        const body = (await providerJson(provider, url, {
          headers: bearer(tokens.access_token),
        })) as TikTokProfile;
        // TikTok reports failures in `error` next to an HTTP 200.
        if (body?.error?.code !== "ok" || !body.data?.user?.open_id)
          throw new OAuthCallbackError(
            `TikTok's user info failed: ${String(body?.error?.code)} (log_id ${String(body?.error?.log_id)}).`,
          );
        return body;
      },
    },
    profile(profile) {
      const { user } = profile.data;
      return {
        id: user.open_id,
        name: user.display_name ?? user.username ?? null,
        email: null,
        image: user.avatar_url ?? null,
      };
    },
    style: { brandColor: "#010101" },
    options,
  };
}
