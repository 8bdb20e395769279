/**
 * Salesforce sign-in (OpenID Connect, issuer `https://login.salesforce.com`; for a sandbox set
 * `issuer: "https://test.salesforce.com"`, for a My Domain its URL). The profile is read from
 * the userinfo endpoint, which Salesforce fills more fully than the ID token; the ID token is
 * still verified and must name the same user. PKCE, `state` and `nonce` are all sent.
 *
 * Callback URL to register (the connected app's callback URL):
 * `<origin>/auth/callback/salesforce`. Credentials from `AUTH_SALESFORCE_ID` (the consumer key)
 * and `AUTH_SALESFORCE_SECRET` (the consumer secret).
 *
 * @example
 * ```ts
 * import Salesforce from "@tessera/core/providers/salesforce"
 * const config = { providers: [Salesforce] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** The Salesforce userinfo response (standard claims plus Salesforce's own). */
export interface SalesforceProfile {
  sub: string;
  user_id: string;
  organization_id: string;
  name?: string;
  preferred_username?: string;
  nickname?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  [claim: string]: unknown;
}

/**
 * Salesforce provider.
 *
 * @example
 * ```ts
 * Salesforce({ issuer: "https://acme.my.salesforce.com" })
 * ```
 */
export default function Salesforce<P extends SalesforceProfile = SalesforceProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "salesforce",
    name: "Salesforce",
    type: "oidc",
    issuer: "https://login.salesforce.com",
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#00a1e0" },
    options,
  };
}
