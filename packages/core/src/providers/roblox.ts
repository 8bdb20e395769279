/**
 * Roblox sign-in (OpenID Connect, issuer `https://apis.roblox.com/oauth/`). Roblox gives no
 * e-mail; the scopes `openid profile` name the user by display name, else nickname or username.
 * Roblox requires `state`, which is sent with PKCE.
 *
 * Callback URL to register (the OAuth 2.0 app's redirect URLs):
 * `<origin>/auth/callback/roblox`. Credentials from `AUTH_ROBLOX_ID` and `AUTH_ROBLOX_SECRET`.
 *
 * @example
 * ```ts
 * import Roblox from "@tessera/core/providers/roblox"
 * const config = { providers: [Roblox] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Roblox ID token (scopes `openid profile`). */
export interface RobloxProfile {
  sub: string;
  name?: string;
  nickname?: string;
  preferred_username?: string;
  created_at?: number;
  profile?: string;
  picture?: string | null;
  [claim: string]: unknown;
}

/**
 * Roblox provider.
 *
 * @example
 * ```ts
 * Roblox({ authorization: { params: { scope: "openid profile asset:read" } } })
 * ```
 */
export default function Roblox<P extends RobloxProfile = RobloxProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "roblox",
    name: "Roblox",
    type: "oidc",
    issuer: "https://apis.roblox.com/oauth/",
    authorization: { params: { scope: "openid profile" } },
    checks: ["pkce", "state"],
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#5865F2" },
    options,
  };
}
