/**
 * Dropbox sign-in (OAuth 2). The scope `account_info.read` is asked for, with
 * `token_access_type=offline` for a refresh token. The profile comes from Dropbox's RPC
 * endpoint `users/get_current_account`, which must be called with POST and no body.
 *
 * Callback URL to register (the app's redirect URIs in the App Console):
 * `<origin>/auth/callback/dropbox`. Credentials from `AUTH_DROPBOX_ID` (the app key) and
 * `AUTH_DROPBOX_SECRET` (the app secret).
 *
 * @example
 * ```ts
 * import Dropbox from "@tessera/core/providers/dropbox"
 * const config = { providers: [Dropbox] }
 * ```
 */
import { bearer, providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `POST https://api.dropboxapi.com/2/users/get_current_account`. */
export interface DropboxProfile {
  account_id: string;
  name: {
    given_name: string;
    surname: string;
    familiar_name: string;
    display_name: string;
    abbreviated_name: string;
  };
  email: string;
  email_verified: boolean;
  profile_photo_url?: string;
  disabled?: boolean;
  country?: string;
  locale?: string;
  [field: string]: unknown;
}

const ACCOUNT_URL = "https://api.dropboxapi.com/2/users/get_current_account";

/**
 * Dropbox provider.
 *
 * @example
 * ```ts
 * Dropbox({ authorization: { params: { scope: "account_info.read files.metadata.read" } } })
 * ```
 */
export default function Dropbox<P extends DropboxProfile = DropboxProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "dropbox",
    name: "Dropbox",
    type: "oauth",
    authorization: {
      url: "https://www.dropbox.com/oauth2/authorize",
      params: { token_access_type: "offline", scope: "account_info.read" },
    },
    token: "https://api.dropboxapi.com/oauth2/token",
    userinfo: {
      url: ACCOUNT_URL,
      async request({ tokens, provider }) {
        const url = provider.userinfo?.url ?? ACCOUNT_URL;
        return (await providerJson(provider, url, {
          method: "POST",
          headers: bearer(tokens.access_token),
        })) as Record<string, unknown>;
      },
    },
    profile(profile) {
      return {
        id: profile.account_id,
        name: profile.name.display_name,
        email: profile.email,
        image: profile.profile_photo_url ?? null,
      };
    },
    style: { brandColor: "#0061fe" },
    options,
  };
}
