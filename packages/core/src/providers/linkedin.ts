/**
 * LinkedIn sign-in ("Sign In with LinkedIn using OpenID Connect"). LinkedIn expects the client
 * credentials in the token request body and does not support PKCE for web apps, so `state`
 * protects the flow.
 *
 * Callback URL to register: `<origin>/auth/callback/linkedin`. Credentials from
 * `AUTH_LINKEDIN_ID` and `AUTH_LINKEDIN_SECRET`.
 *
 * @example
 * ```ts
 * import LinkedIn from "@tessera/core/providers/linkedin"
 * const config = { providers: [LinkedIn] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a LinkedIn ID token. */
export interface LinkedInProfile {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  locale?: string | { country: string; language: string };
  email?: string;
  email_verified?: boolean;
  [claim: string]: unknown;
}

/**
 * LinkedIn provider.
 *
 * @example
 * ```ts
 * LinkedIn({ clientId: process.env.LINKEDIN_ID, clientSecret: process.env.LINKEDIN_SECRET })
 * ```
 */
export default function LinkedIn<P extends LinkedInProfile = LinkedInProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "linkedin",
    name: "LinkedIn",
    type: "oidc",
    issuer: "https://www.linkedin.com/oauth",
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      };
    },
    style: { brandColor: "#0a66c2" },
    options,
  };
}
