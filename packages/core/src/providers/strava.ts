/**
 * Strava sign-in (OAuth 2). The scope `read` is asked for, with `approval_prompt=auto` (Strava
 * shows its consent page only when the app has not been authorized yet). The client id and
 * secret are sent in the token request's body (`client_secret_post`), as Strava documents. The
 * profile is the authenticated athlete, `GET https://www.strava.com/api/v3/athlete`: identified
 * by the athlete id, named by first and last names joined, with the `profile` picture. Strava
 * never gives the e-mail address, so the user's `email` is always `null`.
 *
 * Callback URL to register: Strava checks only the host, against the app's "Authorization
 * Callback Domain" (the host of `<origin>/auth/callback/strava`; `localhost` is allowed).
 * Credentials from `AUTH_STRAVA_ID` and `AUTH_STRAVA_SECRET`.
 *
 * @example
 * ```ts
 * import Strava from "@tessera/core/providers/strava"
 * const config = { providers: [Strava] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://www.strava.com/api/v3/athlete` (a detailed athlete). */
export interface StravaProfile {
  id: number;
  username?: string | null;
  firstname: string;
  lastname: string;
  /** The URL of the athlete's 124 × 124 picture. */
  profile: string;
  profile_medium?: string;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  sex?: "M" | "F" | null;
  premium?: boolean;
  summit?: boolean;
  created_at?: string;
  updated_at?: string;
  [field: string]: unknown;
}

/**
 * Strava provider.
 *
 * @example
 * ```ts
 * Strava({ authorization: { params: { scope: "read,activity:read" } } })
 * ```
 */
export default function Strava<P extends StravaProfile = StravaProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "strava",
    name: "Strava",
    type: "oauth",
    authorization: {
      url: "https://www.strava.com/api/v3/oauth/authorize",
      params: { scope: "read", approval_prompt: "auto", response_type: "code" },
    },
    token: { url: "https://www.strava.com/api/v3/oauth/token" },
    userinfo: "https://www.strava.com/api/v3/athlete",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: String(profile.id),
        name: `${profile.firstname} ${profile.lastname}`,
        email: null,
        image: profile.profile,
      };
    },
    style: { brandColor: "#fc4c02" },
    options,
  };
}
