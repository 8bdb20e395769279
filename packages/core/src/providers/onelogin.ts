/**
 * OneLogin sign-in (OpenID Connect). `issuer` is the account's OpenID Connect issuer,
 * `https://<subdomain>.onelogin.com/oidc/2` (or `AUTH_ONELOGIN_ISSUER`); the discovery
 * document is read from under it.
 *
 * Deliberate difference from Auth.js: no `wellKnown` is declared. Auth.js declares
 * `<issuer>/oidc/2/.well-known/openid-configuration` but never reads it (it discovers from the
 * issuer); Tessera reads what a provider declares, so it declares nothing and discovers from the
 * issuer, as Auth.js does in fact.
 *
 * Callback URL to register (the application's redirect URIs, SSO tab):
 * `<origin>/auth/callback/onelogin`. Credentials from `AUTH_ONELOGIN_ID` and
 * `AUTH_ONELOGIN_SECRET`.
 *
 * @example
 * ```ts
 * import OneLogin from "@tessera/core/providers/onelogin"
 * const config = { providers: [OneLogin({ issuer: "https://acme.onelogin.com/oidc/2" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a OneLogin ID token. */
export interface OneLoginProfile {
  sub: string;
  name?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  groups?: string[];
  [claim: string]: unknown;
}

/**
 * OneLogin provider.
 *
 * @example
 * ```ts
 * OneLogin({ authorization: { params: { scope: "openid profile email groups" } } })
 * ```
 */
export default function OneLogin<P extends OneLoginProfile = OneLoginProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "onelogin",
    name: "OneLogin",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#1c1f2a" },
    options,
  };
}
