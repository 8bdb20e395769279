/**
 * Beyond Identity sign-in (passwordless, OpenID Connect). `issuer` is the application's issuer,
 * `https://auth-<region>.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<app>`
 * (or `AUTH_BEYONDIDENTITY_ISSUER`). Beyond Identity has no picture claim.
 *
 * Callback URL to register (the application's redirect URIs):
 * `<origin>/auth/callback/beyondidentity`. Credentials from `AUTH_BEYONDIDENTITY_ID` and
 * `AUTH_BEYONDIDENTITY_SECRET`.
 *
 * @example
 * ```ts
 * import BeyondIdentity from "@tessera/core/providers/beyondidentity"
 * const config = { providers: [BeyondIdentity({ issuer: process.env.BEYOND_IDENTITY_ISSUER })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Beyond Identity ID token. */
export interface BeyondIdentityProfile {
  sub: string;
  name?: string;
  preferred_username?: string;
  email?: string;
  [claim: string]: unknown;
}

/**
 * Beyond Identity provider. The user also carries `preferred_username`, as with Auth.js.
 *
 * @example
 * ```ts
 * BeyondIdentity({ issuer: "https://auth-us.beyondidentity.com/v1/tenants/t/realms/r/applications/a" })
 * ```
 */
export default function BeyondIdentity<P extends BeyondIdentityProfile = BeyondIdentityProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "beyondidentity",
    name: "Beyond Identity",
    type: "oidc",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: null,
        preferred_username: profile.preferred_username,
      };
    },
    style: { brandColor: "#5077c5" },
    options,
  };
}
