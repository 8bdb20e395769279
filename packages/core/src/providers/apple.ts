/**
 * Sign in with Apple (OpenID Connect). Apple answers with a `form_post` (a cross-site POST, so the
 * check cookies are `SameSite=None; Secure` and the site must run on https, `localhost` aside),
 * and sends the user's name only once, on first consent, in the `user` parameter.
 *
 * The client secret is a JWT you sign with your Apple key (ES256, at most 6 months valid).
 * Callback URL to register: `<origin>/auth/callback/apple`. Credentials from `AUTH_APPLE_ID`
 * (the Services ID) and `AUTH_APPLE_SECRET`.
 *
 * @example
 * ```ts
 * import Apple from "@tessera/core/providers/apple"
 * const config = { providers: [Apple] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of an Apple ID token, plus the `user` parameter Apple posts on first consent. */
export interface AppleProfile {
  iss: "https://appleid.apple.com";
  aud: string;
  sub: string;
  email?: string;
  /** A boolean, or the strings "true"/"false" in some tokens. */
  email_verified?: boolean | "true" | "false";
  is_private_email?: boolean | "true" | "false";
  real_user_status?: 0 | 1 | 2;
  nonce?: string;
  nonce_supported?: boolean;
  iat: number;
  exp: number;
  user?: { name?: { firstName?: string; lastName?: string }; email?: string };
  [claim: string]: unknown;
}

/**
 * Apple provider.
 *
 * @example
 * ```ts
 * Apple({ clientId: "com.example.web", clientSecret: signedClientSecretJwt })
 * ```
 */
export default function Apple<P extends AppleProfile = AppleProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "apple",
    name: "Apple",
    type: "oidc",
    issuer: "https://appleid.apple.com",
    authorization: { params: { scope: "name email", response_mode: "form_post" } },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["nonce", "state"],
    profileCallbackParams: ["user"],
    profile(profile) {
      const { firstName, lastName } = profile.user?.name ?? {};
      const name = [firstName, lastName].filter(Boolean).join(" ");
      return {
        id: profile.sub,
        // As Auth.js: the e-mail stands in for the name Apple sends only once.
        name: name || (profile.email ?? null),
        email: profile.email ?? null,
        image: null,
      };
    },
    style: { brandColor: "#000000" },
    options,
  };
}
