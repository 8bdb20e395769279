/**
 * The types of OAuth 2 and OpenID Connect providers, under the module name Auth.js uses
 * (`@auth/core/providers/oauth`), so that custom providers written against it compile unchanged.
 *
 * @example
 * ```ts
 * import type { OIDCConfig, OIDCUserConfig } from "@tessera/core/providers/oauth"
 * export default function Acme(options: OIDCUserConfig<AcmeProfile>): OIDCConfig<AcmeProfile> {
 *   return { id: "acme", name: "Acme", type: "oidc", issuer: "https://id.acme.test", options }
 * }
 * ```
 */
export type {
  AccountCallback,
  AuthorizationEndpointHandler,
  OAuth2Config,
  OAuthChecks,
  OAuthConfig,
  OAuthEndpointType,
  OAuthProviderButtonStyles,
  OAuthProviderId,
  OAuthUserConfig,
  OIDCConfig,
  OIDCConfigInternal,
  OIDCUserConfig,
  ProfileCallback,
  TokenEndpointHandler,
  UserinfoEndpointHandler,
} from "./index.js";
