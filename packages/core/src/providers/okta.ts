/**
 * Okta sign-in (OpenID Connect). `issuer` is your authorization server, e.g.
 * `https://example.okta.com/oauth2/default` (or `AUTH_OKTA_ISSUER`).
 *
 * Callback URL to register: `<origin>/auth/callback/okta`. Credentials from `AUTH_OKTA_ID` and
 * `AUTH_OKTA_SECRET`.
 *
 * @example
 * ```ts
 * import Okta from "@tessera/core/providers/okta"
 * const config = { providers: [Okta({ issuer: "https://example.okta.com/oauth2/default" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of an Okta ID token. */
export interface OktaProfile {
  sub: string;
  name?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  locale?: string;
  zoneinfo?: string;
  [claim: string]: unknown;
}

/**
 * Okta provider.
 *
 * @example
 * ```ts
 * Okta({ authorization: { params: { scope: "openid profile email groups" } } })
 * ```
 */
export default function Okta<P extends OktaProfile = OktaProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "okta",
    name: "Okta",
    type: "oidc",
    // Okta refuses an authorization request without `state` ("invalid 'state' parameter").
    checks: ["pkce", "state"],
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#007dc1" },
    options,
  };
}
