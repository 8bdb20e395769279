/**
 * FreshBooks sign-in (OAuth 2). No scope is added by default: the scopes come from the app's
 * settings in FreshBooks, or from `authorization.params.scope`. The profile is read from
 * `GET https://api.freshbooks.com/auth/api/v1/users/me`, whose user sits under `response`; the
 * user's name joins its first and last names.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent. Auth.js's provider parser
 * adds `openid profile email` to an OAuth 2 provider that names no scope, scopes FreshBooks
 * does not define; FreshBooks grants the scopes set in the app's settings.
 *
 * Callback URL to register (the app's redirect URIs in the FreshBooks developer portal, which
 * must be HTTPS): `<origin>/auth/callback/freshbooks`. Credentials from `AUTH_FRESHBOOKS_ID` and
 * `AUTH_FRESHBOOKS_SECRET`.
 *
 * @example
 * ```ts
 * import Freshbooks from "@tessera/core/providers/freshbooks"
 * const config = { providers: [Freshbooks] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.freshbooks.com/auth/api/v1/users/me`. */
export interface FreshbooksProfile {
  response: {
    id: number;
    first_name: string;
    last_name: string;
    email: string;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/**
 * FreshBooks provider.
 *
 * @example
 * ```ts
 * Freshbooks({ authorization: { params: { scope: "user:profile:read" } } })
 * ```
 */
export default function Freshbooks<P extends FreshbooksProfile = FreshbooksProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "freshbooks",
    name: "Freshbooks",
    type: "oauth",
    authorization: "https://auth.freshbooks.com/service/auth/oauth/authorize",
    token: "https://api.freshbooks.com/auth/oauth/token",
    userinfo: "https://api.freshbooks.com/auth/api/v1/users/me",
    profile(profile) {
      return {
        id: String(profile.response.id),
        name: `${profile.response.first_name} ${profile.response.last_name}`,
        email: profile.response.email,
        image: null,
      };
    },
    style: { brandColor: "#0075dd" },
    options,
  };
}
