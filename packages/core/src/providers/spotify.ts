/**
 * Spotify sign-in (OAuth 2, Web API).
 *
 * Callback URL to register: `<origin>/auth/callback/spotify` (Spotify accepts
 * `http://127.0.0.1` but not `localhost` for development). Credentials from `AUTH_SPOTIFY_ID`
 * and `AUTH_SPOTIFY_SECRET`.
 *
 * @example
 * ```ts
 * import Spotify from "@tessera/core/providers/spotify"
 * const config = { providers: [Spotify] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET /v1/me`. */
export interface SpotifyProfile {
  id: string;
  display_name: string | null;
  email?: string;
  country?: string;
  product?: string;
  uri?: string;
  images?: { url: string; height: number | null; width: number | null }[];
  [field: string]: unknown;
}

/**
 * Spotify provider.
 *
 * @example
 * ```ts
 * Spotify({ authorization: { params: { scope: "user-read-email user-top-read" } } })
 * ```
 */
export default function Spotify<P extends SpotifyProfile = SpotifyProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "spotify",
    name: "Spotify",
    type: "oauth",
    authorization: "https://accounts.spotify.com/authorize?scope=user-read-email",
    token: "https://accounts.spotify.com/api/token",
    userinfo: "https://api.spotify.com/v1/me",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.display_name ?? null,
        email: profile.email ?? null,
        image: profile.images?.[0]?.url ?? null,
      };
    },
    style: { brandColor: "#1DB954" },
    options,
  };
}
