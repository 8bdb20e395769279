/**
 * Frontegg sign-in (OpenID Connect). `issuer` is your environment's domain,
 * `https://<subdomain>.frontegg.com` (or `AUTH_FRONTEGG_ISSUER`; Environments → Env settings →
 * Domains). The endpoints are set from it: `/oauth/authorize`, `/oauth/token`, and the
 * discovery document (for the signing keys) at `/oauth/.well-known/openid-configuration`.
 *
 * Callback URL to register (Env settings → Authentication → Allowed redirect URLs):
 * `<origin>/auth/callback/frontegg`. Credentials from `AUTH_FRONTEGG_ID` and
 * `AUTH_FRONTEGG_SECRET`.
 *
 * @example
 * ```ts
 * import Frontegg from "@tessera/core/providers/frontegg"
 * const config = { providers: [Frontegg({ issuer: "https://acme.frontegg.com" })] }
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Frontegg ID token. */
export interface FronteggProfile {
  sub: string;
  name: string;
  email: string;
  email_verified?: boolean;
  profilePictureUrl?: string;
  roles?: string[];
  tenantId?: string;
  [claim: string]: unknown;
}

/**
 * Frontegg provider.
 *
 * @example
 * ```ts
 * Frontegg({ issuer: process.env.FRONTEGG_DOMAIN })
 * ```
 */
export default function Frontegg<P extends FronteggProfile = FronteggProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  // The endpoints follow from the issuer, so it is needed here (options, then env).
  const issuer = (options.issuer ?? processEnv().AUTH_FRONTEGG_ISSUER)?.replace(/\/+$/, "");
  return {
    id: "frontegg",
    name: "Frontegg",
    type: "oidc",
    ...(issuer && {
      issuer,
      wellKnown: `${issuer}/oauth/.well-known/openid-configuration`,
      authorization: `${issuer}/oauth/authorize`,
      token: `${issuer}/oauth/token`,
      userinfo: `${issuer}/identity/resources/users/v2/me`,
    }),
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#5a3fff" },
    options,
  };
}
