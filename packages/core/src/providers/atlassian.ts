/**
 * Atlassian sign-in (OAuth 2.0 (3LO) apps, for Jira and Confluence Cloud). The authorization
 * request names the audience `api.atlassian.com` and the scope `read:me`; the profile is
 * `GET https://api.atlassian.com/me`. Atlassian does not support PKCE: only `state` is sent.
 *
 * Callback URL to register (the app's Authorization → OAuth 2.0 (3LO) callback URL in the
 * developer console): `<origin>/auth/callback/atlassian`. Credentials from
 * `AUTH_ATLASSIAN_ID` and `AUTH_ATLASSIAN_SECRET`.
 *
 * @example
 * ```ts
 * import Atlassian from "@tessera/core/providers/atlassian"
 * const config = { providers: [Atlassian] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The user of `GET https://api.atlassian.com/me`. */
export interface AtlassianProfile {
  account_id: string;
  account_type?: string;
  account_status?: string;
  name: string;
  nickname?: string;
  email: string;
  email_verified?: boolean;
  picture: string;
  locale?: string;
  zoneinfo?: string;
  [field: string]: unknown;
}

/**
 * Atlassian provider.
 *
 * @example
 * ```ts
 * Atlassian({ authorization: { params: { scope: "read:me read:jira-work offline_access" } } })
 * ```
 */
export default function Atlassian<P extends AtlassianProfile = AtlassianProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "atlassian",
    name: "Atlassian",
    type: "oauth",
    authorization: {
      url: "https://auth.atlassian.com/authorize",
      params: { audience: "api.atlassian.com", scope: "read:me" },
    },
    token: "https://auth.atlassian.com/oauth/token",
    userinfo: "https://api.atlassian.com/me",
    checks: ["state"],
    profile(profile) {
      return {
        id: profile.account_id,
        name: profile.name,
        email: profile.email,
        image: profile.picture,
      };
    },
    style: { brandColor: "#0052cc" },
    options,
  };
}
