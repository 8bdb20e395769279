/**
 * Tessera for SolidStart, a drop-in for `@auth/solid-start`: `SolidAuth(config)` gives the
 * catch-all route's `GET` and `POST` handlers, `getSession(request, config)` reads the session on
 * the server. Both the current SolidStart (`@solidjs/start` 1.x, whose `APIEvent` carries the
 * `Request` and h3's `nativeEvent`) and the legacy `solid-start` 0.2 (whose event carries the
 * `Request`) are served. The actions live under `/api/auth` unless `prefix` says otherwise.
 *
 * @example
 * ```ts
 * // src/routes/api/auth/[...solidauth].ts
 * import { SolidAuth, type SolidAuthConfig } from "@tessera/solid-start"
 * import GitHub from "@tessera/core/providers/github"
 *
 * export const authOptions: SolidAuthConfig = { providers: [GitHub] }
 * export const { GET, POST } = SolidAuth(authOptions)
 * ```
 */
import {
  type ActionRunner,
  Auth,
  actionRunner as coreActionRunner,
  type IncomingRequestParts,
  type PasskeysApi,
  passkeysApi,
  readSession,
  type Session,
  serializeCookies,
} from "@tessera/core";
import { prepareConfig, type SolidAuthConfig } from "./config.js";

export type { ActionRunner, ListedPasskey, PasskeyList, PasskeysApi } from "@tessera/core";
export { customFetch } from "@tessera/core";
export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type { Account, DefaultSession, Profile, Session, User } from "@tessera/core/types";
export type { SolidAuthConfig } from "./config.js";

/**
 * What a SolidStart route handler is given, in both generations: `@solidjs/start` 1.x's
 * `APIEvent` and `solid-start` 0.2's `APIEvent` both carry the incoming `request`, and the
 * client's address as the server saw it (the socket's, not a forwarded header's).
 */
export interface SolidAuthEvent {
  request: Request;
  clientAddress?: string;
}

/** A route handler of {@link SolidAuth}. */
export type SolidAuthHandler = (event: SolidAuthEvent) => Promise<Response>;

/** What {@link SolidAuth} returns: the catch-all route's handlers. */
export interface SolidAuthHandlers {
  GET: SolidAuthHandler;
  POST: SolidAuthHandler;
}

/** What {@link getSession} resolves with. */
export type GetSessionResult = Promise<Session | null>;

/** The answer to a request the catch-all route got outside the prefix: where to move it. */
function outsidePrefix(basePath: string, pathname: string): Response {
  return new Response(
    `Tessera answers under ${basePath || "/"}, but this catch-all route got ${pathname}. Set \`prefix\` in the SolidAuth config to the path of the route's folder (e.g. "/api/auth" for src/routes/api/auth/[...solidauth].ts).`,
    { status: 404, headers: { "content-type": "text/plain;charset=UTF-8" } },
  );
}

/**
 * The catch-all route's handlers: `export const { GET, POST } = SolidAuth(config)` in
 * `src/routes/api/auth/[...solidauth].ts`. Every request under the prefix (default `/api/auth`,
 * which the core is told: no `basePath` needed) goes to the core, so an unknown action answers
 * 400 instead of SolidStart's 500 for a handler that returned nothing. Unset options come from
 * `AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST` and `AUTH_{PROVIDER}_ID/SECRET/ISSUER`.
 *
 * @example
 * ```ts
 * export const { GET, POST } = SolidAuth({
 *   providers: [Credentials({ credentials: { email: {}, password: {} }, authorize })],
 * })
 * ```
 */
export function SolidAuth(config: SolidAuthConfig): SolidAuthHandlers {
  const handler: SolidAuthHandler = async (event) => {
    const { config: options, basePath } = prepareConfig(config);
    const { request } = event;
    const { pathname } = new URL(request.url);
    if (pathname !== basePath && !pathname.startsWith(`${basePath}/`))
      return outsidePrefix(basePath, pathname);
    const clientIp = event.clientAddress;
    return Auth(request, options, clientIp ? { clientIp } : {});
  };
  return { GET: handler, POST: handler };
}

/**
 * The session of `request` (SolidStart's `event.request`, or its URL and headers), or `null`
 * when signed out; `config` is the one given to {@link SolidAuth}. Throws an `AuthError` when the
 * configuration is invalid (no `AUTH_SECRET`, …); the server log names the cause and the fix.
 *
 * @example
 * ```ts
 * import { query, redirect } from "@solidjs/router"
 * import { getRequestEvent } from "solid-js/web"
 *
 * export const getUser = query(async () => {
 *   "use server"
 *   const session = await getSession(getRequestEvent()!.request, authOptions)
 *   if (!session) throw redirect("/signin")
 *   return session.user
 * }, "user")
 * ```
 */
export async function getSession(
  request: Request | IncomingRequestParts,
  config: SolidAuthConfig,
): GetSessionResult {
  const { session } = prepareConfig(config);
  const read = await readSession(session, { url: request.url, headers: request.headers });
  return read.session;
}

/**
 * What the server functions are given: SolidStart's request event (`getRequestEvent()` in a
 * `"use server"` function, the `APIEvent` of an API route), whose `response` headers receive the
 * cookies the actions set.
 */
export interface SolidServerEvent extends SolidAuthEvent {
  response?: { headers: Headers };
}

/**
 * Runs actions in-process for `event`'s request with `config` (the one given to
 * {@link SolidAuth}), each answer's cookies appended to `event.response.headers`: the runner an
 * extension's server functions take, so every extension works in SolidStart without code of its
 * own here. Call its state-changing functions from server functions your app protects against
 * CSRF (SolidStart's server actions check the origin).
 *
 * @example
 * ```ts
 * import { twoFactorApi } from "@tessera/core/two-factor"
 * const status = await twoFactorApi(actionRunner(getRequestEvent()!, authOptions)).status()
 * ```
 */
export function actionRunner(event: SolidServerEvent, config: SolidAuthConfig): ActionRunner {
  const clientIp = event.clientAddress;
  return coreActionRunner(event.request, prepareConfig(config).config, {
    ...(clientIp && { clientIp }),
    onCookies: (cookies) => {
      for (const line of serializeCookies(cookies))
        event.response?.headers.append("set-cookie", line);
    },
  });
}

/**
 * The signed-in user's passkeys for `event`'s request: `list()` resolves with
 * `{ passkeys, signals }` or `null` when signed out; `rename(id, name)` and `delete(id)` with the
 * passkeys after the change, `null` when the user has no passkey with that id (another user's
 * included). Throws an `AuthError` when the config cannot manage passkeys.
 *
 * @example
 * ```ts
 * export const removePasskey = action(async (id: string) => {
 *   "use server"
 *   return passkeys(getRequestEvent()!, authOptions).delete(id)
 * })
 * ```
 */
export function passkeys(event: SolidServerEvent, config: SolidAuthConfig): PasskeysApi {
  return passkeysApi(actionRunner(event, config));
}
