/**
 * Mattermost sign-in (OAuth 2), against one Mattermost server: `issuer` is the server's base URL,
 * e.g. `https://chat.example.com` (or `AUTH_MATTERMOST_ISSUER`). The code is exchanged with the
 * client credentials in the request body (`client_secret_post`). The profile is
 * `GET <issuer>/api/v4/users/me`: the user is named by username (else first and last name), with
 * the account's e-mail and no image.
 *
 * OAuth 2 service provider must be enabled on the server (System Console > Integrations >
 * Integration Management); create the app under `<issuer>/<team>/integrations/oauth2-apps`.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent (Mattermost's OAuth apps have
 * no scopes); Auth.js's provider parser adds `openid profile email`.
 *
 * Callback URL to register (the OAuth app's callback URLs): `<origin>/auth/callback/mattermost`.
 * Credentials from `AUTH_MATTERMOST_ID` and `AUTH_MATTERMOST_SECRET`.
 *
 * @example
 * ```ts
 * import Mattermost from "@tessera/core/providers/mattermost"
 * const config = { providers: [Mattermost({ issuer: "https://chat.example.com" })] }
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The user of `GET /api/v4/users/me`. */
export interface MattermostProfile {
  id: string;
  /** Milliseconds since the epoch. */
  create_at: number;
  update_at: number;
  delete_at: number;
  username: string;
  auth_data?: string;
  auth_service?: string;
  email: string;
  email_verified?: boolean;
  nickname?: string;
  first_name?: string;
  last_name?: string;
  position?: string;
  roles: string;
  locale?: string;
  timezone?: {
    automaticTimezone: string;
    manualTimezone: string;
    useAutomaticTimezone: string;
  };
  [field: string]: unknown;
}

/**
 * Mattermost provider. Without an issuer (option or `AUTH_MATTERMOST_ISSUER`) the configuration
 * is refused with an error naming it.
 *
 * @example
 * ```ts
 * Mattermost({ issuer: process.env.MATTERMOST_URL })
 * ```
 */
export default function Mattermost<P extends MattermostProfile = MattermostProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const { issuer: given, ...rest } = options;
  // The endpoints follow from the server's URL, so it is needed here (options, then env).
  const issuer = (given ?? processEnv().AUTH_MATTERMOST_ISSUER)?.replace(/\/+$/, "");
  return {
    id: "mattermost",
    name: "Mattermost",
    type: "oauth",
    ...(issuer && {
      authorization: `${issuer}/oauth/authorize`,
      token: `${issuer}/oauth/access_token`,
      userinfo: `${issuer}/api/v4/users/me`,
    }),
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.username ?? `${profile.first_name} ${profile.last_name}`,
        email: profile.email,
        image: null,
      };
    },
    style: { brandColor: "#000000" },
    options: rest,
  };
}
