/**
 * IdentityServer4 sign-in (OpenID Connect). `issuer` is the server's base URL, e.g.
 * `https://identity.example.com` (or `AUTH_IDENTITY_SERVER4_ISSUER`). IdentityServer4 is no
 * longer maintained; its successor is Duende IdentityServer
 * (`@tessera/core/providers/duende-identity-server6`).
 *
 * Callback URL to register (the client's `RedirectUris`):
 * `<origin>/auth/callback/identity-server4`. Credentials from `AUTH_IDENTITY_SERVER4_ID` and
 * `AUTH_IDENTITY_SERVER4_SECRET`.
 *
 * @example
 * ```ts
 * import IdentityServer4 from "@tessera/core/providers/identity-server4"
 * const config = { providers: [IdentityServer4({ issuer: "https://identity.example.com" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of an IdentityServer4 ID token. */
export interface IdentityServer4Profile {
  sub: string;
  name?: string;
  email?: string;
  idp?: string;
  [claim: string]: unknown;
}

/**
 * IdentityServer4 provider.
 *
 * @example
 * ```ts
 * IdentityServer4({ authorization: { params: { scope: "openid profile email api1" } } })
 * ```
 */
export default function IdentityServer4<P extends IdentityServer4Profile = IdentityServer4Profile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "identity-server4",
    name: "IdentityServer4",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#2b5797" },
    options,
  };
}
