/**
 * Box sign-in (OAuth 2). The profile is `GET https://api.box.com/2.0/users/me`; its `login` is
 * the user's e-mail. The scopes are those configured for the Box app.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent. Auth.js's provider parser
 * adds `openid profile email` to an OAuth 2 provider that names no scope, which Box does not
 * define; Box grants the scopes set in the app's configuration.
 *
 * Callback URL to register (the app's redirect URIs in the developer console):
 * `<origin>/auth/callback/box`. Credentials from `AUTH_BOX_ID` and `AUTH_BOX_SECRET`.
 *
 * @example
 * ```ts
 * import Box from "@tessera/core/providers/box"
 * const config = { providers: [Box] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The user of `GET https://api.box.com/2.0/users/me`. */
export interface BoxProfile {
  type: "user";
  id: string;
  name: string;
  login: string;
  avatar_url: string;
  language?: string;
  timezone?: string;
  status?: string;
  [field: string]: unknown;
}

/**
 * Box provider.
 *
 * @example
 * ```ts
 * Box({ authorization: { params: { scope: "root_readonly" } } })
 * ```
 */
export default function Box<P extends BoxProfile = BoxProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "box",
    name: "Box",
    type: "oauth",
    authorization: "https://account.box.com/api/oauth2/authorize",
    token: "https://api.box.com/oauth2/token",
    userinfo: "https://api.box.com/2.0/users/me",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.name,
        email: profile.login,
        image: profile.avatar_url,
      };
    },
    style: { brandColor: "#0075C9" },
    options,
  };
}
