/**
 * Facebook sign-in (OAuth 2, Graph API). The profile asks Graph for `id,name,email,picture`.
 *
 * Deliberate difference from Auth.js: every request names Graph API v21.0 (Auth.js mixes v19.0
 * with unversioned URLs, which follow the app's default version), and the client credentials are
 * sent as token request parameters, as Facebook documents.
 *
 * Callback URL to register: `<origin>/auth/callback/facebook`. Credentials from
 * `AUTH_FACEBOOK_ID` and `AUTH_FACEBOOK_SECRET`.
 *
 * @example
 * ```ts
 * import Facebook from "@tessera/core/providers/facebook"
 * const config = { providers: [Facebook] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET /me?fields=id,name,email,picture`. */
export interface FacebookProfile {
  id: string;
  name?: string;
  email?: string;
  picture?: { data: { url: string; width?: number; height?: number; is_silhouette?: boolean } };
  [field: string]: unknown;
}

const GRAPH_VERSION = "v21.0";

/**
 * Facebook provider.
 *
 * @example
 * ```ts
 * Facebook({ userinfo: "https://graph.facebook.com/me?fields=id,name,email,picture.width(200)" })
 * ```
 */
export default function Facebook<P extends FacebookProfile = FacebookProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "facebook",
    name: "Facebook",
    type: "oauth",
    authorization: {
      url: `https://www.facebook.com/${GRAPH_VERSION}/dialog/oauth`,
      params: { scope: "email" },
    },
    token: `https://graph.facebook.com/${GRAPH_VERSION}/oauth/access_token`,
    userinfo: `https://graph.facebook.com/${GRAPH_VERSION}/me?fields=id,name,email,picture`,
    // Facebook documents the client credentials as request parameters.
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture?.data.url ?? null,
      };
    },
    style: { brandColor: "#1877F2" },
    options,
  };
}
