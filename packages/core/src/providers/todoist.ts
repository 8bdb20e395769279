/**
 * Todoist sign-in (OAuth 2). The scope `data:read` is asked for (Todoist has no narrower one
 * that reads the user); the client credentials are sent as token request parameters. The
 * profile is the current user of Todoist's API v1, `GET https://api.todoist.com/api/v1/user`:
 * the user is named by `full_name`, with the `email` and the `avatar_big` picture.
 *
 * Deliberate difference from Auth.js: the profile comes from `GET /api/v1/user` of Todoist's API
 * v1. Auth.js asks the Sync API v9 (`POST /sync/v9/sync`), which Todoist shut down on
 * 10 February 2026, so its Todoist sign-in fails. The user fields (`id`, `email`, `full_name`,
 * `avatar_big`) are the same in both.
 *
 * Deliberate difference from Auth.js: `state` is sent with PKCE, since Todoist requires a
 * `state` on the authorization request; Auth.js sends PKCE alone.
 *
 * Callback URL to register (the app's "OAuth redirect URL" in Todoist's App Management
 * Console): `<origin>/auth/callback/todoist`. Credentials from `AUTH_TODOIST_ID` and
 * `AUTH_TODOIST_SECRET`.
 *
 * @example
 * ```ts
 * import Todoist from "@tessera/core/providers/todoist"
 * const config = { providers: [Todoist] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.todoist.com/api/v1/user`. */
export interface TodoistProfile {
  id: string;
  email: string;
  full_name: string;
  avatar_big: string | null;
  avatar_medium?: string | null;
  avatar_small?: string | null;
  avatar_s640?: string | null;
  is_premium?: boolean;
  lang?: string;
  inbox_project_id?: string;
  [field: string]: unknown;
}

/**
 * Todoist provider.
 *
 * @example
 * ```ts
 * Todoist({ authorization: { params: { scope: "data:read_write" } } })
 * ```
 */
export default function Todoist<P extends TodoistProfile = TodoistProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "todoist",
    name: "Todoist",
    type: "oauth",
    authorization: {
      url: "https://todoist.com/oauth/authorize",
      params: { scope: "data:read" },
    },
    // Todoist requires `state` on the authorization request (CSRF).
    checks: ["pkce", "state"],
    token: "https://todoist.com/oauth/access_token",
    client: { token_endpoint_auth_method: "client_secret_post" },
    userinfo: "https://api.todoist.com/api/v1/user",
    profile(profile) {
      return {
        id: profile.id,
        email: profile.email,
        name: profile.full_name,
        image: profile.avatar_big,
      };
    },
    style: { brandColor: "#E44332" },
    options,
  };
}
