/**
 * GitHub sign-in (OAuth 2, GitHub.com or GitHub Enterprise Server). When the user keeps their
 * e-mail private, it is looked up in `/user/emails` (the `user:email` scope): the primary
 * verified address, else another verified one.
 *
 * Callback URL to register: `<origin>/auth/callback/github`. Credentials from `AUTH_GITHUB_ID`
 * and `AUTH_GITHUB_SECRET`.
 *
 * @example
 * ```ts
 * import GitHub from "@tessera/core/providers/github"
 * const config = { providers: [GitHub] } // or GitHub({ enterprise: { baseUrl: "https://github.example.com" } })
 * ```
 */
import { bearer, providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** An entry of `GET /user/emails`. */
export interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility: "public" | "private" | null;
}

/** The user from `GET /user` (see GitHub's REST API "Get the authenticated user"). */
export interface GitHubProfile {
  login: string;
  id: number;
  node_id: string;
  avatar_url: string;
  gravatar_id: string | null;
  url: string;
  html_url: string;
  type: string;
  site_admin: boolean;
  name: string | null;
  company: string | null;
  blog: string | null;
  location: string | null;
  email: string | null;
  hireable: boolean | null;
  bio: string | null;
  twitter_username?: string | null;
  public_repos: number;
  public_gists: number;
  followers: number;
  following: number;
  created_at: string;
  updated_at: string;
  [claim: string]: unknown;
}

/** Options of {@link GitHub}: provider overrides plus a GitHub Enterprise Server URL. */
export interface GitHubOptions<P extends GitHubProfile = GitHubProfile> extends OAuthUserConfig<P> {
  enterprise?: {
    /** `https://github.example.com`; the API is then at `<baseUrl>/api/v3`. */
    baseUrl?: string;
  };
}

/** Picks the address GitHub vouches for: primary and verified first, then any verified one. */
export function pickGitHubEmail(emails: unknown): string | null {
  if (!Array.isArray(emails)) return null;
  const verified = (emails as GitHubEmail[]).filter(
    (e) => e?.verified && typeof e.email === "string",
  );
  return (verified.find((e) => e.primary) ?? verified[0])?.email ?? null;
}

/**
 * GitHub provider.
 *
 * @example
 * ```ts
 * GitHub({ authorization: { params: { scope: "read:user user:email read:org" } } })
 * ```
 */
export default function GitHub<P extends GitHubProfile = GitHubProfile>(
  options: GitHubOptions<P> = {},
): OAuthConfig<P> {
  const baseUrl = (options.enterprise?.baseUrl ?? "https://github.com").replace(/\/+$/, "");
  const apiUrl = options.enterprise?.baseUrl ? `${baseUrl}/api/v3` : "https://api.github.com";
  return {
    id: "github",
    name: "GitHub",
    type: "oauth",
    // GitHub sends `iss=<base URL>/login/oauth` with the callback; knowing the issuer lets the
    // callback check it (RFC 9207 §2.4, mix-up attack). GitHub publishes no discovery document,
    // and none is fetched: every endpoint is configured below.
    issuer: `${baseUrl}/login/oauth`,
    authorization: {
      url: `${baseUrl}/login/oauth/authorize`,
      params: { scope: "read:user user:email" },
    },
    token: `${baseUrl}/login/oauth/access_token`,
    userinfo: {
      url: `${apiUrl}/user`,
      async request({ tokens, provider }) {
        const headers = {
          ...bearer(tokens.access_token),
          accept: "application/vnd.github+json",
          // GitHub's API refuses requests without a User-Agent.
          "user-agent": "tessera",
        };
        const userUrl = provider.userinfo?.url ?? new URL(`${apiUrl}/user`);
        const profile = (await providerJson(provider, userUrl, { headers })) as GitHubProfile;
        if (!profile.email) {
          const emailsUrl = new URL(userUrl);
          emailsUrl.pathname = `${emailsUrl.pathname.replace(/\/+$/, "")}/emails`;
          emailsUrl.search = "";
          profile.email = pickGitHubEmail(await providerJson(provider, emailsUrl, { headers }));
        }
        return profile;
      },
    },
    profile(profile) {
      return {
        id: String(profile.id),
        name: profile.name ?? profile.login,
        email: profile.email,
        image: profile.avatar_url,
      };
    },
    style: { brandColor: "#24292f" },
    options,
  };
}
