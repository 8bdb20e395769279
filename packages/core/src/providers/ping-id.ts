/**
 * Ping Identity sign-in (PingOne, OpenID Connect). `issuer` is the environment's issuer,
 * `https://auth.pingone.<region>/<environment id>/as` (or `AUTH_PING_ID_ISSUER`).
 *
 * Callback URL to register (the application's redirect URIs):
 * `<origin>/auth/callback/ping-id`. Credentials from `AUTH_PING_ID_ID` and
 * `AUTH_PING_ID_SECRET`.
 *
 * @example
 * ```ts
 * import PingId from "@tessera/core/providers/ping-id"
 * const config = { providers: [PingId({ issuer: "https://auth.pingone.eu/0a7af83d-4ed9-4510-93cd-506fe835f69a/as" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a PingOne ID token. */
export interface PingProfile {
  sub: string;
  iss: string;
  aud: string;
  env?: string;
  org?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  [claim: string]: unknown;
}

/**
 * Ping Identity provider.
 *
 * @example
 * ```ts
 * PingId({ authorization: { params: { prompt: "login" } } })
 * ```
 */
export default function PingId<P extends PingProfile = PingProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "ping-id",
    name: "Ping Identity",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#b3282d" },
    options,
  };
}
