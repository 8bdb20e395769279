/**
 * Figma sign-in (OAuth 2). The scope `files:read` is asked for and only the `state` check is
 * used (Figma's OAuth does not take PKCE). The profile is read from
 * `GET https://api.figma.com/v1/me`; the user's name is the Figma handle.
 *
 * Callback URL to register (the app's callback in Figma's developer settings):
 * `<origin>/auth/callback/figma`. Credentials from `AUTH_FIGMA_ID` and `AUTH_FIGMA_SECRET`.
 *
 * @example
 * ```ts
 * import Figma from "@tessera/core/providers/figma"
 * const config = { providers: [Figma] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.figma.com/v1/me`. */
export interface FigmaProfile {
  id: string;
  email: string;
  handle: string;
  img_url: string;
  [field: string]: unknown;
}

/**
 * Figma provider.
 *
 * @example
 * ```ts
 * Figma({ authorization: { params: { scope: "files:read file_comments:write" } } })
 * ```
 */
export default function Figma<P extends FigmaProfile = FigmaProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "figma",
    name: "Figma",
    type: "oauth",
    authorization: {
      url: "https://www.figma.com/oauth",
      params: { scope: "files:read" },
    },
    checks: ["state"],
    token: "https://api.figma.com/v1/oauth/token",
    userinfo: "https://api.figma.com/v1/me",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.handle,
        email: profile.email,
        image: profile.img_url,
      };
    },
    style: { brandColor: "#ff7237" },
    options,
  };
}
