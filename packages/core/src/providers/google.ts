/**
 * Google sign-in (OpenID Connect, discovered from `https://accounts.google.com`).
 *
 * Callback URL to register: `<origin>/auth/callback/google`. Credentials from `AUTH_GOOGLE_ID`
 * and `AUTH_GOOGLE_SECRET`.
 *
 * @example
 * ```ts
 * import Google from "@tessera/core/providers/google"
 * const config = { providers: [Google({ authorization: { params: { prompt: "consent", access_type: "offline" } } })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Google ID token. */
export interface GoogleProfile {
  iss: string;
  aud: string;
  azp?: string;
  sub: string;
  email: string;
  email_verified: boolean;
  hd?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  locale?: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

/**
 * Google provider.
 *
 * @example
 * ```ts
 * Google({ clientId: process.env.GOOGLE_ID, clientSecret: process.env.GOOGLE_SECRET })
 * ```
 */
export default function Google<P extends GoogleProfile = GoogleProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "google",
    name: "Google",
    type: "oidc",
    issuer: "https://accounts.google.com",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email,
        image: profile.picture ?? null,
      };
    },
    style: { brandColor: "#1a73e8" },
    options,
  };
}
