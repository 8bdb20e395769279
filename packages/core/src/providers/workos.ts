/**
 * WorkOS sign-in (WorkOS SSO, OAuth 2): one provider in front of the SAML and OIDC connections of
 * your customers' identity providers. A sign-in must say which connection to use, with one of
 * the authorization parameters WorkOS documents:
 *
 * - `connection`: a connection id (`conn_…`), from the `connection` option;
 * - `organization`: an organization id (`org_…`), from the `organization` option;
 * - `domain` or `provider` (`GoogleOAuth`, `MicrosoftOAuth`, …), or either of the above, per
 *   sign-in from `signIn("workos", {}, { organization })` — typically after asking for the
 *   user's e-mail address on a custom sign-in page and looking up its domain.
 *
 * The code is exchanged at `POST /sso/token` with the client credentials as parameters. WorkOS
 * answers it with the access token and the user's profile, which is used as it is (no further
 * request); `GET /sso/profile` is asked only when that answer carries none. The user is named
 * by `first_name` and `last_name`; the image is the identity provider's `picture`, if it sent
 * one.
 *
 * Deliberate difference from Auth.js: the profile that WorkOS returns with the access token is
 * used, and the `token_type` missing from that answer is added. Auth.js refuses a token response
 * without `token_type`, so its WorkOS sign-in fails.
 *
 * Deliberate difference from Auth.js: `connection` and `organization` are sent only when set, and
 * no `scope`. Auth.js always sends `connection` (empty by default) and its parser adds
 * `scope=openid profile email`, which WorkOS SSO does not define; WorkOS picks the connection
 * from whichever of `connection`, `organization`, `provider` or `domain` is given, so none is
 * sent empty.
 *
 * The API is `https://api.workos.com/`; `issuer` (or `AUTH_WORKOS_ISSUER`) moves it, e.g. to a
 * custom authentication domain.
 *
 * Callback URL to register (a "Redirect URI" in the WorkOS dashboard):
 * `<origin>/auth/callback/workos`. Credentials from `AUTH_WORKOS_ID` (the client id,
 * `client_…`) and `AUTH_WORKOS_SECRET` (an API key, `sk_…`).
 *
 * @example
 * ```ts
 * import WorkOS from "@tessera/core/providers/workos"
 * const config = { providers: [WorkOS({ organization: "org_01EHZNVPK3SFK441A1RGBFSHRT" })] }
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import { bearer, providerJson } from "../lib/oauth/provider-request.js";
import { bearerTokenResponse } from "../lib/oauth/token-response.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** A WorkOS SSO profile: `profile` of `POST /sso/token`, or `GET /sso/profile`. */
export interface WorkOSProfile {
  object: string;
  id: string;
  organization_id: string | null;
  connection_id: string;
  connection_type: string;
  idp_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role?: { slug: string };
  groups?: string[];
  custom_attributes?: Record<string, unknown>;
  /** What the identity provider sent (deprecated by WorkOS; absent from newer profiles). */
  raw_attributes?: {
    id?: string;
    email?: string;
    firstName?: string;
    lastName?: string;
    picture?: string;
    [attribute: string]: unknown;
  };
  [field: string]: unknown;
}

/** Options of {@link WorkOS}: provider overrides plus the connection to sign in with. */
export interface WorkOSOptions<P extends WorkOSProfile = WorkOSProfile> extends OAuthUserConfig<P> {
  /** A connection id (`conn_…`) sent as `connection`. */
  connection?: string;
  /** An organization id (`org_…`) sent as `organization`. */
  organization?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * WorkOS provider.
 *
 * @example
 * ```ts
 * WorkOS({ connection: "conn_01E4ZCR3C56J083X43JQXF3JK5" })
 * ```
 */
export default function WorkOS<P extends WorkOSProfile = WorkOSProfile>(
  options: WorkOSOptions<P> = {},
): OAuthConfig<P> {
  const { connection, organization, ...rest } = options;
  const given = options.issuer ?? processEnv().AUTH_WORKOS_ISSUER ?? "https://api.workos.com/";
  const base = given.endsWith("/") ? given : `${given}/`;
  const profileUrl = `${base}sso/profile`;
  return {
    id: "workos",
    name: "WorkOS",
    type: "oauth",
    authorization: {
      url: `${base}sso/authorize`,
      params: {
        ...(connection && { connection }),
        ...(organization && { organization }),
      },
    },
    token: { url: `${base}sso/token`, conform: bearerTokenResponse() },
    client: { token_endpoint_auth_method: "client_secret_post" },
    userinfo: {
      url: profileUrl,
      async request({ tokens, provider }) {
        // WorkOS returns the profile with the access token, over the same TLS connection.
        if (isObject(tokens.profile)) return tokens.profile;
        const url = provider.userinfo?.url ?? profileUrl;
        return (await providerJson(provider, url, {
          headers: bearer(tokens.access_token),
        })) as Record<string, unknown>;
      },
    },
    profile(profile) {
      return {
        id: profile.id,
        name: `${profile.first_name} ${profile.last_name}`,
        email: profile.email,
        image: profile.raw_attributes?.picture ?? null,
      };
    },
    style: { brandColor: "#6363f1" },
    options: rest,
  };
}
