/**
 * Tessera for Hono, with the API of `@hono/auth-js`: {@link initAuthConfig} gives each request
 * its config, {@link authHandler} answers the auth routes, {@link verifyAuth} guards routes and
 * {@link getAuthUser} reads the signed-in user (`c.get("authUser")`).
 *
 * @example
 * ```ts
 * import { Hono } from "hono"
 * import { authHandler, initAuthConfig, verifyAuth } from "@tessera/hono"
 * import GitHub from "@tessera/core/providers/github"
 *
 * const app = new Hono()
 * app.use("*", initAuthConfig((c) => ({ secret: c.env.AUTH_SECRET, providers: [GitHub] })))
 * app.use("/api/auth/*", authHandler())
 * app.use("/api/*", verifyAuth())
 * app.get("/api/protected", (c) => c.json(c.get("authUser")))
 * ```
 */
import {
  type ActionRunner,
  Auth,
  type Cookie,
  actionRunner as coreActionRunner,
  type JWT,
  type PasskeysApi,
  passkeysApi,
  readSession,
  type Session,
  serializeCookies,
} from "@tessera/core";
import type { AdapterUser } from "@tessera/core/adapters";
import { AuthError } from "@tessera/core/errors";
import type { Context, MiddlewareHandler } from "hono";
import { env } from "hono/adapter";
import { HTTPException } from "hono/http-exception";
import {
  type AuthConfig,
  type AuthEnv,
  prepareConfig,
  SESSION_PARTS,
  type SessionWithParts,
} from "./config.js";

export type { ActionRunner, ListedPasskey, PasskeyList, PasskeysApi } from "@tessera/core";
export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type { Account, DefaultSession, Profile, Session, User } from "@tessera/core/types";
export { type AuthConfig, type AuthEnv, setEnvDefaults } from "./config.js";

declare module "hono" {
  interface ContextVariableMap {
    /** The signed-in user, set by {@link verifyAuth}. */
    authUser: AuthUser;
    /** The request's config, set by {@link initAuthConfig}. */
    authConfig: AuthConfig;
  }
}

/** The signed-in user as {@link getAuthUser} reads it. */
export type AuthUser = {
  /** The session as the `session` callback returned it (what `GET /session` answers). */
  session: Session;
  /** The JWT (JWT strategy), after the `jwt` callback ran. */
  token?: JWT;
  /** The user from the adapter (database strategy). */
  user?: AdapterUser;
};

/** Builds the config of a request; may read `c.env` (the platform's bindings). */
export type ConfigHandler = (c: Context) => AuthConfig | Promise<AuthConfig>;

/** The config {@link initAuthConfig} set, or an error naming the fix. */
function configOf(c: Context): AuthConfig {
  const config = c.get("authConfig");
  if (!config)
    throw new AuthError(
      'No auth config on this request: add app.use("*", initAuthConfig((c) => ({ … }))) before authHandler(), verifyAuth() and getAuthUser().',
    );
  return config;
}

/** The runtime's environment: `process.env` on Node, the bindings on Workers. */
function envOf(c: Context): AuthEnv {
  return env(c) as AuthEnv;
}

/**
 * Where `authHandler()` is mounted: `/api/auth` for `app.use("/api/auth/*", …)`. Only a plain
 * prefix counts; a pattern with parameters leaves the default.
 */
function mountPathOf(c: Context): string | undefined {
  // `routePath` (deprecated in favour of `hono/route`, which Hono 4.0 to 4.7 lack) is the
  // pattern of the handler running now.
  const pattern = c.req.routePath;
  if (!pattern.endsWith("/*")) return undefined;
  const prefix = pattern.slice(0, -2);
  return /^(\/[\w.~-]+)+$/.test(prefix) ? prefix : undefined;
}

/**
 * The client's address when the runtime tells it honestly: @hono/node-server passes the Node
 * request as `c.env.incoming` (what its `getConnInfo` reads). Never `X-Forwarded-For`, which any
 * client can forge to dodge per-IP sign-in rate limits.
 */
function clientIpOf(c: Context): string | undefined {
  const bindings = c.env as { incoming?: { socket?: { remoteAddress?: unknown } } } | undefined;
  const address = bindings?.incoming?.socket?.remoteAddress;
  return typeof address === "string" ? address : undefined;
}

/** Puts `cookies` on the response `c` is building. */
function setCookies(c: Context, cookies: readonly Cookie[]): void {
  for (const line of serializeCookies(cookies)) c.header("Set-Cookie", line, { append: true });
}

/**
 * Middleware giving each request its config (`c.get("authConfig")`), built by `cb`. Register it
 * before {@link authHandler} and {@link verifyAuth}. Return the same object for every request
 * where you can: Tessera then applies the environment and resolves the config once.
 *
 * @example
 * ```ts
 * app.use("*", initAuthConfig((c) => ({ secret: c.env.AUTH_SECRET, providers: [GitHub] })))
 * ```
 */
export function initAuthConfig(cb: ConfigHandler): MiddlewareHandler {
  return async (c, next) => {
    c.set("authConfig", await cb(c));
    await next();
  };
}

/**
 * Answers every auth route (`/signin`, `/callback/:provider`, `/session`, `/csrf`, …) under the
 * path it is mounted at: `app.use("/api/auth/*", authHandler())` serves `/api/auth` without a
 * `basePath` in the config or `AUTH_URL` (the config's `basePath`, or the path of `AUTH_URL`,
 * wins when set). Configuration errors answer 500 without details; the server log names the fix.
 *
 * @example
 * ```ts
 * app.use("/api/auth/*", authHandler())
 * ```
 */
export function authHandler(): MiddlewareHandler {
  return async (c) => {
    const config = prepareConfig(configOf(c), envOf(c), mountPathOf(c));
    const clientIp = clientIpOf(c);
    return Auth(c.req.raw, config, clientIp ? { clientIp } : {});
  };
}

/**
 * The signed-in user of `c`'s request, or `null` when signed out: `{ session, token }` with JWT
 * sessions, `{ session, user }` with database sessions, `session` being what the `session`
 * callback returned. A refreshed session cookie (rolling expiry) is set on the response.
 *
 * @example
 * ```ts
 * app.get("/", async (c) => {
 *   const auth = await getAuthUser(c)
 *   return c.text(auth ? `Hello ${auth.session.user?.name}` : "Signed out")
 * })
 * ```
 */
export async function getAuthUser(c: Context): Promise<AuthUser | null> {
  const config = prepareConfig(configOf(c), envOf(c));
  const clientIp = clientIpOf(c);
  const { session: read, cookies } = await readSession(config, {
    url: c.req.url,
    headers: c.req.raw.headers,
    ...(clientIp && { clientIp }),
  });
  setCookies(c, cookies);
  const body = read as SessionWithParts | null;
  if (!body) return null;
  const { [SESSION_PARTS]: parts, ...session } = body;
  return { session, ...parts };
}

/**
 * Middleware refusing signed-out requests with 401 (as an `HTTPException`, which `app.onError`
 * can turn into a redirect to the sign-in page) and putting the user in `c.get("authUser")`.
 *
 * @example
 * ```ts
 * app.use("/api/*", verifyAuth())
 * app.get("/api/me", (c) => c.json(c.get("authUser").session.user))
 * ```
 */
export function verifyAuth(): MiddlewareHandler {
  return async (c, next) => {
    const authUser = await getAuthUser(c);
    if (!authUser)
      throw new HTTPException(401, { res: new Response("Unauthorized", { status: 401 }) });
    c.set("authUser", authUser);
    await next();
  };
}

/**
 * Runs actions in-process for `c`'s request (cookies set on `c`'s response): the runner an
 * extension's server functions take, so every extension works in Hono without code of its own
 * here. Call its state-changing functions from routes your app protects against CSRF.
 *
 * @example
 * ```ts
 * import { twoFactorApi } from "@tessera/core/two-factor"
 * app.get("/account/2fa", async (c) => c.json(await twoFactorApi(actionRunner(c)).status()))
 * ```
 */
export function actionRunner(c: Context): ActionRunner {
  const clientIp = clientIpOf(c);
  return coreActionRunner(c.req.raw, prepareConfig(configOf(c), envOf(c)), {
    ...(clientIp && { clientIp }),
    onCookies: (cookies) => setCookies(c, cookies),
  });
}

/**
 * The signed-in user's passkeys for `c`'s request: `list()` resolves with `{ passkeys, signals }`
 * or `null` when signed out; `rename(id, name)` and `delete(id)` with the passkeys after the
 * change, `null` when the user has no passkey with that id (another user's included). They ask
 * for no CSRF token: call them from routes your app protects against CSRF. Throws an `AuthError`
 * when the config cannot manage passkeys (no passkey provider, or an adapter without the passkey
 * methods).
 *
 * @example
 * ```ts
 * app.get("/account/passkeys", async (c) => c.json(await passkeys(c).list()))
 * app.post("/account/passkeys/delete", async (c) => {
 *   const { id } = await c.req.json()
 *   return c.json(await passkeys(c).delete(id))
 * })
 * ```
 */
export function passkeys(c: Context): PasskeysApi {
  return passkeysApi(actionRunner(c));
}
