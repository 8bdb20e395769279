/**
 * SimpleLogin sign-in (Proton's e-mail alias service, OpenID Connect, issuer
 * `https://app.simplelogin.io`). The e-mail is the address the user chose to share, often an
 * alias; the picture is SimpleLogin's `avatar_url`.
 *
 * Callback URL to register (the website's authorized redirect URIs):
 * `<origin>/auth/callback/simplelogin`. Credentials from `AUTH_SIMPLELOGIN_ID` (the app id) and
 * `AUTH_SIMPLELOGIN_SECRET`.
 *
 * @example
 * ```ts
 * import SimpleLogin from "@tessera/core/providers/simplelogin"
 * const config = { providers: [SimpleLogin] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a SimpleLogin ID token. */
export interface SimpleLoginProfile {
  sub: string;
  name?: string | null;
  email?: string;
  email_verified?: boolean;
  avatar_url?: string | null;
  client?: string;
  [claim: string]: unknown;
}

/**
 * SimpleLogin provider.
 *
 * @example
 * ```ts
 * SimpleLogin({ allowDangerousEmailAccountLinking: false })
 * ```
 */
export default function SimpleLogin<P extends SimpleLoginProfile = SimpleLoginProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "simplelogin",
    name: "SimpleLogin",
    type: "oidc",
    issuer: "https://app.simplelogin.io",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      };
    },
    style: { brandColor: "#e3156a" },
    options,
  };
}
