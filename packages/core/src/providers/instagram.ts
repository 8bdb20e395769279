/**
 * Instagram sign-in (Instagram API with Instagram Login, OAuth 2), for Instagram professional
 * (business and creator) accounts. The permission `instagram_business_basic` is asked for on
 * `https://www.instagram.com/oauth/authorize`, and the code is exchanged with the app id and
 * secret in the request body (`client_secret_post`). The profile is
 * `GET https://graph.instagram.com/me?fields=id,username,account_type,name`; the user is named
 * by username. Instagram shares no e-mail address, and no image is taken.
 *
 * Instagram's token response is `{ access_token, user_id, permissions }`, possibly wrapped in a
 * `data` list, without a `token_type`: it is unwrapped and taken as the bearer token it is. The
 * short-lived token lasts an hour; exchange it for a long-lived one in the `signIn` or `jwt`
 * callback if the app calls Instagram's API later.
 *
 * Deliberate difference from Auth.js: the authorization request goes to
 * `www.instagram.com/oauth/authorize` with `instagram_business_basic`. Auth.js asks for
 * `user_profile` of the Instagram Basic Display API, which Meta shut down on 4 December 2024;
 * Auth.js also refuses Instagram's token response, which has no `token_type`.
 *
 * Callback URL to register (the app's OAuth redirect URIs under Instagram > API setup with
 * Instagram login > Business login settings): `<origin>/auth/callback/instagram`. Credentials
 * from `AUTH_INSTAGRAM_ID` (the Instagram app id) and `AUTH_INSTAGRAM_SECRET`.
 *
 * @example
 * ```ts
 * import Instagram from "@tessera/core/providers/instagram"
 * const config = { providers: [Instagram] }
 * ```
 */
import { bearerTokenResponse, type TokenResponseBody } from "../lib/oauth/token-response.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://graph.instagram.com/me?fields=id,username,account_type,name`. */
export interface InstagramProfile {
  id: string;
  username: string;
  account_type?: "BUSINESS" | "MEDIA_CREATOR" | "PERSONAL" | string;
  name?: string;
  [field: string]: unknown;
}

/** The token fields of Instagram's answer, taken out of its `data` list when it has one. */
function unwrapData(body: TokenResponseBody): TokenResponseBody {
  const [first] = Array.isArray(body.data) ? body.data : [];
  return first !== null && typeof first === "object" && typeof body.access_token !== "string"
    ? (first as TokenResponseBody)
    : body;
}

/**
 * Instagram provider.
 *
 * @example
 * ```ts
 * Instagram({ authorization: { params: { scope: "instagram_business_basic,instagram_business_manage_comments" } } })
 * ```
 */
export default function Instagram<P extends InstagramProfile = InstagramProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "instagram",
    name: "Instagram",
    type: "oauth",
    authorization: "https://www.instagram.com/oauth/authorize?scope=instagram_business_basic",
    token: {
      url: "https://api.instagram.com/oauth/access_token",
      conform: bearerTokenResponse(unwrapData),
    },
    userinfo: "https://graph.instagram.com/me?fields=id,username,account_type,name",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return { id: profile.id, name: profile.username, email: null, image: null };
    },
    style: { brandColor: "#e1306c" },
    options,
  };
}
