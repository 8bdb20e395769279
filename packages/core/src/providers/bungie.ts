/**
 * Bungie.net sign-in (OAuth 2, for Destiny apps). Bungie's API needs the application's API key
 * in an `X-API-Key` header: pass it as `apiKey` (or set `AUTH_BUNGIE_KEY`). The profile is
 * `GET /Platform/User/GetBungieAccount/<membership id>/254/`, the membership id coming from the
 * token response; the user is named by their Bungie.net display name, with no e-mail.
 * `reauth=true` makes Bungie ask the user to sign in again.
 *
 * Bungie requires an https website URL, and not `localhost` (use `https://127.0.0.1:3000`
 * locally). The application's OAuth client type must be "Confidential".
 *
 * Deliberate difference from Auth.js: the membership id is filled into the profile URL and the
 * API key is sent. Auth.js requests the URL with its `{membershipId}` placeholder and documents
 * a `headers` option its provider configuration does not have, so its Bungie sign-in fails.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent (Bungie grants the scopes
 * set for the application); Auth.js's provider parser adds `openid profile email`.
 *
 * Callback URL to register (the application's redirect URL): `<origin>/auth/callback/bungie`.
 * Credentials from `AUTH_BUNGIE_ID` and `AUTH_BUNGIE_SECRET`.
 *
 * @example
 * ```ts
 * import Bungie from "@tessera/core/providers/bungie"
 * const config = { providers: [Bungie({ apiKey: process.env.BUNGIE_API_KEY })] }
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import { bearer, providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The account of `GetBungieAccount`, in Bungie's response envelope. */
export interface BungieProfile {
  Response: {
    bungieNetUser: {
      membershipId: string;
      uniqueName?: string;
      displayName: string;
      profilePicturePath: string;
      [field: string]: unknown;
    };
    destinyMemberships?: unknown[];
    [field: string]: unknown;
  };
  ErrorCode?: number;
  ErrorStatus?: string;
  [field: string]: unknown;
}

/** Options of {@link Bungie}: provider overrides plus the API key. */
export interface BungieOptions<P extends BungieProfile = BungieProfile> extends OAuthUserConfig<P> {
  /** The application's API key, sent as `X-API-Key`. Default: `AUTH_BUNGIE_KEY`. */
  apiKey?: string;
}

const PROFILE_URL = "https://www.bungie.net/platform/User/GetBungieAccount/{membershipId}/254/";

/**
 * Bungie provider.
 *
 * @example
 * ```ts
 * Bungie({ apiKey: process.env.BUNGIE_API_KEY, authorization: { params: { reauth: "false" } } })
 * ```
 */
export default function Bungie<P extends BungieProfile = BungieProfile>(
  options: BungieOptions<P> = {},
): OAuthConfig<P> {
  const { apiKey = processEnv().AUTH_BUNGIE_KEY, ...rest } = options;
  return {
    id: "bungie",
    name: "Bungie",
    type: "oauth",
    authorization: "https://www.bungie.net/en/OAuth/Authorize?reauth=true",
    token: "https://www.bungie.net/platform/app/oauth/token/",
    userinfo: {
      url: PROFILE_URL,
      async request({ tokens, provider }) {
        const template = decodeURI(provider.userinfo?.url?.href ?? PROFILE_URL);
        const url = template.replace(
          "{membershipId}",
          encodeURIComponent(String(tokens.membership_id)),
        );
        const headers = { ...bearer(tokens.access_token), ...(apiKey && { "x-api-key": apiKey }) };
        return (await providerJson(provider, url, { headers })) as Record<string, unknown>;
      },
    },
    profile(profile) {
      const user = profile.Response.bungieNetUser;
      const path = user.profilePicturePath;
      return {
        id: user.membershipId,
        name: user.displayName,
        email: null,
        image: `https://www.bungie.net${path.startsWith("/") ? "" : "/"}${path}`,
      };
    },
    style: { brandColor: "#0d1f3c" },
    options: rest,
  };
}
