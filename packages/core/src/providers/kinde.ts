/**
 * Kinde sign-in (OpenID Connect). `issuer` is your Kinde domain, e.g.
 * `https://example.kinde.com` (or `AUTH_KINDE_ISSUER`). Kinde requires `state`, which is sent
 * with PKCE.
 *
 * Callback URL to register (the application's allowed callback URLs):
 * `<origin>/auth/callback/kinde`. Credentials from `AUTH_KINDE_ID` and `AUTH_KINDE_SECRET`.
 *
 * @example
 * ```ts
 * import Kinde from "@tessera/core/providers/kinde"
 * const config = { providers: [Kinde({ issuer: "https://example.kinde.com" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Kinde ID token. */
export interface KindeProfile {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  org_codes?: string[];
  [claim: string]: unknown;
}

/**
 * Kinde provider.
 *
 * @example
 * ```ts
 * Kinde({ authorization: { params: { org_code: "org_123", prompt: "create" } } })
 * ```
 */
export default function Kinde<P extends KindeProfile = KindeProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "kinde",
    name: "Kinde",
    type: "oidc",
    checks: ["state", "pkce"],
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#0F0F0F" },
    options,
  };
}
