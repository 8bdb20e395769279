/**
 * ClickUp sign-in (OAuth 2). The profile is `GET https://api.clickup.com/api/v2/user`, whose
 * `user` is named by `username`; as with Auth.js, the user gets no e-mail or image, and carries
 * ClickUp's `profilePicture` and `color`. Only `state` protects the flow. ClickUp's token
 * response has no `token_type`; its access token is a bearer token, which is added.
 *
 * Deliberate difference from Auth.js: the missing `token_type` is added, which Auth.js's
 * token response check refuses.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent (ClickUp has no scopes);
 * Auth.js's provider parser adds `openid profile email`.
 *
 * Callback URL to register (the app's redirect URL): `<origin>/auth/callback/click-up`.
 * Credentials from `AUTH_CLICK_UP_ID` and `AUTH_CLICK_UP_SECRET`.
 *
 * @example
 * ```ts
 * import ClickUp from "@tessera/core/providers/click-up"
 * const config = { providers: [ClickUp] }
 * ```
 */
import { bearerTokenResponse } from "../lib/oauth/token-response.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.clickup.com/api/v2/user`. */
export interface ClickUpProfile {
  user: {
    id: number;
    username: string;
    email?: string;
    color: string;
    profilePicture: string | null;
    initials?: string;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/**
 * ClickUp provider.
 *
 * @example
 * ```ts
 * ClickUp({ clientId: process.env.CLICKUP_ID, clientSecret: process.env.CLICKUP_SECRET })
 * ```
 */
export default function ClickUp<P extends ClickUpProfile = ClickUpProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "click-up",
    name: "ClickUp",
    type: "oauth",
    authorization: "https://app.clickup.com/api",
    token: { url: "https://api.clickup.com/api/v2/oauth/token", conform: bearerTokenResponse() },
    userinfo: "https://api.clickup.com/api/v2/user",
    checks: ["state"],
    profile(profile) {
      return {
        id: String(profile.user.id),
        name: profile.user.username,
        profilePicture: profile.user.profilePicture,
        color: profile.user.color,
      };
    },
    style: { brandColor: "#7b68ee" },
    options,
  };
}
