/**
 * GitLab sign-in (OAuth 2, GitLab.com or a self-managed instance through `baseUrl`).
 *
 * Callback URL to register: `<origin>/auth/callback/gitlab`. Credentials from `AUTH_GITLAB_ID`
 * and `AUTH_GITLAB_SECRET`.
 *
 * @example
 * ```ts
 * import GitLab from "@tessera/core/providers/gitlab"
 * const config = { providers: [GitLab({ baseUrl: "https://gitlab.example.com" })] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The user from `GET /api/v4/user`. */
export interface GitLabProfile {
  id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
  web_url: string;
  email: string | null;
  public_email?: string | null;
  confirmed_at?: string | null;
  created_at: string;
  bio?: string;
  location?: string | null;
  two_factor_enabled?: boolean;
  [claim: string]: unknown;
}

/** Options of {@link GitLab}: provider overrides plus the instance URL. */
export interface GitLabOptions<P extends GitLabProfile = GitLabProfile> extends OAuthUserConfig<P> {
  /** A self-managed instance, e.g. `https://gitlab.example.com`. Default `https://gitlab.com`. */
  baseUrl?: string;
}

/**
 * GitLab provider.
 *
 * @example
 * ```ts
 * GitLab({ authorization: { params: { scope: "read_user read_api" } } })
 * ```
 */
export default function GitLab<P extends GitLabProfile = GitLabProfile>(
  options: GitLabOptions<P> = {},
): OAuthConfig<P> {
  const baseUrl = (options.baseUrl ?? "https://gitlab.com").replace(/\/+$/, "");
  return {
    id: "gitlab",
    name: "GitLab",
    type: "oauth",
    authorization: `${baseUrl}/oauth/authorize?scope=read_user`,
    token: `${baseUrl}/oauth/token`,
    userinfo: `${baseUrl}/api/v4/user`,
    profile(profile) {
      return {
        id: String(profile.id),
        name: profile.name ?? profile.username,
        email: profile.email,
        image: profile.avatar_url,
      };
    },
    style: { brandColor: "#FC6D26" },
    options,
  };
}
