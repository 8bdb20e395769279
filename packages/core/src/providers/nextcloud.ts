/**
 * Nextcloud sign-in (the server's OAuth 2 app). `issuer` is the Nextcloud server's URL, e.g.
 * `https://cloud.example.com` (or `AUTH_NEXTCLOUD_ISSUER`); the endpoints are under its
 * `/apps/oauth2/`. The token response names the user (`user_id`), whose profile is read from the
 * OCS provisioning API, `GET <issuer>/ocs/v1.php/cloud/users/<user id>` (with the
 * `OCS-APIRequest: true` header OCS requires), out of its `ocs.data` envelope. The user is named
 * by the `displayname`, with the account's `email` and the server's 512-pixel avatar.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent. Nextcloud's OAuth 2 app has
 * no scopes; Auth.js's provider parser adds `openid profile email`.
 *
 * Deliberate difference from Auth.js: an OCS answer whose status is not "ok" (OCS v1 reports
 * errors with HTTP 200) fails the sign-in with the OCS status code, where Auth.js reads the
 * missing user as a profile; and the user id is percent-encoded where it goes into a URL (the
 * profile request and the avatar), so that an id with `/`, `?` or a space names that user.
 *
 * Callback URL to register (Administration settings → Security → OAuth 2.0 clients, the
 * "Redirection URI"): `<origin>/auth/callback/nextcloud`. Credentials from `AUTH_NEXTCLOUD_ID`
 * and `AUTH_NEXTCLOUD_SECRET`.
 *
 * @example
 * ```ts
 * import Nextcloud from "@tessera/core/providers/nextcloud"
 * const config = { providers: [Nextcloud({ issuer: "https://cloud.example.com" })] }
 * ```
 */
import { OAuthCallbackError } from "../errors.js";
import { processEnv } from "../lib/config/env.js";
import { bearer, providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** A user of the OCS provisioning API (`ocs.data` of `GET /ocs/v1.php/cloud/users/<id>`). */
export interface NextcloudProfile {
  /** The user id (login name), e.g. `frank`. */
  id: string;
  email: string | null;
  displayname: string;
  phone?: string;
  address?: string;
  website?: string;
  twitter?: string;
  fediverse?: string;
  organisation?: string;
  role?: string;
  headline?: string;
  biography?: string;
  groups?: string[];
  language?: string;
  locale?: string;
  enabled?: boolean;
  storageLocation?: string;
  [field: string]: unknown;
}

/** The OCS envelope the provisioning API answers in. */
interface OcsEnvelope {
  ocs?: { meta?: { status?: string; statuscode?: number; message?: string }; data?: unknown };
}

/**
 * Nextcloud provider.
 *
 * @example
 * ```ts
 * Nextcloud({ issuer: process.env.NEXTCLOUD_URL, clientId: process.env.NEXTCLOUD_ID })
 * ```
 */
export default function Nextcloud<P extends NextcloudProfile = NextcloudProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  // The endpoints follow from the issuer, so it is needed here (options, then env).
  const issuer = (options.issuer ?? processEnv().AUTH_NEXTCLOUD_ISSUER)?.replace(/\/+$/, "");
  const usersUrl = `${issuer}/ocs/v1.php/cloud/users`;
  return {
    id: "nextcloud",
    name: "Nextcloud",
    type: "oauth",
    ...(issuer && {
      authorization: `${issuer}/apps/oauth2/authorize`,
      token: `${issuer}/apps/oauth2/api/v1/token`,
      userinfo: {
        url: usersUrl,
        async request({ tokens, provider }) {
          if (typeof tokens.user_id !== "string" || !tokens.user_id)
            throw new OAuthCallbackError(
              'Provider "nextcloud": the token response names no user_id to read the profile of.',
            );
          const base = (provider.userinfo?.url?.href ?? usersUrl).replace(/\/+$/, "");
          const url = `${base}/${encodeURIComponent(tokens.user_id)}`;
          const headers = { ...bearer(tokens.access_token), "ocs-apirequest": "true" };
          const body = (await providerJson(provider, url, { headers })) as OcsEnvelope;
          const data = body?.ocs?.data;
          if (body?.ocs?.meta?.status !== "ok" || data === null || typeof data !== "object")
            throw new OAuthCallbackError(
              `Provider "nextcloud": the OCS API refused the profile (status code ${String(body?.ocs?.meta?.statuscode)}).`,
            );
          return data as Record<string, unknown>;
        },
      },
    }),
    profile(profile) {
      return {
        id: profile.id,
        name: profile.displayname,
        email: profile.email,
        image: `${issuer}/avatar/${encodeURIComponent(profile.id)}/512`,
      };
    },
    style: { brandColor: "#0082c9" },
    options,
  };
}
