/**
 * Vipps MobilePay sign-in (Vipps Login, OpenID Connect, issuer
 * `https://api.vipps.no/access-management-1.0/access/`; for the test environment set `issuer:
 * "https://apitest.vipps.no/access-management-1.0/access/"`). The profile is read from the
 * userinfo endpoint, which carries the claims of the scopes `openid name email` (the ID token has
 * none of them); the ID token is still verified and must name the same user. PKCE, `state` and
 * `nonce` are all sent.
 *
 * Callback URL to register (the sales unit's redirect URIs): `<origin>/auth/callback/vipps`.
 * Credentials from `AUTH_VIPPS_ID` and `AUTH_VIPPS_SECRET`.
 *
 * @example
 * ```ts
 * import Vipps from "@tessera/core/providers/vipps"
 * const config = { providers: [Vipps] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** The Vipps userinfo response (scopes `openid name email`). */
export interface VippsProfile {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  phone_number?: string;
  sid?: string;
  [claim: string]: unknown;
}

/**
 * Vipps provider.
 *
 * @example
 * ```ts
 * Vipps({ authorization: { params: { scope: "openid name email phoneNumber" } } })
 * ```
 */
export default function Vipps<P extends VippsProfile = VippsProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "vipps",
    name: "Vipps",
    type: "oidc",
    issuer: "https://api.vipps.no/access-management-1.0/access/",
    authorization: { params: { scope: "openid name email" } },
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#f05c18" },
    options,
  };
}
