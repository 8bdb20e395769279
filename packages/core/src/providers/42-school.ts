/**
 * 42 School sign-in (the 42 intranet's OAuth 2, scope `public`). The profile is the intranet's
 * `GET /v2/me`: the user is named by `usual_full_name`, pictured by `image.link`.
 *
 * Callback URL to register (the application's redirect URIs on profile.intra.42.fr):
 * `<origin>/auth/callback/42-school`. Credentials from `AUTH_42_SCHOOL_ID` and
 * `AUTH_42_SCHOOL_SECRET`.
 *
 * @example
 * ```ts
 * import FortyTwo from "@tessera/core/providers/42-school"
 * const config = { providers: [FortyTwo] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The user of `GET https://api.intra.42.fr/v2/me` (the fields the mapping reads, and more). */
export interface FortyTwoProfile {
  id: number;
  email: string;
  login: string;
  first_name: string;
  last_name: string;
  usual_full_name: string;
  usual_first_name: string | null;
  url: string;
  displayname: string;
  image: {
    link: string | null;
    versions: {
      large: string | null;
      medium: string | null;
      small: string | null;
      micro: string | null;
    };
  };
  "staff?": boolean;
  campus?: { id: number; name: string }[];
  [field: string]: unknown;
}

/**
 * 42 School provider.
 *
 * @example
 * ```ts
 * FortyTwo({ authorization: { params: { scope: "public projects" } } })
 * ```
 */
export default function FortyTwo<P extends FortyTwoProfile = FortyTwoProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "42-school",
    name: "42 School",
    type: "oauth",
    authorization: {
      url: "https://api.intra.42.fr/oauth/authorize",
      params: { scope: "public" },
    },
    token: "https://api.intra.42.fr/oauth/token",
    userinfo: "https://api.intra.42.fr/v2/me",
    profile(profile) {
      return {
        id: String(profile.id),
        name: profile.usual_full_name,
        email: profile.email,
        image: profile.image.link,
      };
    },
    style: { brandColor: "#000000" },
    options,
  };
}
