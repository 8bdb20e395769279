/**
 * Logto sign-in (OpenID Connect). `issuer` is the tenant's OIDC issuer, `https://<tenant
 * id>.logto.app/oidc` or `<your Logto URL>/oidc` when self-hosted (or `AUTH_LOGTO_ISSUER`).
 * The scopes `offline_access openid email profile` ask for a refresh token too; a user without a
 * name is named by their `username`.
 *
 * Callback URL to register (the application's redirect URIs): `<origin>/auth/callback/logto`.
 * Credentials from `AUTH_LOGTO_ID` and `AUTH_LOGTO_SECRET`.
 *
 * @example
 * ```ts
 * import Logto from "@tessera/core/providers/logto"
 * const config = { providers: [Logto({ issuer: "https://abc123.logto.app/oidc" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Logto ID token. */
export interface LogtoProfile {
  sub: string;
  name?: string | null;
  username?: string | null;
  picture?: string | null;
  email?: string | null;
  email_verified?: boolean;
  phone_number?: string | null;
  phone_number_verified?: boolean;
  roles?: string[];
  organizations?: string[];
  [claim: string]: unknown;
}

/**
 * Logto provider.
 *
 * @example
 * ```ts
 * Logto({ authorization: { params: { scope: "openid offline_access profile email roles" } } })
 * ```
 */
export default function Logto<P extends LogtoProfile = LogtoProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "logto",
    name: "Logto",
    type: "oidc",
    authorization: { params: { scope: "offline_access openid email profile" } },
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      };
    },
    style: { brandColor: "#5d34f2" },
    options,
  };
}
