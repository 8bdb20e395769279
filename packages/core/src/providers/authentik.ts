/**
 * authentik sign-in (OpenID Connect). `issuer` is the application's provider URL, with its slug
 * and without a trailing slash, e.g. `https://authentik.example.com/application/o/my-app` (or
 * `AUTH_AUTHENTIK_ISSUER`); its discovery document names every endpoint.
 *
 * Callback URL to register (Redirect URIs of the OAuth2/OpenID provider):
 * `<origin>/auth/callback/authentik`. Credentials from `AUTH_AUTHENTIK_ID` and
 * `AUTH_AUTHENTIK_SECRET`.
 *
 * @example
 * ```ts
 * import Authentik from "@tessera/core/providers/authentik"
 * const config = { providers: [Authentik({ issuer: "https://authentik.example.com/application/o/my-app" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of an authentik ID token (scopes `openid profile email`). */
export interface AuthentikProfile {
  sub: string;
  iss: string;
  aud: string;
  name?: string;
  given_name?: string;
  preferred_username?: string;
  nickname?: string;
  email?: string;
  email_verified?: boolean;
  groups?: string[];
  [claim: string]: unknown;
}

/**
 * authentik provider.
 *
 * @example
 * ```ts
 * Authentik({ authorization: { params: { scope: "openid profile email offline_access" } } })
 * ```
 */
export default function Authentik<P extends AuthentikProfile = AuthentikProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "authentik",
    name: "Authentik",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#fd4b2d" },
    options,
  };
}
