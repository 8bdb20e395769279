/**
 * Ory Hydra sign-in (OpenID Connect). The provider id is `hydra` (as in Auth.js), so the
 * callback path and environment variables say `hydra`. `issuer` is Hydra's public URL, e.g.
 * `https://hydra.example.com` or an Ory Network project's `https://<slug>.projects.oryapis.com`
 * (or `AUTH_HYDRA_ISSUER`).
 *
 * Callback URL to register (the OAuth 2 client's `redirect_uris`):
 * `<origin>/auth/callback/hydra`. Credentials from `AUTH_HYDRA_ID` and `AUTH_HYDRA_SECRET`.
 *
 * @example
 * ```ts
 * import OryHydra from "@tessera/core/providers/ory-hydra"
 * const config = { providers: [OryHydra({ issuer: "https://hydra.example.com" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of an Ory Hydra ID token (set by the login and consent app). */
export interface OryHydraProfile {
  sub: string;
  iss: string;
  aud: string[] | string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  [claim: string]: unknown;
}

/**
 * Ory Hydra provider.
 *
 * @example
 * ```ts
 * OryHydra({ authorization: { params: { scope: "openid offline_access email profile" } } })
 * ```
 */
export default function OryHydra<P extends OryHydraProfile = OryHydraProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "hydra",
    name: "Hydra",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#0F172A" },
    options,
  };
}
