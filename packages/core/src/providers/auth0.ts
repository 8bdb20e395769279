/**
 * Auth0 sign-in (OpenID Connect). `issuer` is your tenant's domain, e.g.
 * `https://example.eu.auth0.com` (or `AUTH_AUTH0_ISSUER`).
 *
 * Callback URL to register: `<origin>/auth/callback/auth0`. Credentials from `AUTH_AUTH0_ID`
 * and `AUTH_AUTH0_SECRET`.
 *
 * @example
 * ```ts
 * import Auth0 from "@tessera/core/providers/auth0"
 * const config = { providers: [Auth0({ issuer: "https://example.eu.auth0.com" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of an Auth0 ID token (standard claims; custom claims are namespaced URLs). */
export interface Auth0Profile {
  sub: string;
  name?: string;
  nickname?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  updated_at?: string;
  org_id?: string;
  [claim: string]: unknown;
}

/**
 * Auth0 provider.
 *
 * @example
 * ```ts
 * Auth0({ authorization: { params: { organization: "org_123" } } })
 * ```
 */
export default function Auth0<P extends Auth0Profile = Auth0Profile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "auth0",
    name: "Auth0",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#eb5424" },
    options,
  };
}
