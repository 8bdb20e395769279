/**
 * FusionAuth sign-in (OpenID Connect). `issuer` is your FusionAuth URL, e.g.
 * `https://auth.example.com` (or `AUTH_FUSIONAUTH_ISSUER`); with several tenants, pass the
 * application's `tenantId` too, which is sent with discovery and the authorization request.
 * The default scopes `openid offline_access email profile` ask for a refresh token. FusionAuth
 * may add a `WWW-Authenticate` header to token responses that are not about client
 * authentication: it is removed from any answer but a 401, so that an error answer is reported
 * as the OAuth error its body names rather than as an authentication challenge. A user without a
 * name is named by `preferred_username`, else by their given, middle and family names.
 *
 * Callback URL to register (the application's authorized redirect URLs):
 * `<origin>/auth/callback/fusionauth`. Credentials from `AUTH_FUSIONAUTH_ID` and
 * `AUTH_FUSIONAUTH_SECRET`.
 *
 * @example
 * ```ts
 * import FusionAuth from "@tessera/core/providers/fusionauth"
 * const config = { providers: [FusionAuth({ issuer: "https://auth.example.com", tenantId: "2b2c…" })] }
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a FusionAuth ID token (and userinfo response). */
export interface FusionAuthProfile {
  sub: string;
  aud: string;
  iss: string;
  applicationId?: string;
  authenticationType?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  middle_name?: string;
  family_name?: string;
  preferred_username?: string;
  picture?: string;
  roles?: string[];
  sid?: string;
  [claim: string]: unknown;
}

/** Options of {@link FusionAuth}: provider overrides plus the tenant. */
export interface FusionAuthOptions<P extends FusionAuthProfile = FusionAuthProfile>
  extends OIDCUserConfig<P> {
  /** The tenant id, needed when the FusionAuth instance has more than one tenant. */
  tenantId?: string;
}

/**
 * FusionAuth provider.
 *
 * @example
 * ```ts
 * FusionAuth({ issuer: "https://auth.example.com", tenantId: process.env.FUSIONAUTH_TENANT_ID })
 * ```
 */
export default function FusionAuth<P extends FusionAuthProfile = FusionAuthProfile>(
  options: FusionAuthOptions<P> = {},
): OIDCConfig<P> {
  const { tenantId, ...rest } = options;
  // The endpoints follow from the issuer, so it is needed here (options, then env).
  const issuer = (options.issuer ?? processEnv().AUTH_FUSIONAUTH_ISSUER)?.replace(/\/+$/, "");
  const tenant = tenantId ? `?tenantId=${encodeURIComponent(tenantId)}` : "";
  return {
    id: "fusionauth",
    name: "FusionAuth",
    type: "oidc",
    ...(issuer && {
      issuer,
      wellKnown: `${issuer}/.well-known/openid-configuration${tenant}`,
      userinfo: `${issuer}/oauth2/userinfo`,
    }),
    authorization: {
      params: { scope: "openid offline_access email profile", ...(tenantId && { tenantId }) },
    },
    token: {
      ...(issuer && { url: `${issuer}/oauth2/token` }),
      conform(response) {
        if (response.status === 401 || !response.headers.has("www-authenticate")) return response;
        const headers = new Headers(response.headers);
        headers.delete("www-authenticate");
        return new Response(response.body, {
          status: response.status,
          statusText: response.statusText,
          headers,
        });
      },
    },
    checks: ["pkce", "state"],
    profile(profile) {
      const fullName = [profile.given_name, profile.middle_name, profile.family_name]
        .filter((part) => part)
        .join(" ");
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? fullName,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      };
    },
    style: { brandColor: "#f58320" },
    options: rest,
  };
}
