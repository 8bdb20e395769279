/**
 * Duende IdentityServer 6 with next-auth v4's provider id, `duende-identityserver6`: the id is
 * part of the callback URL registered at the server (`/api/auth/callback/duende-identityserver6`),
 * so it must not change with the switch.
 *
 * @example
 * ```ts
 * import DuendeIDS6Provider from "@tessera/next-auth/providers/duende-identity-server6"
 * DuendeIDS6Provider({ clientId: "…", clientSecret: "…", issuer: "https://demo.duendesoftware.com" })
 * ```
 */

import type { OIDCConfig, OIDCUserConfig } from "@tessera/core/providers";
import DuendeIdentityServer6, {
  type DuendeISUser,
} from "@tessera/core/providers/duende-identity-server6";

export type { DuendeISUser };

/** The provider, as next-auth v4's factory names it. */
export default function DuendeIDS6Provider<P extends DuendeISUser = DuendeISUser>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return { ...DuendeIdentityServer6<P>(options), id: "duende-identityserver6" };
}
