/**
 * Provider types. A provider is an object (or a function returning one) describing how users sign
 * in: OAuth 2 / OIDC, e-mail magic link, credentials, or WebAuthn.
 *
 * @example
 * ```ts
 * import type { OAuthConfig } from "@tessera/core/providers"
 * export default function Acme(options: OAuthUserConfig<AcmeProfile>): OAuthConfig<AcmeProfile> {
 *   return { id: "acme", name: "Acme", type: "oidc", issuer: "https://id.acme.test", options }
 * }
 * ```
 */

export type {
  AccountCallback,
  Adapter,
  AnyAccount,
  AnyUser,
  AppProvider,
  AppProviders,
  AuthorizationEndpointHandler,
  BuiltInProviders,
  CommonProviderOptions,
  CredentialInput,
  CredentialsConfig,
  CredentialsProviderId,
  EmailConfig,
  EmailProviderId,
  EmailProviderSendVerificationRequestParams,
  EmailProviderType,
  EmailUserConfig,
  EndpointHandler,
  EndpointRequestContext,
  InternalEndpoint,
  InternalOAuthProvider,
  OAuth2Config,
  OAuthChecks,
  OAuthClientOptions,
  OAuthConfig,
  OAuthEndpointType,
  OAuthProviderButtonStyles,
  OAuthProviderId,
  OAuthUserConfig,
  OIDCConfig,
  OIDCConfigInternal,
  OIDCUserConfig,
  ProfileCallback,
  Provider,
  ProviderConfig,
  ProviderId,
  ProviderStyle,
  ProviderType,
  PublicProvider,
  RelayingParty,
  RelayingPartyOptions,
  SendVerificationRequestParams,
  SimpleWebAuthnMethods,
  TokenEndpointHandler,
  UserinfoEndpointHandler,
  WebAuthnConfig,
  WebAuthnUserInfoOptions,
  WebAuthnUserInfoRequest,
} from "../lib/provider-types.js";
