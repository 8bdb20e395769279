/**
 * EVE Online sign-in (EVE SSO v2, OAuth 2). The scope `publicData` is asked for and the flow is
 * protected by `state` (EVE SSO requires it). The character comes from
 * `GET https://login.eveonline.com/oauth/verify`: the user is the character, named by
 * `CharacterName`, with the character's portrait as image and no e-mail (EVE SSO has none). The
 * character id is kept as the account id.
 *
 * Create the application on the EVE developers site with the connection type "Authentication
 * Only" (or with the scopes your app needs).
 *
 * Callback URL to register (the application's callback URL): `<origin>/auth/callback/eveonline`.
 * Credentials from `AUTH_EVEONLINE_ID` and `AUTH_EVEONLINE_SECRET`.
 *
 * @example
 * ```ts
 * import EVEOnline from "@tessera/core/providers/eveonline"
 * const config = { providers: [EVEOnline] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://login.eveonline.com/oauth/verify`. */
export interface EVEOnlineProfile {
  CharacterID: number;
  CharacterName: string;
  ExpiresOn: string;
  Scopes: string;
  TokenType: string;
  CharacterOwnerHash: string;
  IntellectualProperty: string;
  [field: string]: unknown;
}

/**
 * EVE Online provider.
 *
 * @example
 * ```ts
 * EVEOnline({ authorization: { params: { scope: "publicData esi-skills.read_skills.v1" } } })
 * ```
 */
export default function EVEOnline<P extends EVEOnlineProfile = EVEOnlineProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "eveonline",
    name: "EVE Online",
    type: "oauth",
    authorization: "https://login.eveonline.com/v2/oauth/authorize?scope=publicData",
    token: "https://login.eveonline.com/v2/oauth/token",
    userinfo: "https://login.eveonline.com/oauth/verify",
    checks: ["state"],
    profile(profile) {
      return {
        id: String(profile.CharacterID),
        name: profile.CharacterName,
        email: null,
        image: `https://image.eveonline.com/Character/${profile.CharacterID}_128.jpg`,
      };
    },
    style: { brandColor: "#000000" },
    options,
  };
}
