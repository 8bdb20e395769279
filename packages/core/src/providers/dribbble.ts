/**
 * Dribbble sign-in (OAuth 2, API v2). The `scope` option chooses the scopes: `public`
 * (default) or `public upload`. The profile is `GET https://api.dribbble.com/v2/user`.
 *
 * Deliberate difference from Auth.js: without a `scope` option the scope `public` is sent, the
 * default Auth.js documents; Auth.js itself then sends the text `undefined` as the scope.
 *
 * Callback URL to register (the application's callback URL): `<origin>/auth/callback/dribbble`.
 * Credentials from `AUTH_DRIBBBLE_ID` and `AUTH_DRIBBBLE_SECRET`.
 *
 * @example
 * ```ts
 * import Dribbble from "@tessera/core/providers/dribbble"
 * const config = { providers: [Dribbble({ scope: "public upload" })] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The user of `GET https://api.dribbble.com/v2/user`. */
export interface DribbbleProfile {
  id: number;
  name: string;
  login?: string;
  email?: string;
  avatar_url: string;
  bio?: string;
  html_url?: string;
  [field: string]: unknown;
}

/** Options of {@link Dribbble}: provider overrides plus the scopes. */
export interface DribbbleOptions<P extends DribbbleProfile = DribbbleProfile>
  extends OAuthUserConfig<P> {
  /** `public` (default) to sign in, `public upload` to post shots too. */
  scope?: "public" | "public upload";
}

/**
 * Dribbble provider.
 *
 * @example
 * ```ts
 * Dribbble({ scope: "public" })
 * ```
 */
export default function Dribbble<P extends DribbbleProfile = DribbbleProfile>(
  options: DribbbleOptions<P> = {},
): OAuthConfig<P> {
  const { scope = "public", ...rest } = options;
  return {
    id: "dribbble",
    name: "Dribbble",
    type: "oauth",
    authorization: { url: "https://dribbble.com/oauth/authorize", params: { scope } },
    token: "https://dribbble.com/oauth/token",
    userinfo: "https://api.dribbble.com/v2/user",
    profile(profile) {
      return {
        id: String(profile.id),
        name: profile.name,
        email: profile.email ?? null,
        image: profile.avatar_url,
      };
    },
    style: { brandColor: "#ea4c89" },
    options: rest,
  };
}
