/**
 * Asgardeo sign-in (WSO2's identity service, OpenID Connect). `issuer` is the issuer the
 * application's Info tab shows, `https://api.asgardeo.io/t/<organization>/oauth2/token` (or
 * `AUTH_ASGARDEO_ISSUER`); the discovery document is read from under it.
 *
 * Deliberate difference from Auth.js: no `wellKnown` is declared. Auth.js declares
 * `<issuer>/oauth2/token/.well-known/openid-configuration` but never reads it (it discovers from
 * the issuer); Tessera reads what a provider declares, so it declares nothing and discovers from
 * the issuer, as Auth.js does in fact.
 *
 * Callback URL to register (the application's authorized redirect URLs):
 * `<origin>/auth/callback/asgardeo`. Credentials from `AUTH_ASGARDEO_ID` and
 * `AUTH_ASGARDEO_SECRET`.
 *
 * @example
 * ```ts
 * import Asgardeo from "@tessera/core/providers/asgardeo"
 * const config = { providers: [Asgardeo({ issuer: "https://api.asgardeo.io/t/acme/oauth2/token" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of an Asgardeo ID token. */
export interface AsgardeoProfile {
  sub: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  picture?: string;
  [claim: string]: unknown;
}

/**
 * Asgardeo provider.
 *
 * @example
 * ```ts
 * Asgardeo({ authorization: { params: { scope: "openid profile email groups" } } })
 * ```
 */
export default function Asgardeo<P extends AsgardeoProfile = AsgardeoProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "asgardeo",
    name: "Asgardeo",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#000000" },
    options,
  };
}
