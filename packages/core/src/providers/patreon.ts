/**
 * Patreon sign-in (OAuth 2). The scopes `identity identity[email]` are asked for and the profile
 * is the current user of Patreon's API, `GET https://www.patreon.com/api/oauth2/api/current_user`,
 * a JSON:API document whose user is `data`: identified by its `id`, with the `full_name`,
 * `email` and `image_url` of its `attributes`.
 *
 * Callback URL to register (the client's Redirect URIs in Patreon's client portal):
 * `<origin>/auth/callback/patreon`. Credentials from `AUTH_PATREON_ID` and
 * `AUTH_PATREON_SECRET`.
 *
 * @example
 * ```ts
 * import Patreon from "@tessera/core/providers/patreon"
 * const config = { providers: [Patreon] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://www.patreon.com/api/oauth2/api/current_user`. */
export interface PatreonProfile {
  data: {
    id: string;
    type: "user";
    attributes: {
      full_name: string;
      email?: string;
      image_url?: string;
      thumb_url?: string;
      vanity?: string | null;
      is_email_verified?: boolean;
      [field: string]: unknown;
    };
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/**
 * Patreon provider.
 *
 * @example
 * ```ts
 * Patreon({ authorization: { params: { scope: "identity identity[email] identity.memberships" } } })
 * ```
 */
export default function Patreon<P extends PatreonProfile = PatreonProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "patreon",
    name: "Patreon",
    type: "oauth",
    authorization: {
      url: "https://www.patreon.com/oauth2/authorize",
      params: { scope: "identity identity[email]" },
    },
    token: "https://www.patreon.com/api/oauth2/token",
    userinfo: "https://www.patreon.com/api/oauth2/api/current_user",
    profile(profile) {
      return {
        id: profile.data.id,
        name: profile.data.attributes.full_name,
        email: profile.data.attributes.email,
        image: profile.data.attributes.image_url,
      };
    },
    style: { brandColor: "#e85b46" },
    options,
  };
}
