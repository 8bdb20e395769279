/**
 * Types of the Next.js integration. A `next-auth` v5 configuration type-checks as a
 * {@link NextAuthConfig} unchanged.
 */
import type {
  AccessToken,
  ActionRunner,
  AuthConfig,
  Awaitable,
  CallbacksOptions,
  Cookie,
  ListedSession,
  PasskeysApi,
  Session,
} from "@tessera/core";
import type { NextRequest } from "next/server.js";

/**
 * The `authorized` callback: decides in middleware (`proxy.ts`) and in `auth(handler)` wrappers
 * whether a request may continue. `true` continues; `false`, `null` or `undefined` redirect to the
 * sign-in page; a returned `Response` (a redirect, a 401…) is sent as it is.
 */
export type AuthorizedCallback = (params: {
  request: NextRequest;
  auth: Session | null;
}) => Awaitable<boolean | Response | null | undefined>;

/** Tessera's configuration with the `authorized` callback typed for Next.js requests. */
export interface NextAuthConfig extends Omit<AuthConfig, "callbacks" | "raw"> {
  callbacks?: Partial<Omit<CallbacksOptions, "authorized">> & { authorized?: AuthorizedCallback };
  /**
   * Tessera extension: the client's IP address for a route-handler request, for per-IP sign-in
   * rate limits and the IP shown in session listings. Next.js itself gives no address it can vouch
   * for, so there is none by default. Return only what your platform guarantees (Vercel sets
   * `x-real-ip` itself; a header a client can write, such as a bare `X-Forwarded-For` without
   * your own proxy in front, would let anyone pick their address).
   *
   * @example
   * ```ts
   * NextAuth({ providers, clientIp: (request) => request.headers.get("x-real-ip") ?? undefined })
   * ```
   */
  clientIp?: (request: NextRequest) => string | undefined;
  /**
   * Tessera extension: also read next-auth v4's session cookie (`next-auth.session-token`, as
   * next-auth v4 and `@tessera/next-auth` write it), for apps moving to this API from there. A v4
   * session is re-issued in this API's cookie at its next read and the v4 cookie cleared, so
   * nobody is signed out; it is decoded with the configured secrets and `NEXTAUTH_SECRET`.
   * Database sessions need nothing: their cookie holds the session token, read by the adapter.
   *
   * @example
   * ```ts
   * NextAuth({ providers, nextAuthV4Cookies: true })
   * ```
   */
  nextAuthV4Cookies?: boolean;
}

/**
 * A configuration, or a function building one per request (lazy initialisation). In server
 * components and server actions there is no request object, so the function gets `undefined`.
 */
export type NextAuthConfigOrFactory =
  | NextAuthConfig
  | ((request: NextRequest | undefined) => Awaitable<NextAuthConfig>);

/** A request seen by an `auth(handler)` wrapper: the session is on `request.auth`. */
export interface NextAuthRequest extends NextRequest {
  auth: Session | null;
}

/** A handler wrapped by `auth(handler)`: middleware (`proxy.ts`) or an App Router route handler. */
export type AuthWrappedHandler<Context = unknown> = (
  request: NextAuthRequest,
  context: Context,
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing must fit.
) => Awaitable<Response | undefined | void>;

/** The Node.js request of the Pages Router (`getServerSideProps`, API routes). */
export interface NodeRequestLike {
  headers: Record<string, string | string[] | undefined>;
  /** A TLS socket says the request came over HTTPS (when no proxy sets `X-Forwarded-Proto`). */
  socket?: unknown;
}

/** The Node.js response of the Pages Router; refreshed session cookies are appended to it. */
export interface NodeResponseLike {
  appendHeader?: (name: string, value: string | readonly string[]) => unknown;
  setHeader?: (name: string, value: string | readonly string[]) => unknown;
  getHeader?: (name: string) => unknown;
}

/**
 * `auth`: call it without arguments in server components, route handlers and server actions; use
 * it as middleware (`export { auth as proxy }`); or wrap a middleware or route handler with it.
 */
export interface AuthFunction {
  (): Promise<Session | null>;
  (request: NextRequest, context?: unknown): Promise<Response>;
  <Context>(
    handler: AuthWrappedHandler<Context>,
  ): (request: NextRequest, context: Context) => Promise<Response>;
  (context: { req: NodeRequestLike; res: NodeResponseLike }): Promise<Session | null>;
  (request: NodeRequestLike, response: NodeResponseLike): Promise<Session | null>;
}

/** The second argument of the `signIn` server action: form data or an options object. */
export type SignInOptions =
  | FormData
  | ({ redirectTo?: string; redirect?: boolean } & Record<string, unknown>);

/** Extra parameters for the provider's authorization request (OAuth). */
export type SignInAuthorizationParams =
  | string
  | string[][]
  | Record<string, string>
  | URLSearchParams;

/** Options of the `signOut` server action. */
export interface SignOutOptions {
  /** Where to go afterwards. Default: the page the action was called from (`Referer`), else `/`. */
  redirectTo?: string;
  /** `false` returns the URL instead of redirecting. Default `true`. */
  redirect?: boolean;
}

/** What the `signOut` server action resolves with when called with `redirect: false`. */
export interface SignOutResult {
  /** Where the user would have been sent. */
  redirect: string;
  /** The cookies the sign-out set (already written through `cookies()`). */
  cookies: Cookie[];
}

/** What `NextAuth()` returns. */
export interface NextAuthResult {
  /** Route handlers for `app/api/auth/[...nextauth]/route.ts`: `export const { GET, POST } = handlers`. */
  handlers: {
    GET: (request: NextRequest) => Promise<Response>;
    POST: (request: NextRequest) => Promise<Response>;
  };
  auth: AuthFunction;
  /**
   * Server action: signs in with `provider`. Redirects (throws Next.js's redirect) unless
   * `redirect: false`, in which case it resolves with the URL. Failures throw `AuthError`s.
   */
  signIn: <R extends boolean = true>(
    provider?: string,
    options?: SignInOptions & { redirect?: R },
    authorizationParams?: SignInAuthorizationParams,
  ) => Promise<R extends false ? string : never>;
  /**
   * Server action: ends the session; redirects unless `redirect: false`, in which case it
   * resolves with `{ redirect, cookies }` as next-auth's does.
   */
  signOut: <R extends boolean = true>(
    options?: SignOutOptions & { redirect?: R },
  ) => Promise<R extends false ? SignOutResult : never>;
  /** Server action: updates the session (the `jwt`/`session` callbacks get `trigger: "update"`). */
  unstable_update: (
    data: Partial<Session | { user: Partial<Session["user"]> }>,
  ) => Promise<Session | null>;
  /**
   * Tessera extension: the signed-in user's sessions (database strategy), the current one first,
   * or `null` when signed out. Each `id` is an opaque handle for `revokeSession`. `ip` is null
   * unless the config's `clientIp` option names the address (Next.js gives none it can vouch for).
   *
   * @example
   * ```tsx
   * const sessions = await listSessions()
   * ```
   */
  listSessions: () => Promise<ListedSession[] | null>;
  /**
   * Tessera extension, server action: ends the signed-in user's session `id` (from
   * `listSessions`) and resolves with how many ended (0 for an unknown id). Revoking the current
   * session signs this browser out.
   *
   * @example
   * ```tsx
   * <form action={async () => { "use server"; await revokeSession(id) }}>…</form>
   * ```
   */
  revokeSession: (id: string) => Promise<number>;
  /**
   * Tessera extension, server action: ends every session of the signed-in user except the
   * current one ("sign out everywhere else"); resolves with how many ended.
   *
   * @example
   * ```tsx
   * <form action={async () => { "use server"; await revokeOtherSessions() }}>…</form>
   * ```
   */
  revokeOtherSessions: () => Promise<number>;
  /**
   * Tessera extension: the signed-in user's access token at the OAuth provider `providerId`
   * (`{ accessToken, expiresAt, tokenType, scope }`), refreshed first with the stored refresh
   * token when it has expired; `null` when signed out or without an account there. Throws
   * `RefreshTokenError` when the provider refused the refresh token (sign in again). JWT sessions
   * need `refresh: true` on the provider.
   *
   * @example
   * ```ts
   * const token = await getAccessToken("keycloak")
   * const res = await fetch(api, { headers: { authorization: `Bearer ${token?.accessToken}` } })
   * ```
   */
  getAccessToken: (providerId: string) => Promise<AccessToken | null>;
  /**
   * Tessera extension: runs actions in-process with the incoming request (cookies written where
   * Next.js allows: server actions and route handlers), the runner an extension's server
   * functions take, so every extension works here unchanged.
   *
   * @example
   * ```tsx
   * import { twoFactorApi } from "@tessera/core/two-factor"
   * const status = await twoFactorApi(await actionRunner()).status()
   * ```
   */
  actionRunner: () => Promise<ActionRunner>;
  /**
   * Tessera extension: the signed-in user's passkeys, from server components (`list`) and server
   * actions (`rename`, `delete`; Next.js checks their origin). `list()` resolves with
   * `{ passkeys, signals }` or `null` when signed out; `rename` and `delete` resolve with the
   * passkeys after the change, `null` when the user has no passkey with that id (another user's
   * included). Needs a passkey provider and an adapter with the passkey methods.
   *
   * @example
   * ```tsx
   * const list = await passkeys.list()
   * <form action={async () => { "use server"; await passkeys.delete(id) }}>…</form>
   * ```
   */
  passkeys: PasskeysApi;
}
