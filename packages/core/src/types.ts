/**
 * Public types of Tessera's configuration, sessions and callbacks. The shapes follow Auth.js v5 so
 * that a configuration written for `@auth/core` type-checks unchanged.
 */

import type { SerializeOptions } from "cookie";
import type { Adapter, AdapterSession, AdapterUser, Awaitable } from "./adapters.js";
import type { CoreActionName } from "./lib/actions/routes.js";
import type { TesseraExtension } from "./lib/extension-handle.js";
import type { AccountMessages } from "./lib/i18n/account/en.js";
import type { CoreMessages } from "./lib/i18n/core/en.js";
import type { LocaleOption, MessageOverrides } from "./lib/i18n/messages.js";
import type { Account, Profile, Theme, User } from "./lib/identity-types.js";
import type { CredentialInput, Provider } from "./lib/provider-types.js";
import type { SharedStore } from "./lib/store/shared-store.js";
import type { LoggerInstance } from "./lib/utils/logger.js";

// Declared in the modules below, which must not import this one; re-exported so that
// `@tessera/core/types` names them (and module augmentation of `User`, `Profile` or `Account`
// here merges into their declarations).
export type { AdapterAuthenticator as Authenticator, Awaitable } from "./adapters.js";
export type {
  Account,
  DefaultUser,
  Profile,
  ProviderType,
  Theme,
  TokenSet,
  User,
} from "./lib/identity-types.js";
export type { PublicProvider } from "./lib/provider-types.js";
export type { LoggerInstance, WarningCode } from "./lib/utils/logger.js";

/** The value a promise resolves to (Auth.js's helper; TypeScript's own `Awaited` does more). */
export type Awaited<T> = T extends Promise<infer U> ? U : T;
/** A version string such as `v1`, `v1.2` or `v1.2.3`. */
export type SemverString = `v${number}` | `v${number}.${number}` | `v${number}.${number}.${number}`;

/** The `error` values of the built-in error page. */
export type ErrorPageParam = "Configuration" | "AccessDenied" | "Verification" | "UserBanned";
/** The `error` values the built-in sign-in page explains. */
export type SignInPageErrorParam =
  | "Signin"
  | "OAuthSignin"
  | "OAuthCallbackError"
  | "OAuthCreateAccount"
  | "EmailCreateAccount"
  | "Callback"
  | "OAuthAccountNotLinked"
  | "EmailSignin"
  | "CredentialsSignin"
  | "SessionRequired"
  | "RateLimited";

/** Options for the browser's WebAuthn call, as JSON (WebAuthn Level 3 `…OptionsJSON`). */
export interface WebAuthnOptionsJSON {
  challenge: string;
  [member: string]: unknown;
}
/** The answer of `GET <basePath>/webauthn-options/<id>`. */
export type WebAuthnOptionsResponseBody =
  | { action: "authenticate"; options: WebAuthnOptionsJSON }
  | { action: "register"; options: WebAuthnOptionsJSON };

/** The actions served under the base path (the core's rows of the action table). */
export type AuthAction = CoreActionName;

/** The session object returned by `GET /session` and `auth()`. */
export interface DefaultSession {
  user?: User;
  expires: string;
}

/** The session object; extend it through module augmentation of `@tessera/core/types`. */
export interface Session extends DefaultSession {}

/** The decoded content of a JWT session. */
export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null;
  email?: string | null;
  picture?: string | null;
  sub?: string;
  iat?: number;
  exp?: number;
  jti?: string;
}

/** The JWT payload; extend it through module augmentation of `@tessera/core/jwt`. */
export interface JWT extends DefaultJWT {}

/** Parameters of {@link JWTOptions.encode}. */
export interface JWTEncodeParams<Payload = JWT> {
  /** Seconds until the token expires (default 30 days). */
  maxAge?: number;
  /** Used in key derivation; the session cookie's name. */
  salt: string;
  /** One secret or several (rotation); encoding always uses the first. */
  secret: string | string[];
  token?: Payload;
}

/** Parameters of {@link JWTOptions.decode}. */
export interface JWTDecodeParams {
  salt: string;
  secret: string | string[];
  token?: string;
  /**
   * The session's lifetime in seconds: the token is refused once `iat + maxAge` has passed, even
   * if its `exp` is later. The session action passes `jwt.maxAge`; a custom `decode` may ignore it.
   */
  maxAge?: number;
}

/** JWT session options. */
export interface JWTOptions {
  /** Seconds until the JWT expires. Defaults to `session.maxAge`. */
  maxAge: number;
  encode: (params: JWTEncodeParams) => Awaitable<string>;
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>;
  /**
   * Tessera extension: makes JWT sessions revocable. A signed-out or revoked token's session id
   * (`sid`, else `jti`) is written to this store until the token would expire, and every session
   * read checks it, so a copied cookie stops working at once. Off by default (a read then costs
   * one store lookup); see `revokeJwtSession`. Fails closed: while the store cannot be read, the
   * session reads as signed out (the cookie is kept, an `AdapterError` is logged).
   *
   * @example
   * ```ts
   * jwt: { revocation: redisStore(redis) }
   * ```
   */
  revocation?: import("./lib/store/shared-store.js").SharedStore;
  /**
   * Tessera extension: seconds a "not revoked" answer of `revocation` is trusted by one process
   * (default 1), so a burst of requests with one cookie costs one store lookup. A revocation made
   * on another instance takes effect within this time (at once on the instance that made it);
   * 0 asks the store on every read. At most 60 (a configuration error otherwise).
   */
  revocationCacheSeconds?: number;
  /**
   * Tessera extension: session cookies of an earlier setup (another name, another format), read
   * when the session cookie is absent. A session read from one passes the same checks, is
   * re-issued in the session cookie at once, and the old cookie is cleared (sign-out clears it
   * too), so users move to the current cookie at their next visit without signing in again.
   * `@tessera/next`'s `nextAuthV4Cookies` option fills it with next-auth v4's cookies.
   *
   * @example
   * ```ts
   * jwt: { legacySessionCookies: [{ name: "old.session", decode: (token) => decodeOld(token) }] }
   * ```
   */
  legacySessionCookies?: readonly LegacySessionCookie[];
  /**
   * Tessera extension: how the cookies of an OAuth sign-in in flight (state, PKCE code verifier,
   * nonce) are sealed. By default Tessera's JWE (the cookie's name as salt, as Auth.js writes it).
   * A site taking over from another system sets the other system's sealing, so a sign-in started
   * there finishes here, and one started here finishes there after a rollback.
   * `@tessera/next-auth` sets next-auth v4's.
   *
   * @example
   * ```ts
   * jwt: {
   *   checkCookieCodec: {
   *     encode: ({ token, salt, maxAge }) => sealOld(token, salt, maxAge),
   *     decode: ({ token, salt }) => openOld(token, salt),
   *   },
   * }
   * ```
   */
  checkCookieCodec?: CheckCookieCodec;
}

/** What a check cookie holds: the check's value, and the provider it was made for. */
export interface CheckCookiePayload {
  value: string;
  provider: string;
}

/** Seals and opens the cookies of an OAuth sign-in in flight (`jwt.checkCookieCodec`). */
export interface CheckCookieCodec {
  /** Seals `token` for the cookie named `salt`, valid for `maxAge` seconds. */
  encode: (params: {
    token: CheckCookiePayload;
    salt: string;
    maxAge: number;
  }) => Awaitable<string>;
  /** The payload of a sealed cookie named `salt`, or `null` (or a throw) when it is not valid. */
  decode: (params: { token: string; salt: string }) => Awaitable<Record<string, unknown> | null>;
}

/** A session cookie of an earlier setup: its name, and how its value decodes to the session's claims. */
export interface LegacySessionCookie {
  name: string;
  /** The claims, or `null` (or a throw) when the value is not a valid session. */
  decode: (token: string) => Awaitable<JWT | null>;
}

/**
 * Tessera extension: how sign-in attempts are limited (credentials and WebAuthn callbacks,
 * e-mail sign-in and e-mail callback). Each attempt counts against the hashed identifier (e-mail
 * or username) and, where the integration knows it, the client's IP address.
 *
 * @example
 * ```ts
 * rateLimit: { window: 60, max: 10, storage: redisStore(redis) }
 * ```
 */
export interface RateLimitOptions {
  /** Length of the sliding window in seconds (default 60). */
  window?: number;
  /** Attempts allowed per identifier within the window (default 10). */
  max?: number;
  /** Attempts allowed per client IP address within the window (default 5 × `max`). */
  maxPerIp?: number;
  /**
   * Where attempts are counted (default: this process's memory). Apps running several instances
   * pass one shared store (`redisStore`, `sqlStore`), or each instance counts on its own.
   */
  storage?: import("./lib/store/shared-store.js").SharedStore;
}

/** Session options. */
export interface SessionOptions {
  /** `jwt` (default without adapter) or `database` (default with adapter). */
  strategy: "jwt" | "database";
  /** Seconds until an idle session expires. Default 30 days. */
  maxAge: number;
  /** Seconds between session extensions; 0 extends on every read. Default 1 day. */
  updateAge: number;
  /** Generates database session tokens. Default `crypto.randomUUID()`. */
  generateSessionToken: () => string;
}

/** Paths of custom pages. */
export interface PagesOptions {
  signIn: string;
  signOut: string;
  error: string;
  verifyRequest: string;
  newUser: string;
  /**
   * Tessera: your own account page instead of the built-in `<basePath>/account` (a path on
   * your origin); a browser that opens the built-in one is redirected there.
   */
  account: string;
}

/** A cookie's name and serialisation options. */
export interface CookieOption {
  name: string;
  options: SerializeOptions;
}

/** Cookies Tessera writes. */
export interface CookiesOptions {
  sessionToken: CookieOption;
  callbackUrl: CookieOption;
  csrfToken: CookieOption;
  pkceCodeVerifier: CookieOption;
  state: CookieOption;
  nonce: CookieOption;
  webauthnChallenge: CookieOption;
}

/** A cookie to set, as data. Integrations copy these into their own response type. */
export interface Cookie extends CookieOption {
  value: string;
}

/** What an action returns before it becomes a `Response`. */
export interface ResponseInternal<Body = unknown> {
  status?: number;
  headers?: Record<string, string>;
  body?: Body;
  redirect?: string;
  cookies?: Cookie[];
}

/** Callbacks let the application decide what happens at each step. */
export interface CallbacksOptions {
  /**
   * Whether a user may sign in: `true` continues, `false` denies (`AccessDenied`), a string
   * redirects there.
   */
  signIn: (params: {
    user: User | AdapterUser;
    account?: Account | null;
    profile?: Profile;
    email?: { verificationRequest?: boolean };
    credentials?: Record<string, CredentialInput>;
  }) => Awaitable<boolean | string>;
  /** Where to send the user after sign-in or sign-out. Default: same origin only. */
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>;
  /**
   * Shapes the session returned to the client. With JWT sessions `token` is set; with database
   * sessions `user` is. The parameter type is the intersection, as in Auth.js, so that callbacks
   * written for either strategy type-check.
   */
  session: (
    params: ({ session: { user: AdapterUser } & AdapterSession; user: AdapterUser } & {
      session: Session;
      token: JWT;
    }) & {
      // `any`, as in Auth.js: it is whatever the client passed to `update()`, and the documented
      // pattern (`session.user.name = newSession.name`) must compile without a cast.
      // biome-ignore lint/suspicious/noExplicitAny: Auth.js's public type, kept for drop-in use
      newSession: any;
      trigger?: "update";
    },
  ) => Awaitable<Session | DefaultSession>;
  /** Shapes the JWT on sign-in, update and every read; `null` signs the user out. */
  jwt: (params: {
    token: JWT;
    user: User | AdapterUser;
    account?: Account | null;
    profile?: Profile;
    trigger?: "signIn" | "signUp" | "update";
    /** @deprecated use `trigger === "signUp"` */
    isNewUser?: boolean;
    /**
     * With `trigger === "update"`, the data the client passed to `update()`. `any`, as in
     * Auth.js, so that `token.name = session.name` compiles.
     */
    // biome-ignore lint/suspicious/noExplicitAny: Auth.js's public type, kept for drop-in use
    session?: any;
  }) => Awaitable<JWT | null>;
  /** Used by framework middleware to decide access. */
  authorized?: (params: {
    request: Request;
    auth: Session | null;
  }) => Awaitable<boolean | Response | undefined>;
}

/** Observation hooks (audit logging). Errors thrown here are logged, never shown. */
export interface EventCallbacks {
  signIn: (message: {
    user: User;
    account: Account | null;
    profile?: Profile;
    isNewUser?: boolean;
  }) => Awaitable<void>;
  signOut: (
    message: { session: AdapterSession | null | undefined } | { token: JWT | null },
  ) => Awaitable<void>;
  createUser: (message: { user: User }) => Awaitable<void>;
  updateUser: (message: { user: User }) => Awaitable<void>;
  linkAccount: (message: {
    user: User | AdapterUser;
    account: Account;
    profile: User | AdapterUser;
  }) => Awaitable<void>;
  /** `token` is set for JWT sessions. */
  session: (message: { session: Session; token?: JWT }) => Awaitable<void>;
  /**
   * Tessera extension: a database session was revoked by its user
   * (`POST <basePath>/sessions/revoke`, `revokeSession`, `revokeOtherSessions`); `signOut` fires
   * too, for each. `sessionId` (a JWT session's `sid` or `jti`) is for revocations of JWT sessions that
   * Tessera makes itself; `revokeJwtSession`, called by app code, fires no event (it has no config).
   *
   * @example
   * ```ts
   * events: { sessionRevoked: ({ userId, session }) => audit("revoked", userId, session?.ip) }
   * ```
   */
  sessionRevoked: (message: {
    userId?: string;
    session?: AdapterSession;
    sessionId?: string;
  }) => Awaitable<void>;
  /**
   * Tessera extension: an account's access token was refreshed (once per refresh, in the
   * instance that ran it). The account carries the new tokens.
   *
   * @example
   * ```ts
   * events: { tokenRefreshed: ({ account }) => audit("refresh", account.provider, account.providerAccountId) }
   * ```
   */
  tokenRefreshed: (message: { account: Account }) => Awaitable<void>;
  /**
   * Tessera extension: the provider refused an account's refresh token (`invalid_grant`: revoked,
   * expired or reused) or there was none; the user must sign in with the provider again.
   * `account` names the account (`provider`, `providerAccountId`, `userId` when known).
   *
   * @example
   * ```ts
   * events: { refreshTokenError: ({ account, error }) => log.warn(account.provider, error.message) }
   * ```
   */
  refreshTokenError: (message: {
    account: Pick<Account, "provider" | "providerAccountId" | "userId">;
    error: Error;
  }) => Awaitable<void>;
  /**
   * Tessera extension: an OpenID Provider ended a user's sessions through back-channel logout
   * (OpenID Connect Back-Channel Logout 1.0). `userId` is set with database sessions.
   *
   * @example
   * ```ts
   * events: { backchannelLogout: ({ provider, sub, sid }) => audit("federated sign-out", provider, sub ?? sid) }
   * ```
   */
  backchannelLogout: (message: {
    provider: string;
    sub?: string;
    sid?: string;
    userId?: string;
  }) => Awaitable<void>;
}

/**
 * Tessera extension: options of the OAuth features beyond sign-in — access tokens that refresh
 * themselves (`getAccessToken`, providers with `refresh: true`) and back-channel logout.
 *
 * @example
 * ```ts
 * import { redisStore } from "@tessera/redis"
 * const config = { oauth: { store: redisStore(redis), refreshMargin: 60 }, providers, adapter }
 * ```
 */
export interface OAuthTokenOptions {
  /**
   * State the app's instances share: with it, concurrent requests of several processes refresh
   * an account once (a lock and the shared result), and a back-channel logout token is accepted
   * once across instances (`jti` replay markers). Without it both hold within one process only.
   */
  store?: SharedStore;
  /**
   * Seconds before `expires_at` from which an access token counts as expired and is refreshed
   * (default 60), so a token handed to an API call does not expire on the way.
   */
  refreshMargin?: number;
}

/** Tessera's configuration: the same shape as Auth.js v5's `AuthConfig`. */
export interface AuthConfig {
  providers: Provider[];
  secret?: string | string[];
  session?: Partial<SessionOptions>;
  jwt?: Partial<JWTOptions>;
  pages?: Partial<PagesOptions>;
  callbacks?: Partial<CallbacksOptions>;
  events?: Partial<EventCallbacks>;
  adapter?: Adapter;
  debug?: boolean;
  logger?: Partial<LoggerInstance>;
  theme?: Theme;
  useSecureCookies?: boolean;
  cookies?: Partial<CookiesOptions>;
  trustHost?: boolean;
  /** Set with the `skipCSRFCheck` symbol to disable CSRF checks (for framework integrations). */
  skipCSRFCheck?: typeof import("./lib/symbols.js").skipCSRFCheck;
  /** Set with the `raw` symbol to get `ResponseInternal` back instead of a `Response`. */
  raw?: typeof import("./lib/symbols.js").raw;
  redirectProxyUrl?: string;
  experimental?: {
    enableWebAuthn?: boolean;
    /**
     * Experimental, may change in a minor release: extensions made by `defineExtension`, which
     * add action rows (served over HTTP and by `callAction`) and sign-in steps.
     */
    extensions?: readonly TesseraExtension[];
  };
  basePath?: string;
  /**
   * Tessera extension: limits sign-in attempts (on by default: 10 per identifier and 50 per IP
   * address per minute); `false` turns it off. See {@link RateLimitOptions}.
   */
  rateLimit?: RateLimitOptions | false;
  /** Tessera extension: access-token refresh and back-channel logout; see {@link OAuthTokenOptions}. */
  oauth?: OAuthTokenOptions;
  /**
   * Tessera extension: the language of the built-in pages, the default e-mail and their error
   * messages. A tag (`"de"`), or a function of the request returning one (or `undefined`);
   * without it, the request's `Accept-Language` decides. Shipped: en, de, fr, es, pt-BR, ja,
   * zh-CN, ar. See docs/guides/languages.md.
   */
  locale?: LocaleOption;
  /**
   * Tessera extension: your texts for the core's pages (the account page included) and e-mail,
   * by locale; keys are those of the English dictionaries (`CoreMessages`, `AccountMessages`: a
   * typo does not compile), and a locale Tessera does not ship becomes available. A key you leave out keeps Tessera's text, or English.
   *
   * @example
   * ```ts
   * messages: { de: { "signIn.title": "Einloggen" }, it: { "signIn.title": "Accedi" } }
   * ```
   */
  messages?: MessageOverrides<CoreMessages & AccountMessages>;
}
