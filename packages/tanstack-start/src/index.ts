/**
 * Tessera for TanStack Start: `TanStackAuth(config)` gives the handlers of the auth server route
 * (`src/routes/api/auth/$.ts`) and a `getSession()` for server functions, loaders and
 * `beforeLoad`. The route's handlers hand the incoming `Request` to the core; `getSession` runs
 * the core's session action in-process for the request TanStack Start is serving. The browser
 * side is `@tessera/core/client` at `{ baseUrl: "", basePath: "/api/auth" }`.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { TanStackAuth } from "@tessera/tanstack-start"
 * import GitHub from "@tessera/core/providers/github"
 *
 * export const { handlers, getSession } = TanStackAuth({ providers: [GitHub] })
 * ```
 */

import { appendResponseHeader, getRequest, getRequestIP } from "@tanstack/react-start/server";
import {
  type ActionRunner,
  Auth,
  type AuthConfig,
  actionRunner,
  basePathFromEnv,
  type IncomingRequestParts,
  type PasskeysApi,
  passkeysApi,
  readSession,
  type Session,
  serializeCookies,
  setEnvDefaults,
} from "@tessera/core";
import { AuthError } from "@tessera/core/errors";

export type { ActionRunner, ListedPasskey, PasskeyList, PasskeysApi } from "@tessera/core";
export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type { Account, DefaultSession, Profile, Session, User } from "@tessera/core/types";

/** Where the auth server route lives unless `basePath` or the path of `AUTH_URL` says otherwise. */
export const DEFAULT_BASE_PATH = "/api/auth";

/** Tessera's configuration for TanStack Start: the core's `AuthConfig`. */
export interface TanStackAuthConfig extends Omit<AuthConfig, "raw"> {}

/** What a TanStack Start server-route handler is given (the part Tessera reads). */
export interface ServerRouteContext {
  request: Request;
}

/** A server-route handler of {@link TanStackAuth}. */
export type AuthRouteHandler = (context: ServerRouteContext) => Promise<Response>;

/** What {@link TanStackAuth} returns. */
export interface TanStackAuthResult {
  /** For `server: { handlers }` of the catch-all route under the base path. */
  handlers: { GET: AuthRouteHandler; POST: AuthRouteHandler };
  /**
   * The session of the request being served (or of `request`), `null` when signed out. A
   * re-issued or cleared session cookie goes onto TanStack Start's response.
   */
  getSession: (request?: Request | IncomingRequestParts) => Promise<Session | null>;
  /**
   * Runs actions in-process for the request being served (or `request`), their cookies going
   * onto TanStack Start's response: the runner an extension's server functions take, so every
   * extension works here unchanged. Call its state-changing functions from server functions
   * your app protects against CSRF.
   *
   * @example
   * ```ts
   * import { twoFactorApi } from "@tessera/core/two-factor"
   * const status = createServerFn().handler(() => twoFactorApi(actionRunner()).status())
   * ```
   */
  actionRunner: (request?: Request | IncomingRequestParts) => ActionRunner;
  /**
   * The signed-in user's passkeys for the request being served (or `request`): `list()`
   * resolves with `{ passkeys, signals }` or `null` when signed out; `rename(id, name)` and
   * `delete(id)` with the passkeys after the change, `null` when the user has no passkey with
   * that id (another user's included). They ask for no CSRF token: call them from server
   * functions your app protects against CSRF.
   *
   * @example
   * ```ts
   * export const listPasskeys = createServerFn().handler(() => passkeys().list())
   * export const deletePasskey = createServerFn({ method: "POST" })
   *   .validator((id: string) => id)
   *   .handler(({ data }) => passkeys().delete(data))
   * ```
   */
  passkeys: (request?: Request | IncomingRequestParts) => PasskeysApi;
  /** The base path the core answers under, e.g. `/api/auth`. */
  basePath: string;
}

/** The config as the core gets it: environment defaults filled in, on a copy. */
function prepare(userConfig: TanStackAuthConfig): AuthConfig {
  const env =
    (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const config: AuthConfig = { ...userConfig };
  // The core's own default is /auth; TanStack Start apps put the route under /api/auth.
  if (!config.basePath && !basePathFromEnv(env)) config.basePath = DEFAULT_BASE_PATH;
  setEnvDefaults(env, config, true);
  return config;
}

/** The client's address as the server saw it (the socket's; a forwarded header only if trusted). */
function clientAddress(): string | undefined {
  try {
    return getRequestIP();
  } catch {
    return undefined; // Outside TanStack Start's request context: no address to tell.
  }
}

/** The request TanStack Start is serving, with a message that names the fix outside one. */
function currentRequest(what: string): Request {
  try {
    return getRequest();
  } catch (cause) {
    throw new AuthError(
      `${what}() without a request was called outside a TanStack Start request (a server function, loader, beforeLoad or server route). Call it from one of those, or pass the Request: ${what}(request).`,
      { cause },
    );
  }
}

/** Passes the session action's cookies on to the response TanStack Start is building. */
function forwardCookies(cookies: Parameters<typeof serializeCookies>[0] | undefined): void {
  if (!cookies?.length) return;
  const lines = serializeCookies(cookies);
  if (!lines.length) return;
  try {
    appendResponseHeader("set-cookie", lines);
  } catch {
    // An explicit request outside TanStack Start's context: there is no response to write to,
    // and the session read stays valid; the cookie is refreshed on the next request.
  }
}

/**
 * Tessera for a TanStack Start app. `handlers` serve every auth action from a catch-all server
 * route under the base path (default `/api/auth`, which the core is told); `getSession` reads the
 * session in server functions, loaders and `beforeLoad`. Unset options come from `AUTH_SECRET`,
 * `AUTH_URL`, `AUTH_TRUST_HOST` and `AUTH_{PROVIDER}_ID/SECRET/ISSUER`.
 *
 * @example
 * ```ts
 * // src/routes/api/auth/$.ts
 * import { createFileRoute } from "@tanstack/react-router"
 * import { handlers } from "../../../auth"
 *
 * export const Route = createFileRoute("/api/auth/$")({ server: { handlers } })
 * ```
 */
export function TanStackAuth(userConfig: TanStackAuthConfig): TanStackAuthResult {
  let prepared: AuthConfig | undefined;
  // Prepared on first use, so that reading the module (e.g. in the client build's analysis)
  // never reads the environment.
  const config = (): AuthConfig => {
    prepared ??= prepare(userConfig);
    return prepared;
  };

  const handler: AuthRouteHandler = async ({ request }) => {
    const clientIp = clientAddress();
    return Auth(request, config(), clientIp ? { clientIp } : {});
  };

  async function getSession(request?: Request | IncomingRequestParts): Promise<Session | null> {
    const incoming = request ?? currentRequest("getSession");
    const { session, cookies } = await readSession(config(), {
      url: incoming.url,
      headers: incoming.headers,
    });
    forwardCookies(cookies);
    return session;
  }

  function runnerFor(what: string, request?: Request | IncomingRequestParts): ActionRunner {
    const incoming = request ?? currentRequest(what);
    const clientIp = request ? undefined : clientAddress();
    return actionRunner(incoming, config(), {
      ...(clientIp && { clientIp }),
      onCookies: forwardCookies,
    });
  }

  return {
    handlers: { GET: handler, POST: handler },
    getSession,
    actionRunner: (request) => runnerFor("actionRunner", request),
    passkeys: (request) => passkeysApi(runnerFor("passkeys", request)),
    get basePath() {
      return config().basePath ?? DEFAULT_BASE_PATH;
    },
  };
}
