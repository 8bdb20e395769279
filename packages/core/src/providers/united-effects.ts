/**
 * United Effects sign-in (Core EOS, OpenID Connect). `issuer` is the auth group's URL, e.g.
 * `https://auth.unitedeffects.com/YQpbQV5dbW-224dCovz-3` (or `AUTH_UNITED_EFFECTS_ISSUER`); it
 * is also sent as the `resource` of the authorization request, as United Effects expects.
 * United Effects has no name or picture claims: users are known by e-mail.
 *
 * Callback URL to register (the client's redirect URIs):
 * `<origin>/auth/callback/united-effects`. Credentials from `AUTH_UNITED_EFFECTS_ID` and
 * `AUTH_UNITED_EFFECTS_SECRET`.
 *
 * @example
 * ```ts
 * import UnitedEffects from "@tessera/core/providers/united-effects"
 * const config = { providers: [UnitedEffects({ issuer: "https://auth.unitedeffects.com/YQpbQV5dbW-224dCovz-3" })] }
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a United Effects ID token. */
export interface UnitedEffectsProfile {
  sub: string;
  email: string;
  email_verified?: boolean;
  [claim: string]: unknown;
}

/**
 * United Effects provider.
 *
 * @example
 * ```ts
 * UnitedEffects({ issuer: process.env.UE_AUTH_GROUP_URL })
 * ```
 */
export default function UnitedEffects<P extends UnitedEffectsProfile = UnitedEffectsProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  // The issuer is a parameter of the authorization request, so it is needed here.
  const issuer = options.issuer ?? processEnv().AUTH_UNITED_EFFECTS_ISSUER;
  return {
    id: "united-effects",
    name: "United Effects",
    type: "oidc",
    authorization: {
      params: { scope: "openid email profile", ...(issuer && { resource: issuer }) },
    },
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#0c1f3f" },
    options,
  };
}
