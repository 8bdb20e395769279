/**
 * next-auth v4's public types under `@tessera/next-auth`: the options (`NextAuthOptions`), the
 * callbacks with their v4 signatures, and the augmentable `Session`, `User`, `Profile` and
 * `Account`. Apps that augment them keep doing so under the new module name:
 *
 * @example
 * ```ts
 * declare module "@tessera/next-auth" {
 *   interface Session { user: { id: string; role: string } & DefaultSession["user"] }
 * }
 * ```
 */
import type { Adapter } from "@tessera/core/adapters";
import type { CredentialInput, Provider } from "@tessera/core/providers";
import type { CookiesOptions, LoggerInstance } from "@tessera/core/types";

/** A value that may be a promise. */
export type Awaitable<T> = T | PromiseLike<T>;

/** An ISO 8601 date string (the session's `expires`). */
export type ISODateString = string;

/** The session as v4 answers it: `user` (name, e-mail, image) and `expires`. */
export interface DefaultSession {
  user?: {
    name?: string | null;
    email?: string | null;
    image?: string | null;
  };
  expires: ISODateString;
}

/** The session `useSession`, `getSession` and `getServerSession` answer (augmentable). */
export interface Session extends DefaultSession {}

/** The fields every user has. */
export interface DefaultUser {
  id: string;
  name?: string | null;
  email?: string | null;
  image?: string | null;
}

/** The user `authorize`, a provider's `profile` or the adapter returns (augmentable). */
export interface User extends DefaultUser {}

/** A user as the adapter stores it: a {@link User} (augmentations included) with its e-mail. */
export interface AdapterUser extends User {
  id: string;
  email: string;
  emailVerified: Date | null;
}

/** The provider's profile, as its `profile` callback receives it (augmentable). */
export interface Profile {
  sub?: string;
  name?: string;
  email?: string;
  image?: string;
}

/** The kind of a provider. */
export type ProviderType = "oauth" | "email" | "credentials" | "oidc";

/** The OAuth tokens and ids of a sign-in (augmentable). */
export interface Account extends Record<string, unknown> {
  providerAccountId: string;
  userId?: string;
  provider: string;
  type: ProviderType;
  access_token?: string;
  token_type?: string;
  id_token?: string;
  refresh_token?: string;
  scope?: string;
  expires_at?: number;
  session_state?: string;
}

/** A credentials field as the sign-in form shows it (`label`, `type`, `placeholder`, …). */
export type { CredentialInput } from "@tessera/core/providers";

/** The callbacks, with next-auth v4's parameters. */
export interface CallbacksOptions<P = Profile, A = Account> {
  /** `true` lets the sign-in go on; `false` refuses it (`AccessDenied`); a string redirects there. */
  signIn: (params: {
    user: User | AdapterUser;
    account: A | null;
    profile?: P;
    email?: { verificationRequest?: boolean };
    credentials?: Record<string, CredentialInput>;
  }) => Awaitable<string | boolean>;
  /** Where a sign-in or sign-out goes; by default relative and same-origin URLs only. */
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>;
  /** Shapes the session answered to the browser and to `getServerSession`. */
  session: (params: {
    session: Session;
    token: JWT;
    user: AdapterUser;
    newSession?: unknown;
    trigger?: "update";
  }) => Awaitable<Session | DefaultSession>;
  /** Shapes the JWT stored in the session cookie (JWT strategy). */
  jwt: (params: {
    token: JWT;
    user: User | AdapterUser;
    account: A | null;
    profile?: P;
    trigger?: "signIn" | "signUp" | "update";
    isNewUser?: boolean;
    session?: unknown;
  }) => Awaitable<JWT>;
}

/** The events, with next-auth v4's messages. */
export interface EventCallbacks {
  signIn: (message: {
    user: User;
    account: Account | null;
    profile?: Profile;
    isNewUser?: boolean;
  }) => Awaitable<void>;
  signOut: (message: { session: Session; token: JWT }) => Awaitable<void>;
  createUser: (message: { user: User }) => Awaitable<void>;
  updateUser: (message: { user: User }) => Awaitable<void>;
  linkAccount: (message: {
    user: User | AdapterUser;
    account: Account;
    profile: User | AdapterUser;
  }) => Awaitable<void>;
  session: (message: { session: Session; token: JWT }) => Awaitable<void>;
}

/** The app's own pages, replacing the built-in ones. */
export interface PagesOptions {
  signIn: string;
  signOut: string;
  error: string;
  verifyRequest: string;
  newUser: string;
}

/** How sessions are kept. */
export type SessionStrategy = "jwt" | "database";

/** The `session` option. */
export interface SessionOptions {
  strategy: SessionStrategy;
  maxAge: number;
  updateAge: number;
  generateSessionToken: () => Awaitable<string>;
}

/** The look of the built-in pages. */
export interface Theme {
  colorScheme?: "auto" | "dark" | "light";
  logo?: string;
  brandColor?: string;
  buttonText?: string;
}

/** next-auth v4's options: what `NextAuth(options)` and `getServerSession(options)` take. */
export interface AuthOptions {
  providers: Provider[];
  /** Default: `NEXTAUTH_SECRET` (then `AUTH_SECRET`). */
  secret?: string;
  session?: Partial<SessionOptions>;
  jwt?: Partial<JWTOptions>;
  pages?: Partial<PagesOptions>;
  callbacks?: Partial<CallbacksOptions>;
  events?: Partial<EventCallbacks>;
  adapter?: Adapter;
  debug?: boolean;
  logger?: Partial<LoggerInstance>;
  theme?: Theme;
  /** Default: `true` when `NEXTAUTH_URL` is https. */
  useSecureCookies?: boolean;
  cookies?: Partial<Omit<CookiesOptions, "webauthnChallenge">>;
}

/** next-auth v4's name for {@link AuthOptions}. */
export type NextAuthOptions = AuthOptions;

/**
 * The claims next-auth v4 puts in a session token. Augment {@link JWT} (not this) to add yours:
 *
 * @example
 * ```ts
 * declare module "@tessera/next-auth/jwt" {
 *   interface JWT { role?: "admin" | "user" }
 * }
 * ```
 */
export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null;
  email?: string | null;
  picture?: string | null;
  sub?: string;
}

/** The decoded session token: {@link DefaultJWT} plus the app's claims (augmentable). */
export interface JWT extends Record<string, unknown>, DefaultJWT {}

/** A secret as next-auth v4 takes it: a string or bytes (a Node `Buffer` is bytes). */
export type Secret = string | Uint8Array;

/** Parameters of {@link encode}. */
export interface JWTEncodeParams {
  /** The claims; `iat`, `exp` and `jti` are added. */
  token?: JWT;
  /** Key derivation salt: `""` (the default) for session tokens, the cookie name for others. */
  salt?: string;
  secret: Secret;
  /** Seconds until `exp`; default 30 days. */
  maxAge?: number;
}

/** Parameters of {@link decode}. */
export interface JWTDecodeParams {
  token?: string;
  salt?: string;
  secret: Secret;
}

/** The `jwt` option of {@link NextAuthOptions}, as next-auth v4 takes it. */
export interface JWTOptions {
  /** @deprecated Set `secret` at the top level (or `NEXTAUTH_SECRET`), as next-auth v4 asks. */
  secret: string;
  maxAge: number;
  encode: (params: JWTEncodeParams) => Awaitable<string>;
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>;
}
