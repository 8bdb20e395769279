/**
 * Mailchimp sign-in (OAuth 2). Mailchimp has no scopes: the app gets access to the account that
 * signs in. The profile is the token's metadata, `GET https://login.mailchimp.com/oauth2/metadata`
 * (which also names the account's data centre, `dc`, and `api_endpoint` for Marketing API
 * calls): the user is the login (`login.login_id`, `login.email`), named by the account name.
 *
 * Mailchimp's tokens never expire: its token response says `expires_in: 0` and `scope: null`
 * and has no `token_type`. The token is taken as a bearer token without expiry. The metadata is
 * requested with `Authorization: OAuth <token>`, the scheme Mailchimp documents.
 *
 * Deliberate difference from Auth.js: Mailchimp's token response (no `token_type`, a `null`
 * scope, `expires_in: 0`) is read as a bearer token without expiry, where Auth.js's token
 * response check refuses it; the metadata is requested with Mailchimp's `OAuth` scheme rather
 * than `Bearer`.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent (Mailchimp has no scopes);
 * Auth.js's provider parser adds `openid profile email`.
 *
 * Callback URL to register (the app's redirect URI under Account > Extras > Registered apps):
 * `<origin>/auth/callback/mailchimp`. Credentials from `AUTH_MAILCHIMP_ID` and
 * `AUTH_MAILCHIMP_SECRET`.
 *
 * @example
 * ```ts
 * import Mailchimp from "@tessera/core/providers/mailchimp"
 * const config = { providers: [Mailchimp] }
 * ```
 */
import { providerJson } from "../lib/oauth/provider-request.js";
import { bearerTokenResponse } from "../lib/oauth/token-response.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://login.mailchimp.com/oauth2/metadata`. */
export interface MailchimpProfile {
  dc: string;
  role?: string;
  accountname: string;
  user_id?: number;
  login: {
    email: string;
    avatar?: string | null;
    login_id: number | string;
    login_name?: string;
    login_email?: string;
    [field: string]: unknown;
  };
  login_url?: string;
  api_endpoint?: string;
  [field: string]: unknown;
}

const METADATA_URL = "https://login.mailchimp.com/oauth2/metadata";

/**
 * Mailchimp provider.
 *
 * @example
 * ```ts
 * Mailchimp({ clientId: process.env.MAILCHIMP_CLIENT_ID, clientSecret: process.env.MAILCHIMP_SECRET })
 * ```
 */
export default function Mailchimp<P extends MailchimpProfile = MailchimpProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "mailchimp",
    name: "Mailchimp",
    type: "oauth",
    authorization: "https://login.mailchimp.com/oauth2/authorize",
    token: { url: "https://login.mailchimp.com/oauth2/token", conform: bearerTokenResponse() },
    userinfo: {
      url: METADATA_URL,
      async request({ tokens, provider }) {
        const headers = { authorization: `OAuth ${String(tokens.access_token)}` };
        const url = provider.userinfo?.url ?? METADATA_URL;
        return (await providerJson(provider, url, { headers })) as Record<string, unknown>;
      },
    },
    profile(profile) {
      return {
        id: String(profile.login.login_id),
        name: profile.accountname,
        email: profile.login.email,
        image: null,
      };
    },
    style: { brandColor: "#000000" },
    options,
  };
}
