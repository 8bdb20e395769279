/**
 * Battle.net sign-in (Blizzard, OpenID Connect). `issuer` names the region (or
 * `AUTH_BATTLENET_ISSUER`): `https://oauth.battle.net` (global), `https://us.battle.net/oauth`,
 * `https://eu.battle.net/oauth`, `https://kr.battle.net/oauth`, `https://tw.battle.net/oauth`,
 * `https://oauth.battlenet.com.cn` or `https://www.battlenet.com.cn/oauth` (China). Battle.net
 * gives no e-mail: the user is named by their BattleTag.
 *
 * Callback URL to register (the client's redirect URLs): `<origin>/auth/callback/battlenet`.
 * Credentials from `AUTH_BATTLENET_ID` and `AUTH_BATTLENET_SECRET`.
 *
 * @example
 * ```ts
 * import BattleNet from "@tessera/core/providers/battlenet"
 * const config = { providers: [BattleNet({ issuer: "https://oauth.battle.net" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Battle.net ID token. */
export interface BattleNetProfile {
  sub: string;
  battle_tag: string;
  [claim: string]: unknown;
}

/** The regional issuers of Battle.net, for `issuer`. */
export type BattleNetIssuer =
  | "https://oauth.battle.net"
  | "https://oauth.battlenet.com.cn"
  | "https://www.battlenet.com.cn/oauth"
  | `https://${"us" | "eu" | "kr" | "tw"}.battle.net/oauth`;

/**
 * Battle.net provider.
 *
 * @example
 * ```ts
 * BattleNet({ issuer: "https://eu.battle.net/oauth", authorization: { params: { scope: "openid wow.profile" } } })
 * ```
 */
export default function BattleNet<P extends BattleNetProfile = BattleNetProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "battlenet",
    name: "Battle.net",
    type: "oidc",
    profile(profile) {
      return { id: profile.sub, name: profile.battle_tag, email: null, image: null };
    },
    style: { brandColor: "#148eff" },
    options,
  };
}
