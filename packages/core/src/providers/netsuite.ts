/**
 * NetSuite sign-in (OAuth 2.0 of a NetSuite account). `accountID` is required: the account's id,
 * e.g. `TSTDRV1234567`, `81555` (production) or `1234567-SB1` (sandbox), which names the
 * account-specific hosts of the endpoints (`<account>.app.netsuite.com` for the authorization,
 * `<account>.suitetalk.api.netsuite.com` for the token). The scopes `restlets rest_webservices`
 * are asked for and only the `state` check is used.
 *
 * NetSuite has no profile endpoint: `userinfo` is required too, the external URL of a RESTlet
 * (or Suitelet) that answers the current user, e.g. `runtime.getCurrentUser()`'s `id`, `name`,
 * `email`, `role` and `location` as JSON. The user is identified by the NetSuite user's `id`.
 *
 * In the account, enable the OAuth 2.0 feature and create an integration record with the
 * "Authorization Code Grant" flow, the scopes above and the callback URL below as its redirect
 * URI (NetSuite requires https); the record gives the client id and secret.
 *
 * Deliberate difference from Auth.js: the `prompt` and `scope` options are sent with the
 * authorization request (Auth.js documents them and never sends them), and a sandbox account id
 * given with `_` (`1234567_SB1`) is written with `-` in the hosts, as NetSuite's domains are.
 *
 * Callback URL to register (the integration record's Redirect URI):
 * `<origin>/auth/callback/netsuite`. Credentials from `AUTH_NETSUITE_ID` and
 * `AUTH_NETSUITE_SECRET`.
 *
 * @example
 * ```ts
 * import NetSuite from "@tessera/core/providers/netsuite"
 * const config = {
 *   providers: [
 *     NetSuite({
 *       accountID: "TSTDRV1234567",
 *       userinfo: "https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1",
 *     }),
 *   ],
 * }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** What the `userinfo` RESTlet answers: the fields of `runtime.getCurrentUser()`. */
export interface NetSuiteProfile {
  id: number;
  name: string;
  email: string;
  location: number;
  role: number;
  roleId?: string;
  roleCenter?: string;
  contact?: number;
  subsidiary?: number;
  department?: number;
  [field: string]: unknown;
}

/** Options of {@link NetSuite}: provider overrides plus the account. */
export interface NetSuiteOptions<P extends NetSuiteProfile = NetSuiteProfile>
  extends OAuthUserConfig<P> {
  /** The account id, e.g. `TSTDRV1234567`, `81555` or `1234567-SB1`. Required. */
  accountID?: string;
  /**
   * When NetSuite shows its login and consent screens: `none`, `login`, `consent`, or
   * `login consent`. Sent as the authorization request's `prompt`.
   */
  prompt?: string;
  /** The scopes to ask for. Default `restlets rest_webservices`. */
  scope?: string;
}

/** Auth.js's name for the NetSuite options. */
export type OAuthNetSuiteOptions<P extends NetSuiteProfile = NetSuiteProfile> = NetSuiteOptions<P>;

/** The host label of an account id: NetSuite's domains write `_` as `-`, in lower case. */
function accountHost(accountID: string): string {
  const label = accountID.trim().replace(/_/g, "-").toLowerCase();
  // Host injection: the id becomes part of a URL's host, so only a plain label is accepted.
  if (!/^[a-z0-9-]+$/.test(label))
    throw new TypeError(
      `NetSuite: accountID ${JSON.stringify(accountID)} is not a NetSuite account id (letters, digits, "-" and "_" only).`,
    );
  return label;
}

/**
 * NetSuite provider. Without `accountID` it has no endpoints, which the configuration check
 * reports.
 *
 * @example
 * ```ts
 * NetSuite({
 *   accountID: process.env.NETSUITE_ACCOUNT_ID,
 *   userinfo: process.env.NETSUITE_USER_RESTLET,
 *   prompt: "login",
 * })
 * ```
 */
export default function NetSuite<P extends NetSuiteProfile = NetSuiteProfile>(
  options: NetSuiteOptions<P> = {},
): OAuthConfig<P> {
  const { accountID, prompt, scope, ...rest } = options;
  const account = accountID ? accountHost(accountID) : undefined;
  return {
    id: "netsuite",
    name: "NetSuite",
    type: "oauth",
    checks: ["state"],
    authorization: {
      ...(account && { url: `https://${account}.app.netsuite.com/app/login/oauth2/authorize.nl` }),
      params: { scope: scope ?? "restlets rest_webservices", ...(prompt && { prompt }) },
    },
    ...(account && {
      token: `https://${account}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token`,
    }),
    profile(profile) {
      return { id: String(profile.id), name: profile.name, email: profile.email, image: null };
    },
    style: { brandColor: "#181a1b" },
    options: rest,
  };
}
