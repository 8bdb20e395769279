/**
 * Passage sign-in (1Password's passkey service, OpenID Connect). `issuer` is your app's
 * issuer, `https://auth.passage.id/v1/apps/<app id>` (or `AUTH_PASSAGE_ISSUER`). The client
 * authenticates with HTTP Basic at the token endpoint, as Passage requires.
 *
 * Callback URL to register (the app's OIDC redirect URIs): `<origin>/auth/callback/passage`.
 * Credentials from `AUTH_PASSAGE_ID` and `AUTH_PASSAGE_SECRET`.
 *
 * @example
 * ```ts
 * import Passage from "@tessera/core/providers/passage"
 * const config = { providers: [Passage({ issuer: "https://auth.passage.id/v1/apps/AbCdEf" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Passage ID token. */
export interface PassageProfile {
  sub: string;
  iss: string;
  aud: string[] | string;
  email?: string;
  email_verified?: boolean;
  phone_number?: string;
  phone_number_verified?: boolean;
  [claim: string]: unknown;
}

/**
 * Passage provider.
 *
 * @example
 * ```ts
 * Passage({ issuer: process.env.PASSAGE_ISSUER })
 * ```
 */
export default function Passage<P extends PassageProfile = PassageProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "passage",
    name: "Passage",
    type: "oidc",
    client: { token_endpoint_auth_method: "client_secret_basic" },
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#3d53f6" },
    options,
  };
}
