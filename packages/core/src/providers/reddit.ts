/**
 * Reddit sign-in (OAuth 2). The scope `identity` is asked for and, as in Auth.js, only the
 * `state` check is used (Reddit documents no PKCE). The code is exchanged with HTTP Basic client
 * authentication (the default `client_secret_basic`), which Reddit requires. The profile is
 * `GET https://oauth.reddit.com/api/v1/me`: the user is identified by the Reddit account id and
 * named by the username (`name`). Reddit never gives the e-mail address, so the user's `email`
 * is `null`; as in Auth.js, the user has no image.
 *
 * Reddit asks every API client to send a unique, descriptive `User-Agent` and throttles generic
 * ones: pass `userAgent`, e.g. `web:com.example.app:v1.0.0 (by /u/yourname)`. It is sent with
 * the profile request (default `tessera`).
 *
 * Access tokens last an hour; for a refresh token add `duration=permanent` to the authorization
 * request (see the example). Reddit allows one callback URL per app.
 *
 * Callback URL to register (the app's "redirect uri" at reddit.com/prefs/apps, type "web app"):
 * `<origin>/auth/callback/reddit`. Credentials from `AUTH_REDDIT_ID` and `AUTH_REDDIT_SECRET`.
 *
 * @example
 * ```ts
 * import Reddit from "@tessera/core/providers/reddit"
 * const config = { providers: [Reddit({ userAgent: "web:com.example.app:v1.0.0 (by /u/yourname)" })] }
 * ```
 */
import { bearer, providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://oauth.reddit.com/api/v1/me` (the fields used and a few more). */
export interface RedditProfile {
  /** The account id, without the `t2_` prefix of its fullname. */
  id: string;
  /** The username. */
  name: string;
  icon_img?: string;
  snoovatar_img?: string;
  created_utc?: number;
  has_verified_email?: boolean;
  over_18?: boolean;
  [field: string]: unknown;
}

/** Options of {@link Reddit}: provider overrides plus the client's user agent. */
export interface RedditOptions<P extends RedditProfile = RedditProfile> extends OAuthUserConfig<P> {
  /** The `User-Agent` of the profile request, as Reddit's API rules ask. Default `tessera`. */
  userAgent?: string;
}

const PROFILE_URL = "https://oauth.reddit.com/api/v1/me";

/**
 * Reddit provider.
 *
 * @example
 * ```ts
 * Reddit({
 *   userAgent: "web:com.example.app:v1.0.0 (by /u/yourname)",
 *   authorization: { params: { duration: "permanent" } },
 * })
 * ```
 */
export default function Reddit<P extends RedditProfile = RedditProfile>(
  options: RedditOptions<P> = {},
): OAuthConfig<P> {
  const { userAgent = "tessera", ...rest } = options;
  return {
    id: "reddit",
    name: "Reddit",
    type: "oauth",
    authorization: "https://www.reddit.com/api/v1/authorize?scope=identity",
    token: "https://www.reddit.com/api/v1/access_token",
    userinfo: {
      url: PROFILE_URL,
      async request({ tokens, provider }) {
        const url = provider.userinfo?.url ?? PROFILE_URL;
        const headers = { ...bearer(tokens.access_token), "user-agent": userAgent };
        return (await providerJson(provider, url, { headers })) as Record<string, unknown>;
      },
    },
    checks: ["state"],
    profile(profile) {
      return { id: profile.id, name: profile.name, email: null, image: null };
    },
    style: { brandColor: "#ff4500" },
    options: rest,
  };
}
