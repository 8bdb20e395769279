/**
 * Coinbase sign-in (Coinbase App OAuth 2). The scopes `wallet:user:email wallet:user:read`
 * are asked for; the profile is `GET https://api.coinbase.com/v2/user`, wrapped in `data`.
 *
 * Callback URL to register (the OAuth application's redirect URIs):
 * `<origin>/auth/callback/coinbase`. Credentials from `AUTH_COINBASE_ID` and
 * `AUTH_COINBASE_SECRET`.
 *
 * @example
 * ```ts
 * import Coinbase from "@tessera/core/providers/coinbase"
 * const config = { providers: [Coinbase] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.coinbase.com/v2/user`. */
export interface CoinbaseProfile {
  data: {
    id: string;
    name: string;
    username?: string | null;
    profile_location?: string | null;
    profile_bio?: string | null;
    profile_url?: string | null;
    avatar_url: string;
    resource?: "user";
    resource_path?: string;
    email: string;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/**
 * Coinbase provider.
 *
 * @example
 * ```ts
 * Coinbase({ authorization: { params: { scope: "wallet:user:email wallet:accounts:read" } } })
 * ```
 */
export default function Coinbase<P extends CoinbaseProfile = CoinbaseProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "coinbase",
    name: "Coinbase",
    type: "oauth",
    authorization:
      "https://login.coinbase.com/oauth2/auth?scope=wallet:user:email+wallet:user:read",
    token: "https://login.coinbase.com/oauth2/token",
    userinfo: "https://api.coinbase.com/v2/user",
    profile(profile) {
      return {
        id: profile.data.id,
        name: profile.data.name,
        email: profile.data.email,
        image: profile.data.avatar_url,
      };
    },
    style: { brandColor: "#0052ff" },
    options,
  };
}
