/**
 * Descope sign-in (OpenID Connect). The issuer defaults to `https://api.descope.com/<project
 * id>`, the project id being the client id; set `issuer` (or `AUTH_DESCOPE_ISSUER`) for a custom
 * domain or a federated app, as Applications → OIDC Application → Issuer shows it. Descope
 * requires `state`, which is sent with PKCE.
 *
 * Callback URL to register: `<origin>/auth/callback/descope`. Credentials from
 * `AUTH_DESCOPE_ID` (the project id) and `AUTH_DESCOPE_SECRET` (an access key).
 *
 * @example
 * ```ts
 * import Descope from "@tessera/core/providers/descope"
 * const config = { providers: [Descope] } // AUTH_DESCOPE_ID, AUTH_DESCOPE_SECRET
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Descope ID token. */
export interface DescopeProfile {
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  phone_number?: string;
  phone_number_verified?: boolean;
  picture?: string;
  [claim: string]: unknown;
}

/**
 * Descope provider.
 *
 * @example
 * ```ts
 * Descope({ clientId: "P2abc", clientSecret: process.env.DESCOPE_ACCESS_KEY })
 * ```
 */
export default function Descope<P extends DescopeProfile = DescopeProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  const projectId = options.clientId ?? processEnv().AUTH_DESCOPE_ID;
  const issuer =
    options.issuer ??
    processEnv().AUTH_DESCOPE_ISSUER ??
    (projectId ? `https://api.descope.com/${projectId}` : undefined);
  return {
    id: "descope",
    name: "Descope",
    type: "oidc",
    ...(issuer && { issuer }),
    checks: ["pkce", "state"],
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#1C1C23" },
    options,
  };
}
