/**
 * Concept2 Logbook sign-in (OAuth 2). The scopes `user:read,results:write` are asked for
 * (comma-separated, as Concept2 documents); the profile is `GET
 * https://log.concept2.com/api/users/me`, wrapped in `data`.
 *
 * Callback URL to register (the application's redirect URI on log.concept2.com/developers):
 * `<origin>/auth/callback/concept2`. Credentials from `AUTH_CONCEPT2_ID` and
 * `AUTH_CONCEPT2_SECRET`.
 *
 * @example
 * ```ts
 * import Concept2 from "@tessera/core/providers/concept2"
 * const config = { providers: [Concept2] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://log.concept2.com/api/users/me`. */
export interface Concept2Profile {
  data: {
    id: number;
    username: string;
    first_name?: string;
    last_name?: string;
    gender?: string;
    dob?: string;
    email: string;
    country?: string;
    profile_image: string;
    age_restricted?: boolean;
    email_permission?: boolean | null;
    max_heart_rate?: number | null;
    weight?: number | null;
    logbook_privacy?: string | null;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/**
 * Concept2 provider.
 *
 * @example
 * ```ts
 * Concept2({ authorization: { params: { scope: "user:read,results:read" } } })
 * ```
 */
export default function Concept2<P extends Concept2Profile = Concept2Profile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "concept2",
    name: "Concept2",
    type: "oauth",
    authorization: {
      url: "https://log.concept2.com/oauth/authorize",
      params: { scope: "user:read,results:write" },
    },
    token: "https://log.concept2.com/oauth/access_token",
    userinfo: "https://log.concept2.com/api/users/me",
    profile(profile) {
      return {
        id: String(profile.data.id),
        name: profile.data.username,
        email: profile.data.email,
        image: profile.data.profile_image,
      };
    },
    style: { brandColor: "#003a70" },
    options,
  };
}
