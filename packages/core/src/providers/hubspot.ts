/**
 * HubSpot sign-in (OAuth 2). The scope `oauth` is asked for and the code is exchanged with the
 * client credentials in the request body (`client_secret_post`). HubSpot has no profile
 * endpoint: the user comes from the access token's metadata,
 * `GET https://api.hubapi.com/oauth/v1/access-tokens/<token>`, which names the user by e-mail
 * (`user`) and id (`user_id`) only, so the user's name is that address and there is no image.
 * The metadata also carries the portal (`hub_id`, `hub_domain`) and the granted scopes.
 *
 * Create an app in a HubSpot developer account and add the scopes your app needs to
 * `authorization.params.scope`.
 *
 * Callback URL to register (the app's redirect URL under Auth): `<origin>/auth/callback/hubspot`.
 * Credentials from `AUTH_HUBSPOT_ID` and `AUTH_HUBSPOT_SECRET`.
 *
 * @example
 * ```ts
 * import HubSpot from "@tessera/core/providers/hubspot"
 * const config = { providers: [HubSpot] }
 * ```
 */
import { providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.hubapi.com/oauth/v1/access-tokens/<token>`. */
export interface HubSpotProfile {
  /** The user's e-mail address. */
  user: string;
  user_id: number | string;
  hub_domain: string;
  hub_id: number | string;
  scopes?: string[];
  [field: string]: unknown;
}

const METADATA_URL = "https://api.hubapi.com/oauth/v1/access-tokens";

/**
 * HubSpot provider.
 *
 * @example
 * ```ts
 * HubSpot({ authorization: { params: { scope: "oauth crm.objects.contacts.read" } } })
 * ```
 */
export default function HubSpot<P extends HubSpotProfile = HubSpotProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "hubspot",
    name: "HubSpot",
    type: "oauth",
    authorization: {
      url: "https://app.hubspot.com/oauth/authorize",
      // client_id is sent with every authorization request; named here as HubSpot's docs do.
      params: { scope: "oauth", ...(options.clientId && { client_id: options.clientId }) },
    },
    token: "https://api.hubapi.com/oauth/v1/token",
    userinfo: {
      url: METADATA_URL,
      async request({ tokens, provider }) {
        const base = (provider.userinfo?.url?.href ?? METADATA_URL).replace(/\/+$/, "");
        const url = `${base}/${encodeURIComponent(String(tokens.access_token))}`;
        return (await providerJson(provider, url)) as Record<string, unknown>;
      },
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: String(profile.user_id),
        name: profile.user,
        email: profile.user,
        image: null,
      };
    },
    style: { brandColor: "#ff7a59" },
    options,
  };
}
