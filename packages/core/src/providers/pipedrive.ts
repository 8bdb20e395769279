/**
 * Pipedrive sign-in (Pipedrive Marketplace app OAuth 2). The code is exchanged with HTTP Basic
 * client authentication (the default `client_secret_basic`), which Pipedrive requires. The
 * profile is `GET https://api.pipedrive.com/users/me`, whose user sits under `data`: identified
 * by the Pipedrive user id, with the `name`, `email` and `icon_url`. An access token belongs to
 * one user in one company; the profile's `company_id` tells which.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent. Pipedrive grants the scopes
 * set in the app's settings in Developer Hub; Auth.js's provider parser adds
 * `openid profile email`.
 *
 * Callback URL to register (the app's callback URL in Pipedrive's Developer Hub):
 * `<origin>/auth/callback/pipedrive`. Credentials from `AUTH_PIPEDRIVE_ID` and
 * `AUTH_PIPEDRIVE_SECRET`.
 *
 * @example
 * ```ts
 * import Pipedrive from "@tessera/core/providers/pipedrive"
 * const config = { providers: [Pipedrive] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.pipedrive.com/users/me`. */
export interface PipedriveProfile {
  success: boolean;
  data: {
    id: number;
    name: string;
    default_currency?: string;
    locale?: string;
    lang?: number;
    email: string;
    phone?: string | null;
    activated?: boolean;
    last_login?: string;
    created?: string;
    modified?: string;
    has_created_company?: boolean;
    is_admin?: number;
    active_flag?: boolean;
    timezone_name?: string;
    timezone_offset?: string;
    role_id?: number;
    icon_url?: string | null;
    is_you?: boolean;
    company_id?: number;
    company_name?: string;
    company_domain?: string;
    company_country?: string;
    company_industry?: string;
    language?: { language_code?: string; country_code?: string };
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/**
 * Pipedrive provider.
 *
 * @example
 * ```ts
 * Pipedrive({ clientId: process.env.PIPEDRIVE_CLIENT_ID, clientSecret: process.env.PIPEDRIVE_CLIENT_SECRET })
 * ```
 */
export default function Pipedrive<P extends PipedriveProfile = PipedriveProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "pipedrive",
    name: "Pipedrive",
    type: "oauth",
    authorization: "https://oauth.pipedrive.com/oauth/authorize",
    token: "https://oauth.pipedrive.com/oauth/token",
    userinfo: "https://api.pipedrive.com/users/me",
    profile({ data }) {
      return {
        id: String(data.id),
        name: data.name,
        email: data.email,
        image: data.icon_url,
      };
    },
    style: { brandColor: "#017737" },
    options,
  };
}
