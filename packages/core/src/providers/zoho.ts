/**
 * Zoho sign-in (OAuth 2 of Zoho Accounts). The scope `AaaServer.profile.Read` is asked for; the
 * profile is `GET https://accounts.zoho.com/oauth/user/info`, with the user's `ZUID`,
 * `First_Name`, `Last_Name` and `Email`. Zoho gives no picture there.
 *
 * The endpoints are those of Zoho's US data centre (`accounts.zoho.com`). For an app and users
 * of another data centre, replace the domain in the `authorization`, `token` and `userinfo`
 * options (`accounts.zoho.eu`, `accounts.zoho.in`, `accounts.zoho.com.au`, …).
 *
 * Callback URL to register (the client's "Authorized Redirect URIs" in the Zoho API Console):
 * `<origin>/auth/callback/zoho`. Credentials from `AUTH_ZOHO_ID` and `AUTH_ZOHO_SECRET`.
 *
 * @example
 * ```ts
 * import Zoho from "@tessera/core/providers/zoho"
 * const config = { providers: [Zoho] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://accounts.zoho.com/oauth/user/info`. */
export interface ZohoProfile {
  ZUID: number | string;
  First_Name: string;
  Last_Name: string;
  Display_Name?: string;
  Email: string;
  [field: string]: unknown;
}

/**
 * Zoho provider.
 *
 * @example
 * ```ts
 * Zoho({
 *   authorization: "https://accounts.zoho.eu/oauth/v2/auth?scope=AaaServer.profile.Read",
 *   token: "https://accounts.zoho.eu/oauth/v2/token",
 *   userinfo: "https://accounts.zoho.eu/oauth/user/info",
 * })
 * ```
 */
export default function Zoho<P extends ZohoProfile = ZohoProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "zoho",
    name: "Zoho",
    type: "oauth",
    authorization: "https://accounts.zoho.com/oauth/v2/auth?scope=AaaServer.profile.Read",
    token: "https://accounts.zoho.com/oauth/v2/token",
    userinfo: "https://accounts.zoho.com/oauth/user/info",
    profile(profile) {
      return {
        id: String(profile.ZUID),
        name: `${profile.First_Name} ${profile.Last_Name}`,
        email: profile.Email,
        image: null,
      };
    },
    style: { brandColor: "#E42527" },
    options,
  };
}
