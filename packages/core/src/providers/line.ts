/**
 * LINE Login sign-in (OpenID Connect v2.1, issuer `https://access.line.me`). LINE signs ID
 * tokens with HS256 and the channel secret, which verifies them. Only `state` protects the
 * flow, as with Auth.js. The e-mail claim needs the `email` scope and LINE's approval of the
 * channel ("Email address permission").
 *
 * Callback URL to register (the LINE Login channel's callback URL):
 * `<origin>/auth/callback/line`. Credentials from `AUTH_LINE_ID` (the channel id) and
 * `AUTH_LINE_SECRET` (the channel secret).
 *
 * @example
 * ```ts
 * import LINE from "@tessera/core/providers/line"
 * const config = { providers: [LINE] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a LINE ID token. */
export interface LineProfile {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  amr: string[];
  name: string;
  picture?: string;
  email?: string;
  [claim: string]: unknown;
}

/**
 * LINE provider.
 *
 * @example
 * ```ts
 * LINE({ authorization: { params: { scope: "openid profile email", bot_prompt: "normal" } } })
 * ```
 */
export default function LINE<P extends LineProfile = LineProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "line",
    name: "LINE",
    type: "oidc",
    issuer: "https://access.line.me",
    client: { id_token_signed_response_alg: "HS256" },
    checks: ["state"],
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#00C300" },
    options,
  };
}
