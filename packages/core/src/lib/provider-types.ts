/**
 * The provider types: what a configuration's `providers` hold (OAuth 2 / OIDC, e-mail magic link,
 * credentials, WebAuthn) and what the core makes of an OAuth provider once it is normalised
 * ({@link InternalOAuthProvider}). They live here, inside the core, so that the core's modules
 * never import the public `providers/` entry points; `@tessera/core/providers` re-exports every
 * name.
 */
// oauth4webapi's `CryptoKey` resolves without the DOM library (the global one needs it).
import type { Client, CryptoKey, PrivateKey } from "oauth4webapi";
import type { Adapter, AdapterUser, Awaitable } from "../adapters.js";
import type { VerificationAttemptStore } from "./email/attempts.js";
import type { CoreMessages } from "./i18n/core/en.js";
import type { MessageOverrides } from "./i18n/messages.js";
import type { Account, Profile, ProviderType, Theme, TokenSet, User } from "./identity-types.js";
import type { customFetch } from "./symbols.js";

export type { ProviderType };

/** Fields every provider has. */
export interface CommonProviderOptions {
  /** Unique id; part of URLs such as `/auth/callback/<id>`. */
  id: string;
  /** Shown on the default sign-in button ("Sign in with <name>"). */
  name: string;
  type: ProviderType;
}

// ---------------------------------------------------------------------------------------------
// OAuth 2 / OIDC

/** `none` disables checks; `nonce` is OIDC only. */
export type OAuthChecks = "pkce" | "state" | "none" | "nonce";

type UrlParams = Record<string, unknown>;

/** Context passed to custom endpoint `request` functions. */
export interface EndpointRequestContext<P> {
  provider: InternalOAuthProvider<P>;
  /** The callback parameters (`code`, `state`, …) for the token request; empty for userinfo. */
  params: Record<string, string>;
  checks: { code_verifier?: string; nonce?: string; state?: string };
  /** The token response (for userinfo requests; empty for the token request). */
  tokens: TokenSet;
}

/** An endpoint given as an object: URL, extra parameters, or a custom request function. */
export interface EndpointHandler<
  P extends UrlParams = UrlParams,
  C = EndpointRequestContext<Profile>,
  R = unknown,
> {
  url?: string;
  params?: P;
  request?: (context: C) => Awaitable<R>;
  /** Post-process the raw HTTP response (for non-compliant providers). */
  conform?: (response: Response) => Awaitable<Response | undefined>;
}

/**
 * The authorization endpoint (string URL or handler). Object parameter values (OIDC `claims`) are
 * sent as JSON.
 */
export type AuthorizationEndpointHandler = EndpointHandler<Record<string, unknown>>;
/** The token endpoint; a custom `request` returns `{ tokens }`. */
export interface TokenEndpointHandler
  extends EndpointHandler<UrlParams, EndpointRequestContext<Profile>, { tokens: TokenSet }> {
  /**
   * For `private_key_jwt`: the client's private key, where Auth.js apps configure it. Same as
   * `client.privateKey`, which wins when both are set.
   */
  clientPrivateKey?: PrivateKey | CryptoKey;
}
/** The userinfo endpoint; a custom `request` returns the profile (any JSON object). */
export type UserinfoEndpointHandler = EndpointHandler<
  UrlParams,
  EndpointRequestContext<Profile>,
  Record<string, unknown>
>;

/** Button style on the built-in sign-in page. */
export interface ProviderStyle {
  /** @deprecated use `brandColor` */
  bg?: string;
  /** @deprecated use `brandColor` */
  text?: string;
  brandColor?: string;
  logo?: string;
}

/** The named members of a type, without its index signature. */
type KnownMembers<T> = {
  [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K];
};

/** Client overrides (token endpoint auth method, ID token algorithm, …) plus an optional key. */
export type OAuthClientOptions = Partial<KnownMembers<Client>> & {
  /** Other client metadata (RFC 7591 §2), passed to oauth4webapi as is. */
  [metadata: string]: unknown;
  token_endpoint_auth_method?:
    | "client_secret_basic"
    | "client_secret_post"
    | "none"
    | "private_key_jwt"
    | "client_secret_jwt";
  /** For `private_key_jwt`: the client's private key (with `kid` when the server needs it). */
  privateKey?: PrivateKey | CryptoKey;
};

/** OAuth 2 provider configuration. */
export interface OAuth2Config<P = Profile> extends CommonProviderOptions {
  type: "oauth";
  /** OIDC discovery document URL, when the provider offers one. */
  wellKnown?: string;
  jwks_endpoint?: unknown;
  authorization?: string | AuthorizationEndpointHandler;
  token?: string | TokenEndpointHandler;
  userinfo?: string | UserinfoEndpointHandler;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  client?: OAuthClientOptions;
  /** Default `["pkce"]`. */
  checks?: OAuthChecks[];
  /**
   * `"1.0A"` for an OAuth 1.0a provider ([RFC 5849](https://www.rfc-editor.org/rfc/rfc5849),
   * HMAC-SHA1): the sign-in then gets a request token from `requestTokenUrl`, sends the user to
   * `authorization`, exchanges the verifier at `accessTokenUrl` and reads `profileUrl` with the
   * signed token. Absent (or `"2.0"`) for OAuth 2 and OpenID Connect.
   */
  version?: string;
  /** OAuth 1.0a: the temporary credential request endpoint (RFC 5849 §2.1). */
  requestTokenUrl?: string;
  /** OAuth 1.0a: the token request endpoint (RFC 5849 §2.3). */
  accessTokenUrl?: string;
  /** OAuth 1.0a: the resource read with the token as the user's profile (JSON). */
  profileUrl?: string;
  /** Maps the provider's profile to a user; must return an `id`. */
  profile?: ProfileCallback<P>;
  /** Chooses which token fields are stored on the account. */
  account?: AccountCallback;
  /** Default off. Only safe when the provider verifies e-mail addresses. */
  allowDangerousEmailAccountLinking?: boolean;
  /**
   * Tessera extension: what the provider says of the address in its profile — verified (`true`),
   * not verified (`false`), or nothing (`undefined`). Default: the OpenID Connect `email_verified`
   * claim ([OpenID Connect Core 1.0 §5.1](https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims)).
   * A verified address is stored with `emailVerified` set; an unverified one is kept on a new
   * user (with `emailVerified` null) but never links an account, opens the user to an e-mail
   * sign-in, or counts as verified (see the account-linking guide).
   *
   * @example
   * ```ts
   * // A provider whose profile says `{ email, email_confirmed: boolean }`
   * { id: "acme", type: "oauth", emailVerified: (profile) => profile.email_confirmed === true }
   * ```
   */
  emailVerified?: (profile: P) => boolean | undefined;
  /**
   * Tessera extension, for JWT sessions: keep this account's tokens (access, refresh, expiry) in
   * the encrypted session JWT, so that the session read refreshes an expired access token with
   * the refresh token (RFC 6749 §6) and re-issues the cookie, and `getAccessToken` serves it.
   * Database sessions need no option: their tokens live in the account row. Ask the provider
   * for a refresh token (often the `offline_access` scope or `access_type=offline`).
   *
   * @example
   * ```ts
   * Keycloak({ refresh: true, authorization: { params: { scope: "openid email offline_access" } } })
   * ```
   */
  refresh?: boolean;
  /**
   * Tessera extension, for OpenID Connect providers whose discovery document has an
   * `end_session_endpoint`: signing out of a session created through this provider also signs
   * the user out of the provider (OpenID Connect RP-Initiated Logout 1.0): the browser goes to
   * `end_session_endpoint` with `id_token_hint`, `client_id` and `post_logout_redirect_uri` (the
   * sign-out's callback URL, which must be registered at the provider). The ID token is kept
   * for it: in the session JWT, or in the account row with database sessions — whose rows do not
   * record the provider that created them, so there a user with an account at this provider is
   * signed out of it whichever way they signed in.
   *
   * Back-channel logout (OpenID Connect Back-Channel Logout 1.0) needs no option: register
   * `<origin><basePath>/backchannel-logout/<provider id>` as the client's
   * `backchannel_logout_uri` at the provider.
   *
   * @example
   * ```ts
   * Keycloak({ federatedLogout: true }) // register post_logout_redirect_uris at Keycloak
   * ```
   */
  federatedLogout?: boolean;
  redirectProxyUrl?: string;
  style?: ProviderStyle;
  /**
   * Whether the profile comes from the ID token (default for `oidc`); `false` fetches it from the
   * userinfo endpoint instead (the ID token is still validated).
   */
  idToken?: boolean;
  /**
   * Names of callback parameters to add to the profile (JSON values parsed), for providers that
   * send user data with the redirect — Apple's `user` on first consent. That data is not signed:
   * never derive `id` or `email` from it.
   */
  profileCallbackParams?: string[];
  /** The user's options, applied over the provider's defaults. */
  options?: OAuthUserConfig<P>;
  /** Replaces `fetch` for this provider's HTTP requests (proxies, tests). */
  [customFetch]?: typeof fetch;
}

/** OIDC provider configuration: like OAuth 2, but discovery and ID tokens by default. */
export interface OIDCConfig<P = Profile> extends Omit<OAuth2Config<P>, "type" | "checks"> {
  type: "oidc";
  checks?: OAuthChecks[];
  idToken?: boolean;
}

/** Either OAuth flavour. */
export type OAuthConfig<P = Profile> = OAuth2Config<P> | OIDCConfig<P>;

/** What users pass to a built-in OAuth provider function to override its defaults. */
export type OAuthUserConfig<P = Profile> = Omit<Partial<OAuth2Config<P>>, "options" | "type">;
/** Same, for OIDC providers. */
export type OIDCUserConfig<P = Profile> = Omit<Partial<OIDCConfig<P>>, "options" | "type">;

/**
 * An endpoint after normalisation. `url` is absent when it comes from discovery (`issuer` or
 * `wellKnown`); `params` are strings (objects such as `claims` JSON-encoded).
 */
export interface InternalEndpoint<R = unknown> {
  url?: URL;
  params: Record<string, string>;
  request?: R;
  conform?: (response: Response) => Awaitable<Response | undefined>;
}

/** An OAuth provider after normalisation: endpoints resolved into `{ url, params }` objects. */
export interface InternalOAuthProvider<P = Profile>
  extends Omit<OAuth2Config<P>, "type" | "authorization" | "token" | "userinfo" | "checks"> {
  type: "oauth" | "oidc";
  /** Authorization endpoint; its URL carries no query (the query is merged into `params`). */
  authorization?: InternalEndpoint;
  /** Token endpoint; `params` are sent in the token request body. */
  token?: InternalEndpoint<TokenEndpointHandler["request"]>;
  /** Userinfo endpoint; `params` are part of the URL's query. */
  userinfo?: InternalEndpoint<UserinfoEndpointHandler["request"]>;
  checks: OAuthChecks[];
  profile: (profile: P, tokens: TokenSet) => Awaitable<User>;
  account: (tokens: TokenSet) => TokenSet | undefined;
  signinUrl: string;
  callbackUrl: string;
}

// ---------------------------------------------------------------------------------------------
// E-mail

/** Parameters of `sendVerificationRequest`. */
export interface SendVerificationRequestParams {
  identifier: string;
  url: string;
  expires: Date;
  provider: EmailConfig;
  token: string;
  theme: Theme;
  request: Request;
  /**
   * Tessera extension: the language the e-mail should be written in (BCP 47, `"de"`), chosen
   * like the built-in pages' (the config's `locale`, else `Accept-Language`). The default e-mail
   * uses it; a custom `sendVerificationRequest` can too.
   */
  locale?: string;
  /** Tessera extension: the app's texts for the default e-mail (the config's `messages`). */
  messages?: MessageOverrides<CoreMessages>;
  /**
   * Tessera: a 6-digit code that signs in like the link, in the browser where the sign-in
   * started (absent with `signInCode: false`). The default e-mail shows it under the button.
   */
  code?: string;
  /**
   * Tessera: a rendered e-mail to send instead of the default sign-in e-mail, for messages whose
   * wording is not a sign-in (the password extension's change-of-address e-mails). The built-in
   * providers send it as it is; a custom `sendVerificationRequest` may do the same.
   */
  message?: { subject: string; html: string; text: string };
}

/** E-mail (magic link) provider configuration. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email";
  /** Sender address. */
  from?: string;
  /** Seconds a link stays valid. Default 24 hours. */
  maxAge?: number;
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>;
  /** API key of HTTP e-mail services (inferred from `AUTH_{ID}_KEY`). */
  apiKey?: string;
  /** SMTP server (URL or nodemailer transport options) for the Nodemailer provider. */
  server?: unknown;
  /** Overrides the token generator (default: 32 random bytes, hex). */
  generateVerificationToken?: () => Awaitable<string>;
  /**
   * Wrong tokens an address may try before its pending link is void (default 5), so that short
   * codes from `generateVerificationToken` cannot be brute-forced. Even the right token is then
   * refused, until a new link is requested. `Infinity` turns the limit off.
   */
  maxAttempts?: number;
  /**
   * Where wrong tries are counted. Default: this process's memory (bounded). With several app
   * instances, pass every instance the same store over a shared database (Redis, SQL), or each
   * instance allows `maxAttempts` tries of its own.
   */
  attemptStore?: VerificationAttemptStore;
  /**
   * Tessera: put a 6-digit code in the e-mail beside the link, which the verify-request page
   * takes, for phones and installed web apps whose mail app opens links in another browser. The
   * code works only in the browser that asked for it, for at most 15 minutes, once, within
   * `maxAttempts`. Default true; `false` sends the link alone, as Auth.js does.
   */
  signInCode?: boolean;
  /** Normalises (and validates) an address; throw to refuse it. */
  normalizeIdentifier?: (identifier: string) => string;
  /** Secret for hashing tokens, when different from the global one. */
  secret?: string;
  /** Base URL of an HTTP e-mail API, replacing the service's documented one (regions, proxies, tests). */
  apiUrl?: string;
  /** Replaces `fetch` for an HTTP e-mail API's requests (proxies, tests). */
  [customFetch]?: typeof fetch;
  options?: Partial<EmailConfig>;
}

// ---------------------------------------------------------------------------------------------
// Credentials

/** A field of the credentials form. */
export interface CredentialInput {
  label?: string;
  type?: string;
  value?: string;
  placeholder?: string;
  required?: boolean;
  autocomplete?: string;
  [attribute: string]: unknown;
}

/** Credentials provider configuration. */
export interface CredentialsConfig<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> extends CommonProviderOptions {
  type: "credentials";
  /** Fields of the form on the built-in sign-in page. */
  credentials: C;
  /**
   * Checks the submitted credentials. Return the user, or `null` (or throw `CredentialsSignin`)
   * to refuse. Never reveal which field was wrong.
   */
  authorize: (
    credentials: Partial<Record<keyof C, unknown>>,
    request: Request,
  ) => Awaitable<User | null>;
  /**
   * Links under the form on the built-in sign-in page ("Create account", "Forgot password?"),
   * each a path under the auth base path. A Tessera addition; Auth.js has none.
   */
  links?: readonly { label: string; path: string }[];
  options?: Partial<CredentialsConfig<C>>;
}

// ---------------------------------------------------------------------------------------------
// WebAuthn

/** WebAuthn relying party: the site passkeys are bound to. */
export interface RelayingParty {
  /** RP ID: the site's domain (or a registrable parent of it). */
  id: string;
  /** Name shown by the authenticator. */
  name: string;
  /** Origin the browser reports in its responses. */
  origin: string;
}

/**
 * Relying party settings. Every value defaults from the request URL (`id` = hostname, `name` =
 * host, `origin` = origin). Several ids or origins are all accepted when verifying a response;
 * options use the id that fits the request's hostname.
 */
export interface RelayingPartyOptions {
  id: string | string[];
  name: string;
  origin: string | string[];
  /**
   * Tessera extension: other origins (WebAuthn Level 3 related origins, e.g. a country site
   * `https://example.co.uk` for the RP id `example.com`) whose passkey ceremonies use this RP id.
   * Responses from them are accepted, and `webauthnWellKnown` serves them at
   * `https://<rp id>/.well-known/webauthn`, where the browser checks them. Set `id` with them.
   */
  relatedOrigins: string[];
}

/** A function of `@simplewebauthn/server`, typed loosely so this module needs none of its types. */
type SimpleWebAuthnFunction = (options: never) => Promise<unknown>;

/** The `@simplewebauthn/server` functions a WebAuthn provider calls. */
export interface SimpleWebAuthnMethods {
  generateRegistrationOptions: SimpleWebAuthnFunction;
  generateAuthenticationOptions: SimpleWebAuthnFunction;
  verifyRegistrationResponse: SimpleWebAuthnFunction;
  verifyAuthenticationResponse: SimpleWebAuthnFunction;
}

/** First argument of `getUserInfo` (the fields Auth.js passes there too). */
export interface WebAuthnUserInfoOptions {
  adapter: Required<Adapter>;
  provider: WebAuthnConfig;
  /** `<origin><basePath>` of the request. */
  url: URL;
}

/** Second argument of `getUserInfo`: the parsed options request. */
export interface WebAuthnUserInfoRequest {
  method: "GET" | "POST";
  query: Record<string, string>;
  body?: Record<string, unknown>;
  headers: Headers;
  cookies: Record<string, string>;
}

/** WebAuthn provider configuration (see `@tessera/core/providers/webauthn`). */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn";
  /** Relying party; defaults are derived from the request URL. */
  relayingParty?: Partial<RelayingPartyOptions>;
  /**
   * Offer passkeys in the browser's autofill (conditional UI). Needs a form field whose
   * `autocomplete` contains `webauthn`; at most one provider may enable it.
   */
  enableConditionalUI?: boolean;
  /**
   * Tessera extension: after a password sign-in on the built-in page, ask the browser to create
   * a passkey without a prompt (`mediation: "conditional"` on create, where the browser supports
   * it; Chrome decides whether it does). Default `true`; `false` turns it off.
   */
  conditionalCreate?: boolean;
  /** Fields shown on the sign-in page and sent with the options request. */
  formFields?: Record<string, CredentialInput>;
  /**
   * Finds the user an options request is about (default: by the `email` query parameter).
   * `exists: false` means "a new user would be created by registering".
   */
  getUserInfo?: (
    options: WebAuthnUserInfoOptions,
    request: WebAuthnUserInfoRequest,
  ) => Awaitable<{ user: User | AdapterUser; exists: boolean } | null>;
  /** The `@simplewebauthn/server` functions; `WebAuthn()` loads the package on first use. */
  simpleWebAuthn?: SimpleWebAuthnMethods;
  /** Extra options of `generateAuthenticationOptions` (timeout, userVerification, …). */
  authenticationOptions?: Record<string, unknown>;
  /** Extra options of `generateRegistrationOptions` (authenticatorSelection, …). */
  registrationOptions?: Record<string, unknown>;
  /** Extra options of `verifyAuthenticationResponse` (requireUserVerification, …). */
  verifyAuthenticationOptions?: Record<string, unknown>;
  /** Extra options of `verifyRegistrationResponse` (requireUserVerification, …). */
  verifyRegistrationOptions?: Record<string, unknown>;
  /** The user's options, deep-merged over the provider's defaults. */
  options?: Partial<WebAuthnConfig>;
}

// ---------------------------------------------------------------------------------------------

/**
 * The profile type of an OAuth provider in a list of any providers: each built-in provider has
 * its own profile shape (GitHub's numeric `id` …), which no single type can cover.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
type AnyProfile = any;

/** Any provider configuration object. */
export type ProviderConfig =
  | OAuth2Config<AnyProfile>
  | OIDCConfig<AnyProfile>
  | EmailConfig
  | CredentialsConfig
  | WebAuthnConfig;

/** A provider as given in the config: an object or a factory called with no options. */
// biome-ignore lint/suspicious/noExplicitAny: built-in factories take provider-specific options
export type Provider = ProviderConfig | ((options?: any) => ProviderConfig);

/** A client-safe description of a provider (`GET /providers`). */
export interface PublicProvider {
  id: string;
  name: string;
  type: string;
  signinUrl: string;
  callbackUrl: string;
}

/** @internal A user from an adapter, or one built from a provider profile. */
export type AnyUser = User | AdapterUser;
/** @internal */
export type AnyAccount = Account;
/** @internal */
export type { Adapter };

/** Maps a provider's profile (and tokens) to the user Tessera signs in; must return an `id`. */
export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>;
/** Chooses which token fields are stored on the account (`undefined`: all of them). */
// `void`, as in Auth.js: a callback that returns nothing (stores every field) must compile.
// biome-ignore lint/suspicious/noConfusingVoidType: Auth.js's public type, kept for drop-in use
export type AccountCallback = (tokens: TokenSet) => TokenSet | undefined | void;
/** The colours and logo of a provider's button on the built-in sign-in page. */
export type OAuthProviderButtonStyles = ProviderStyle;
/** The three OAuth endpoints a provider may configure. */
export type OAuthEndpointType = "authorization" | "token" | "userinfo";
/** An OIDC provider after normalisation. */
export type OIDCConfigInternal<P = Profile> = InternalOAuthProvider<P> & { type: "oidc" };

/** The id of a built-in OAuth or OIDC provider (any string: custom providers choose their own). */
export type OAuthProviderId = string & {};
/** The id of the credentials provider. */
export type CredentialsProviderId = "credentials";
/** The ids of the built-in e-mail providers. */
export type EmailProviderId =
  | "email"
  | "forwardemail"
  | "loops"
  | "mailgun"
  | "nodemailer"
  | "postmark"
  | "resend"
  | "sendgrid";
/** The type of every e-mail provider. */
export type EmailProviderType = "email";
/** What an e-mail provider's `sendVerificationRequest` receives. */
export type EmailProviderSendVerificationRequestParams = SendVerificationRequestParams;
/** What users pass to an e-mail provider's factory: any of its settings but the type. */
export type EmailUserConfig = Omit<Partial<EmailConfig>, "options" | "type">;
/** A provider id: a built-in one, or any string a custom provider uses. */
export type ProviderId =
  | CredentialsProviderId
  | EmailProviderId
  | "webauthn"
  | "passkey"
  | OAuthProviderId;
/** Each built-in provider's factory, by id. */
export type BuiltInProviders = Record<
  OAuthProviderId,
  (config: Partial<OAuthConfig<Profile>>) => OAuthConfig<Profile>
> &
  Record<CredentialsProviderId, (config: Partial<CredentialsConfig>) => CredentialsConfig> &
  Record<EmailProviderId, (config: Partial<EmailConfig>) => EmailConfig> &
  Record<"webauthn", (config: Partial<WebAuthnConfig>) => WebAuthnConfig>;
/** The `providers` of a configuration: provider objects or factories. */
export type AppProviders = Provider[];
/** A provider as the sign-in page lists it. */
export interface AppProvider extends CommonProviderOptions {
  signinUrl: string;
  callbackUrl: string;
}
