/**
 * Keycloak sign-in (OpenID Connect). `issuer` is the realm URL, e.g.
 * `https://keycloak.example.com/realms/acme` (or `AUTH_KEYCLOAK_ISSUER`); plain `http://` works
 * for a local Keycloak.
 *
 * Callback URL to register: `<origin>/auth/callback/keycloak`. Credentials from
 * `AUTH_KEYCLOAK_ID` and `AUTH_KEYCLOAK_SECRET`.
 *
 * @example
 * ```ts
 * import Keycloak from "@tessera/core/providers/keycloak"
 * const config = { providers: [Keycloak({ issuer: "http://localhost:8080/realms/acme" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Keycloak ID token (with the default `profile` and `email` scopes). */
export interface KeycloakProfile {
  sub: string;
  name?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  sid?: string;
  acr?: string;
  realm_access?: { roles: string[] };
  [claim: string]: unknown;
}

/**
 * Keycloak provider.
 *
 * @example
 * ```ts
 * Keycloak({ issuer: "https://sso.example.com/realms/staff", allowDangerousEmailAccountLinking: true })
 * ```
 */
export default function Keycloak<P extends KeycloakProfile = KeycloakProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "keycloak",
    name: "Keycloak",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#4d4d4d" },
    options,
  };
}
