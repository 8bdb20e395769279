/**
 * Azure AD B2C sign-in (OpenID Connect). `issuer` is the issuer of your user flow (policy), as
 * its "Run user flow" metadata document shows, e.g.
 * `https://contoso.b2clogin.com/<tenant id>/v2.0/` (or `AUTH_AZURE_AD_B2C_ISSUER`). When the
 * discovery document is not at `<issuer>/.well-known/openid-configuration`, which is the case
 * for B2C policies, pass its URL as `wellKnown`:
 * `https://contoso.b2clogin.com/contoso.onmicrosoft.com/<policy>/v2.0/.well-known/openid-configuration`.
 *
 * B2C puts the e-mail addresses in the `emails` claim (an array, "Email Addresses" in the user
 * flow's application claims): the first one is the user's e-mail. B2C has no picture claim.
 *
 * Callback URL to register (the app registration's redirect URIs, platform "Web"):
 * `<origin>/auth/callback/azure-ad-b2c`. Credentials from `AUTH_AZURE_AD_B2C_ID` and
 * `AUTH_AZURE_AD_B2C_SECRET`.
 *
 * @example
 * ```ts
 * import AzureADB2C from "@tessera/core/providers/azure-ad-b2c"
 * const config = { providers: [AzureADB2C({ issuer: "https://contoso.b2clogin.com/a1b2c3/v2.0/" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of an Azure AD B2C ID token (the user flow chooses which). */
export interface AzureADB2CProfile {
  sub: string;
  oid?: string;
  tfp?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  emails?: string[];
  [claim: string]: unknown;
}

/**
 * Azure AD B2C provider.
 *
 * @example
 * ```ts
 * AzureADB2C({ authorization: { params: { scope: `openid offline_access ${clientId}` } } })
 * ```
 */
export default function AzureADB2C<P extends AzureADB2CProfile = AzureADB2CProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "azure-ad-b2c",
    name: "Azure AD B2C",
    type: "oidc",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.emails?.[0] ?? null,
        image: null,
      };
    },
    style: { brandColor: "#0072c6" },
    options,
  };
}
