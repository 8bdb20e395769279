/**
 * Duende IdentityServer sign-in (OpenID Connect). `issuer` is the server's base URL, e.g.
 * `https://identity.example.com` (or `AUTH_DUENDE_IDENTITY_SERVER6_ISSUER`); discovery names
 * every endpoint. For the older IdentityServer4 use `@tessera/core/providers/identity-server4`.
 *
 * Callback URL to register (the client's `RedirectUris`):
 * `<origin>/auth/callback/duende-identity-server6`. Credentials from
 * `AUTH_DUENDE_IDENTITY_SERVER6_ID` and `AUTH_DUENDE_IDENTITY_SERVER6_SECRET`.
 *
 * @example
 * ```ts
 * import DuendeIdentityServer6 from "@tessera/core/providers/duende-identity-server6"
 * const config = { providers: [DuendeIdentityServer6({ issuer: "https://demo.duendesoftware.com" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Duende IdentityServer ID token. */
export interface DuendeISUser {
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  idp?: string;
  [claim: string]: unknown;
}

/**
 * Duende IdentityServer 6 provider.
 *
 * @example
 * ```ts
 * DuendeIdentityServer6({ authorization: { params: { scope: "openid profile email api1" } } })
 * ```
 */
export default function DuendeIdentityServer6<P extends DuendeISUser = DuendeISUser>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "duende-identity-server6",
    name: "DuendeIdentityServer6",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#2b5797" },
    options,
  };
}
