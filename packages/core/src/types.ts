/**
 * Public types of Tessera's configuration, sessions and callbacks. The shapes follow Auth.js v5 so
 * that a configuration written for `@auth/core` type-checks unchanged.
 */
import type { SerializeOptions } from "cookie";
import type { Adapter, AdapterSession, AdapterUser, Awaitable } from "./adapters.js";
import type { WarningCode } from "./lib/utils/logger.js";
import type { CredentialInput, Provider, ProviderType } from "./providers/index.js";

export type { Awaitable, ProviderType, WarningCode };

/** The actions served under the base path. */
export type AuthAction =
  | "callback"
  | "csrf"
  | "error"
  | "providers"
  | "session"
  | "signin"
  | "signout"
  | "verify-request"
  | "webauthn-options";

/** A user as seen by callbacks and the client. */
export interface User {
  id?: string;
  name?: string | null;
  email?: string | null;
  image?: string | null;
}

/** OIDC standard claims, as returned by an identity provider; indexable by any claim. */
export interface Profile {
  id?: string | null;
  sub?: string | null;
  name?: string | null;
  given_name?: string | null;
  family_name?: string | null;
  middle_name?: string | null;
  nickname?: string | null;
  preferred_username?: string | null;
  profile?: string | null;
  picture?: unknown;
  website?: string | null;
  email?: string | null;
  email_verified?: boolean | null;
  gender?: string | null;
  birthdate?: string | null;
  zoneinfo?: string | null;
  locale?: string | null;
  phone_number?: string | null;
  updated_at?: Date | string | number | null;
  address?: {
    formatted?: string | null;
    street_address?: string | null;
    locality?: string | null;
    region?: string | null;
    postal_code?: string | null;
    country?: string | null;
  } | null;
  [claim: string]: unknown;
}

/** Token endpoint response (OAuth 2 / OpenID) plus the absolute `expires_at` in seconds. */
export interface TokenSet {
  access_token?: string;
  token_type?: string;
  id_token?: string;
  refresh_token?: string;
  scope?: string;
  expires_in?: number;
  expires_at?: number;
  [key: string]: unknown;
}

/** The link between a user and a provider identity; extends the provider's token set. */
export interface Account extends Partial<TokenSet> {
  provider: string;
  providerAccountId: string;
  type: ProviderType;
  userId?: string;
  expires_at?: number;
  session_state?: string | null;
  token_type?: string;
}

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
}

/** Appearance of the built-in pages and e-mails. */
export interface Theme {
  colorScheme?: "auto" | "dark" | "light";
  logo?: string;
  brandColor?: string;
  buttonText?: string;
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

/** Logger methods; any may be overridden. */
export interface LoggerInstance {
  warn: (code: WarningCode) => void;
  error: (error: Error) => void;
  debug: (message: string, metadata?: unknown) => void;
}

/** Callbacks let the application decide what happens at each step. */
export interface CallbacksOptions {
  /**
   * Whether a user may sign in: `true` continues, `false` denies (`AccessDenied`), a string
   * redirects there.
   */
  signIn: (params: {
    user: User | AdapterUser;
    account: Account | null;
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
    }) & { newSession?: unknown; trigger?: "update" },
  ) => Awaitable<Session | DefaultSession>;
  /** Shapes the JWT on sign-in, update and every read; `null` signs the user out. */
  jwt: (params: {
    token: JWT;
    user: User | AdapterUser;
    account: Account | null;
    profile?: Profile;
    trigger?: "signIn" | "signUp" | "update";
    /** @deprecated use `trigger === "signUp"` */
    isNewUser?: boolean;
    session?: unknown;
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
  experimental?: { enableWebAuthn?: boolean };
  basePath?: string;
}
