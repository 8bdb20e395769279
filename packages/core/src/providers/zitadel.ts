/**
 * ZITADEL sign-in (OpenID Connect). `issuer` is the instance's domain, e.g.
 * `https://my-instance-abc123.zitadel.cloud` (or `AUTH_ZITADEL_ISSUER`). With PKCE (the
 * default), a web application set to the "PKCE" authentication method needs no secret: pass
 * `client: { token_endpoint_auth_method: "none" }`.
 *
 * Callback URL to register (the application's redirect URIs):
 * `<origin>/auth/callback/zitadel`. Credentials from `AUTH_ZITADEL_ID` and
 * `AUTH_ZITADEL_SECRET`.
 *
 * @example
 * ```ts
 * import ZITADEL from "@tessera/core/providers/zitadel"
 * const config = { providers: [ZITADEL({ issuer: "https://my-instance-abc123.zitadel.cloud" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a ZITADEL ID token. */
export interface ZitadelProfile {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  nickname?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  locale?: string;
  updated_at?: number;
  [claim: string]: unknown;
}

/**
 * ZITADEL provider.
 *
 * @example
 * ```ts
 * ZITADEL({ authorization: { params: { scope: "openid profile email offline_access" } } })
 * ```
 */
export default function ZITADEL<P extends ZitadelProfile = ZitadelProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "zitadel",
    name: "ZITADEL",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#5469d4" },
    options,
  };
}
