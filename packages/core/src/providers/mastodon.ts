/**
 * Mastodon sign-in (OAuth 2), against one Mastodon server: `issuer` is the server's URL, e.g.
 * `https://mastodon.social` (or `AUTH_MASTODON_ISSUER`), since every server of the fediverse is
 * its own authorization server and its apps are registered per server. The scope `read` is
 * asked for. The profile is the account of
 * `GET <issuer>/api/v1/accounts/verify_credentials`: named by its `username` (local to the
 * server), with the static avatar as image and no e-mail (Mastodon shares none).
 *
 * Register the application on the server (Preferences > Development > New application, or
 * `POST /api/v1/apps`) with the `read` scope.
 *
 * Callback URL to register (the application's redirect URI): `<origin>/auth/callback/mastodon`.
 * Credentials from `AUTH_MASTODON_ID` (the client key) and `AUTH_MASTODON_SECRET`.
 *
 * @example
 * ```ts
 * import Mastodon from "@tessera/core/providers/mastodon"
 * const config = { providers: [Mastodon({ issuer: "https://mastodon.social" })] }
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The account of `GET /api/v1/accounts/verify_credentials`. */
export interface MastodonProfile {
  id: string;
  username: string;
  acct: string;
  display_name: string;
  locked: boolean;
  bot: boolean;
  created_at: string;
  note: string;
  url: string;
  avatar: string;
  avatar_static: string;
  header: string;
  header_static: string;
  followers_count: number;
  following_count: number;
  statuses_count: number;
  last_status_at: string | null;
  [field: string]: unknown;
}

/**
 * Mastodon provider. Without an issuer (option or `AUTH_MASTODON_ISSUER`) the configuration is
 * refused with an error naming it.
 *
 * @example
 * ```ts
 * Mastodon({ issuer: "https://fosstodon.org", authorization: { params: { scope: "profile" } } })
 * ```
 */
export default function Mastodon<P extends MastodonProfile = MastodonProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  // The endpoints follow from the server's URL, so it is needed here (options, then env).
  const issuer = (options.issuer ?? processEnv().AUTH_MASTODON_ISSUER)?.replace(/\/+$/, "");
  return {
    id: "mastodon",
    name: "Mastodon",
    type: "oauth",
    authorization: issuer ? `${issuer}/oauth/authorize?scope=read` : { params: { scope: "read" } },
    ...(issuer && {
      token: `${issuer}/oauth/token`,
      userinfo: `${issuer}/api/v1/accounts/verify_credentials`,
    }),
    profile(profile) {
      return {
        id: profile.id,
        name: profile.username,
        email: null,
        image: profile.avatar_static,
      };
    },
    style: { brandColor: "#6364ff" },
    options,
  };
}
