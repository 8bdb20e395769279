/**
 * Tessera for Express 5: mount {@link ExpressAuth} at the base path and read sessions with
 * {@link getSession}.
 *
 * @example
 * ```ts
 * import express from "express"
 * import { ExpressAuth, getSession } from "@tessera/express"
 * import Credentials from "@tessera/core/providers/credentials"
 *
 * const authConfig = { providers: [Credentials({ authorize })] }
 * const app = express()
 * app.set("trust proxy", true) // only behind your own proxy
 * app.use("/auth", ExpressAuth(authConfig))
 * app.get("/", async (req, res) => {
 *   const session = await getSession(req, authConfig)
 *   res.send(session ? `Hello ${session.user?.name}` : "Signed out")
 * })
 * ```
 */

import type { ActionRunner, ListedSession, PasskeyList, Session } from "@tessera/core";
import {
  type AccessToken,
  assertStartupConfig,
  getAccessToken as getCoreAccessToken,
} from "@tessera/core";
import { AuthError } from "@tessera/core/errors";
import {
  appendCookies,
  getSession as getNodeSession,
  handleNodeRequest,
  listSessions as listNodeSessions,
  type NodeSessionOptions,
  type NodeSourceOptions,
  nodeActionRunner,
  nodePasskeyOperation,
  revokeSession as revokeNodeSession,
  revokeOtherSessions as revokeOtherNodeSessions,
  targetPath,
} from "@tessera/core/node";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type ExpressAuthConfig, prepareConfig } from "./config.js";
import { parsedBody, requestOrigin } from "./web-request.js";

export type { ListedPasskey, ListedSession, PasskeyList } from "@tessera/core";
export { type AccessToken, customFetch } from "@tessera/core";
export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type { Account, DefaultSession, Profile, Session, User } from "@tessera/core/types";
export type { ExpressAuthConfig } from "./config.js";
export { MAX_BODY_BYTES, toWebRequest } from "./web-request.js";

/**
 * The Express middleware answering every Tessera action (`/signin`, `/callback/:provider`,
 * `/session`, …). Mount it at a path (`app.use("/auth", …)`: the mount path is the base path, as
 * `@auth/express` takes it), or at the root, where it handles only paths under the config's
 * `basePath` (default `/auth`). Body parsers before it are fine but not needed.
 * Behind a proxy, `app.set("trust proxy", …)` makes `X-Forwarded-Proto`/`-Host` count, so
 * cookies get their `__Secure-` prefix and redirects use the public host.
 *
 * The config is checked when the middleware is created: a configuration error (no
 * `AUTH_SECRET`, an untrusted host without `AUTH_URL`, …) throws then, with the fix in its message.
 *
 * The request is read and the answer written natively (`@tessera/core/node`): no Fetch `Request`
 * or `Response` is built unless user code (a lazy config, `authorize`) asks for one.
 *
 * @example
 * ```ts
 * app.use("/auth", ExpressAuth({ providers: [GitHub] }))
 * ```
 */
export function ExpressAuth(config: ExpressAuthConfig): RequestHandler {
  // A misconfigured app stops here, at start-up, with the fix in the message, instead of failing
  // its first request: the environment defaults are applied from process.env now.
  assertStartupConfig(prepareConfig(config).config);
  // Not `async`: the answer's promise is handed to Express as it is (it never rejects), which
  // saves every request an async frame of its own.
  return function tesseraAuth(req: Request, res: Response, next: NextFunction) {
    const { config: prepared, basePath } = prepareConfig(config, mountPath(req));
    // An absolute-form target (`GET http://host/auth/… HTTP/1.1`, RFC 9112 §3.2.2) is matched by
    // its path, as the core matches it; a target that is neither is the core's 400 to give.
    const path = targetPath(req.originalUrl);
    if (path !== null && !path.startsWith(`${basePath}/`)) return next();
    // Stack-trace disclosure: errors are answered by the core, never passed to `next`, because
    // Express's default error handler sends the stack whenever NODE_ENV is not "production".
    const options: NodeSourceOptions = {
      // A malformed Host leaves no origin, which the core answers with 400.
      origin: requestOrigin(req) ?? null,
      target: () => req.originalUrl,
    };
    const body = parsedBody(req);
    if (body !== undefined) options.body = body;
    // Express's req.ip honours `trust proxy`: the socket address unless the app trusts a proxy.
    // A getter that runs proxy-addr, so it is read once.
    const ip = req.ip;
    if (ip) options.clientIp = ip;
    return handleNodeRequest(req, res, prepared, options);
  };
}
/**
 * Where the middleware is mounted: `req.baseUrl` without the part a wildcard matched
 * (`app.use("/auth/*splat", …)` answers `/auth/signin` with the base path `/auth`).
 */
function mountPath(req: Request): string | undefined {
  const params = req.params as Record<string, string | string[] | undefined>;
  const wildcard = params[0] ?? params.splat;
  const matched = Array.isArray(wildcard) ? wildcard.join("/") : wildcard;
  const base =
    matched && req.baseUrl.endsWith(`/${matched}`)
      ? req.baseUrl.slice(0, -matched.length - 1)
      : req.baseUrl;
  return base || undefined;
}

/**
 * The session of the user making `req`, or `null` when signed out. Runs `GET <basePath>/session`
 * with the request's cookies; a refreshed session cookie (rolling expiry) is added to `req.res`
 * while its headers are not yet sent. Throws an `AuthError` when the config is invalid (the
 * server log names the cause).
 *
 * @example
 * ```ts
 * app.get("/protected", async (req, res) => {
 *   const session = await getSession(req, authConfig)
 *   if (!session) return res.redirect("/auth/signin")
 *   res.send(`Signed in as ${session.user?.email}`)
 * })
 * ```
 */
export async function getSession(req: Request, config: ExpressAuthConfig): Promise<Session | null> {
  const { config: prepared } = prepareConfig(config);
  const origin = requestOrigin(req);
  // A malformed Host cannot name whose session this is.
  if (!origin) return null;
  try {
    return await getNodeSession(req, prepared, req.res, { origin });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AuthError("Reading the session failed; the server log names the cause.", {
      cause: error,
    });
  }
}

/**
 * The signed-in user's access token at the OAuth provider `providerId` (`{ accessToken,
 * expiresAt, tokenType, scope }`), refreshed first with the stored refresh token when it has
 * expired (one refresh for concurrent requests); `null` when signed out or without an account
 * there. Throws `RefreshTokenError` when the provider refused the refresh token (the user must
 * sign in again). A JWT session refreshed by the call gets its cookie re-issued on `req.res`.
 *
 * @example
 * ```ts
 * app.get("/repos", async (req, res) => {
 *   const token = await getAccessToken(req, authConfig, "github")
 *   if (!token) return res.redirect("/auth/signin")
 *   res.json(await fetch(api, { headers: { authorization: `Bearer ${token.accessToken}` } }).then((r) => r.json()))
 * })
 * ```
 */
export async function getAccessToken(
  req: Request,
  config: ExpressAuthConfig,
  providerId: string,
): Promise<AccessToken | null> {
  const origin = requestOrigin(req);
  if (!origin) return null;
  const headers = new Headers();
  if (req.headers.cookie) headers.set("cookie", req.headers.cookie);
  const response = req.res;
  return getCoreAccessToken(
    { url: `${origin}${req.originalUrl}`, headers },
    prepareConfig(config).config,
    providerId,
    {
      onCookies: (cookies) => {
        if (response && !response.headersSent) appendCookies(response, cookies);
      },
    },
  );
}

/** What the session functions tell the core about `req`: its proxy-aware origin and IP. */
function sessionOptions(req: Request): NodeSessionOptions | null {
  const origin = requestOrigin(req);
  if (!origin) return null;
  return { origin, ...(req.ip && { clientIp: req.ip }) };
}

/**
 * The signed-in user's sessions (database strategy), the current one first, or `null` when
 * signed out: `{ id, current, expires, createdAt, lastSeenAt, ip, userAgent }` each, `id` being an
 * opaque handle for {@link revokeSession}. Throws an `AuthError` when the config cannot list
 * sessions (JWT strategy, an adapter without `listSessionsByUserId`).
 *
 * @example
 * ```ts
 * app.get("/account/devices", async (req, res) => {
 *   res.json(await listSessions(req, authConfig))
 * })
 * ```
 */
export async function listSessions(
  req: Request,
  config: ExpressAuthConfig,
): Promise<ListedSession[] | null> {
  const options = sessionOptions(req);
  if (!options) return null;
  return listNodeSessions(req, prepareConfig(config).config, options);
}

/**
 * Ends the signed-in user's session `id` (from {@link listSessions}) and returns how many ended
 * (0 for an unknown id). Revoking the current session clears its cookie on `req.res`. It takes no
 * CSRF token: call it from a route your app protects (a same-site form with a CSRF token).
 *
 * @example
 * ```ts
 * app.post("/account/devices/revoke", express.urlencoded(), async (req, res) => {
 *   await revokeSession(req, authConfig, String(req.body.id))
 *   res.redirect("/account/devices")
 * })
 * ```
 */
export async function revokeSession(
  req: Request,
  config: ExpressAuthConfig,
  id: string,
): Promise<number> {
  const options = sessionOptions(req);
  if (!options) return 0;
  return revokeNodeSession(req, prepareConfig(config).config, id, req.res, options);
}

/**
 * Ends every session of the signed-in user except the current one and returns how many ended.
 * Like {@link revokeSession}, call it from a route your app protects against CSRF.
 *
 * @example
 * ```ts
 * const revoked = await revokeOtherSessions(req, authConfig)
 * ```
 */
export async function revokeOtherSessions(
  req: Request,
  config: ExpressAuthConfig,
): Promise<number> {
  const options = sessionOptions(req);
  if (!options) return 0;
  return revokeOtherNodeSessions(req, prepareConfig(config).config, req.res, options);
}

/**
 * Runs actions in-process for `req` (cookies set on `req.res`): the runner an extension's server
 * functions take, so every extension works in Express without code of its own here. Call its
 * state-changing functions from routes your app protects against CSRF.
 *
 * @example
 * ```ts
 * import { twoFactorApi } from "@tessera/core/two-factor"
 * app.get("/account/2fa", async (req, res) => {
 *   res.json(await twoFactorApi(actionRunner(req, authConfig)).status())
 * })
 * ```
 */
export function actionRunner(req: Request, config: ExpressAuthConfig): ActionRunner {
  const origin = requestOrigin(req);
  if (!origin)
    throw new AuthError(
      "The request has no usable Host header, so no action can run for it: set AUTH_URL or trust the proxy that sets Host.",
    );
  return nodeActionRunner(req, prepareConfig(config).config, req.res, {
    origin,
    ...(req.ip && { clientIp: req.ip }),
  });
}

/**
 * The signed-in user's passkeys (`{ passkeys, signals }`), or `null` when signed out. Throws an
 * `AuthError` when the config cannot manage passkeys (no WebAuthn provider, or an adapter without
 * the passkey methods).
 *
 * @example
 * ```ts
 * app.get("/account/passkeys", async (req, res) => {
 *   res.json(await listPasskeys(req, authConfig))
 * })
 * ```
 */
export async function listPasskeys(
  req: Request,
  config: ExpressAuthConfig,
): Promise<PasskeyList | null> {
  const options = sessionOptions(req);
  if (!options) return null;
  return nodePasskeyOperation(req, prepareConfig(config).config, { kind: "list" }, options);
}

/**
 * Names the signed-in user's passkey `id` (at most 64 characters); `null` when signed out or the
 * user has no such passkey. Call it from a route your app protects against CSRF.
 *
 * @example
 * ```ts
 * await renamePasskey(req, authConfig, req.body.id, req.body.name)
 * ```
 */
export async function renamePasskey(
  req: Request,
  config: ExpressAuthConfig,
  id: string,
  name: string,
): Promise<PasskeyList | null> {
  const options = sessionOptions(req);
  if (!options) return null;
  return nodePasskeyOperation(
    req,
    prepareConfig(config).config,
    { kind: "rename", id, name },
    options,
  );
}

/**
 * Deletes the signed-in user's passkey `id` (and unlinks its account); `null` when signed out or
 * the user has no such passkey, another user's included. Call it from a route your app protects
 * against CSRF.
 *
 * @example
 * ```ts
 * const left = await deletePasskey(req, authConfig, req.body.id)
 * ```
 */
export async function deletePasskey(
  req: Request,
  config: ExpressAuthConfig,
  id: string,
): Promise<PasskeyList | null> {
  const options = sessionOptions(req);
  if (!options) return null;
  return nodePasskeyOperation(req, prepareConfig(config).config, { kind: "delete", id }, options);
}
