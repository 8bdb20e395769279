/**
 * Tessera for React Router 7 in framework mode: {@link ReactRouterAuth} gives the resource route
 * that serves every action (`app/routes/auth.$.ts` exporting `loader` and `action`), and the
 * server helpers for loaders and actions: {@link ReactRouterAuthHandlers.getSession},
 * {@link ReactRouterAuthHandlers.requireSession} (throws the redirect to the sign-in page) and
 * {@link ReactRouterAuthHandlers.getCsrfToken} (for plain HTML forms). The browser's `signIn` and
 * `signOut` are in `@tessera/react-router/client`.
 *
 * @example
 * ```ts
 * // app/auth.server.ts
 * import { ReactRouterAuth } from "@tessera/react-router"
 * import GitHub from "@tessera/core/providers/github"
 *
 * export const { loader, action, getSession, requireSession } = ReactRouterAuth({
 *   providers: [GitHub],
 * })
 * ```
 */
import {
  type ActionRunner,
  Auth,
  type AuthConfig,
  actionRunner,
  type Cookie,
  callAction,
  type PasskeysApi,
  passkeysApi,
  readSession,
  type Session,
  serializeCookies,
  setEnvDefaults,
} from "@tessera/core";
import { AuthError } from "@tessera/core/errors";
import { redirect } from "react-router";

export type { ActionRunner, ListedPasskey, PasskeyList, PasskeysApi } from "@tessera/core";
export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type { Account, DefaultSession, Profile, Session, User } from "@tessera/core/types";

/** Tessera's configuration for React Router: the core `AuthConfig`. */
export interface ReactRouterAuthConfig extends Omit<AuthConfig, "raw"> {}

/**
 * What a React Router loader or action is given (`Route.LoaderArgs`, `Route.ActionArgs`); only
 * the request is read.
 */
export interface RouteArgs {
  request: Request;
}

/** Options of {@link ReactRouterAuthHandlers.requireSession}. */
export interface RequireSessionOptions {
  /**
   * Where a signed-out visitor goes, with `?callbackUrl=<the requested path>` added. Default:
   * `pages.signIn` of the config, else the built-in page at `<basePath>/signin`.
   */
  redirectTo?: string;
  /** Refreshed session cookies (rolling expiry) are appended here; pass them to `data()`. */
  headers?: Headers;
}

/** What {@link ReactRouterAuth} returns. */
export interface ReactRouterAuthHandlers {
  /** The resource route's `loader`: answers `GET <basePath>/*` (session, csrf, providers, pages, callbacks). */
  loader: (args: RouteArgs) => Promise<Response>;
  /** The resource route's `action`: answers `POST <basePath>/*` (sign-in, callbacks, sign-out, session update). */
  action: (args: RouteArgs) => Promise<Response>;
  /**
   * The session of `request`, or `null` when signed out. With `headers`, the refreshed session
   * cookie (rolling expiry) is appended to them, for the loader's `data(…, { headers })`.
   */
  getSession: (request: Request, headers?: Headers) => Promise<Session | null>;
  /**
   * The session of `request`; when signed out, throws React Router's `redirect` to the sign-in
   * page with `callbackUrl` set to the requested path, so the visitor comes back after signing in.
   */
  requireSession: (request: Request, options?: RequireSessionOptions) => Promise<Session>;
  /**
   * A CSRF token for a plain HTML form posting to the resource route. The double-submit cookie it
   * belongs to is appended to `headers`, which the loader must send (`data(…, { headers })`).
   */
  getCsrfToken: (request: Request, headers: Headers) => Promise<string>;
  /**
   * Runs actions in-process for `request`, the cookies they set appended to `headers` (pass them
   * to `data()` or `redirect()`): the runner an extension's server functions take, so every
   * extension works here unchanged. Call its state-changing functions from route actions your
   * app protects against CSRF.
   *
   * @example
   * ```ts
   * import { twoFactorApi } from "@tessera/core/two-factor"
   * export async function loader({ request }: Route.LoaderArgs) {
   *   return { twoFactor: await twoFactorApi(actionRunner(request)).status() }
   * }
   * ```
   */
  actionRunner: (request: Request, headers?: Headers) => ActionRunner;
  /**
   * The signed-in user's passkeys for `request`: `list()` in loaders, `rename(id, name)` and
   * `delete(id)` in route actions (they ask for no CSRF token: protect the action). `list()`
   * resolves with `{ passkeys, signals }` or `null` when signed out; `rename` and `delete` with
   * the passkeys after the change, `null` when the user has no passkey with that id (another
   * user's included). Cookies the action sets are appended to `headers`.
   *
   * @example
   * ```ts
   * export const loader = ({ request }: Route.LoaderArgs) => passkeys(request).list()
   * export async function action({ request }: Route.ActionArgs) {
   *   return passkeys(request).delete(String((await request.formData()).get("id")))
   * }
   * ```
   */
  passkeys: (request: Request, headers?: Headers) => PasskeysApi;
  /** The path the actions live under, e.g. `/auth`. */
  readonly basePath: string;
}

interface Prepared {
  /** For the resource route: the user's options with the environment's defaults. */
  config: AuthConfig;
  /** For server-side reads: the host trusted unless the config says otherwise. */
  reads: AuthConfig;
  basePath: string;
}

/**
 * The config with the environment's defaults (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`,
 * `AUTH_{PROVIDER}_ID/SECRET/ISSUER`), on a copy: the user's object stays as it was.
 */
function prepare(userConfig: ReactRouterAuthConfig): Prepared {
  const config: AuthConfig = { ...userConfig };
  const env =
    (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  setEnvDefaults(env, config, true);
  const basePath = `/${(config.basePath ?? "/auth").replace(/^\/+|\/+$/g, "")}`.replace(/^\/$/, "");
  // Host header poisoning needs a link or a redirect built from the Host header; reading a
  // session or a CSRF token builds neither, so these reads trust the host unless told otherwise.
  const reads: AuthConfig = { ...config, trustHost: userConfig.trustHost ?? true };
  return { config, reads, basePath };
}

function appendCookies(headers: Headers | undefined, cookies: readonly Cookie[]): void {
  if (!headers) return;
  for (const line of serializeCookies(cookies)) headers.append("Set-Cookie", line);
}

/** A same-site path from `url` for `callbackUrl`: never another origin (open redirect). */
function pathOf(url: string): string {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
}

/**
 * The resource route's `loader` and `action` and the server helpers, for one config. Unset options
 * come from the environment, read at the first request (`AUTH_SECRET`, `AUTH_URL`,
 * `AUTH_TRUST_HOST`, `AUTH_{PROVIDER}_ID/SECRET/ISSUER`); the actions live under `basePath`, else
 * the path of `AUTH_URL`, else `/auth` (the route file `app/routes/auth.$.ts`).
 *
 * @example
 * ```ts
 * // app/routes/auth.$.ts (routes.ts: route("auth/*", "routes/auth.$.ts"))
 * export { action, loader } from "../auth.server"
 * ```
 */
export function ReactRouterAuth(userConfig: ReactRouterAuthConfig): ReactRouterAuthHandlers {
  let prepared: Prepared | undefined;
  const ready = (): Prepared => {
    prepared ??= prepare(userConfig);
    return prepared;
  };
  const handle = ({ request }: RouteArgs) => Auth(request, ready().config);

  async function getCsrfToken(request: Request, headers: Headers): Promise<string> {
    const internal = await callAction(ready().reads, {
      action: "csrf",
      url: request.url,
      headers: request.headers,
    });
    const status = internal.status ?? 200;
    if (status === 404)
      throw new AuthError(
        "No CSRF token: the config skips the CSRF check (skipCSRFCheck), so forms need none.",
      );
    if (status !== 200)
      throw new AuthError(
        `Reading the CSRF token failed (it answered ${status}); the server log names the cause, most often a missing AUTH_SECRET.`,
      );
    appendCookies(headers, internal.cookies ?? []);
    return (internal.body as { csrfToken: string }).csrfToken;
  }

  async function getSession(request: Request, headers?: Headers): Promise<Session | null> {
    const { session, cookies } = await readSession(ready().reads, {
      url: request.url,
      headers: request.headers,
    });
    appendCookies(headers, cookies);
    return session;
  }

  const runnerFor = (request: Request, headers?: Headers): ActionRunner =>
    actionRunner(request, ready().config, {
      onCookies: (cookies) => appendCookies(headers, cookies),
    });

  return {
    loader: handle,
    action: handle,
    getSession,
    actionRunner: runnerFor,
    passkeys: (request, headers) => passkeysApi(runnerFor(request, headers)),
    async requireSession(request, options = {}) {
      const session = await getSession(request, options.headers);
      if (session) return session;
      const page =
        options.redirectTo ?? ready().config.pages?.signIn ?? `${ready().basePath}/signin`;
      const separator = page.includes("?") ? "&" : "?";
      const callbackUrl = encodeURIComponent(pathOf(request.url));
      throw redirect(`${page}${separator}callbackUrl=${callbackUrl}`, {
        ...(options.headers && { headers: options.headers }),
      });
    },
    getCsrfToken,
    get basePath() {
      return ready().basePath;
    },
  };
}
