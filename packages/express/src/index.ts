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
import { Auth, type Session } from "@tessera/core";
import { AuthError } from "@tessera/core/errors";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type ExpressAuthConfig, prepareConfig } from "./config.js";
import { buildWebRequest, requestOrigin } from "./web-request.js";
import { appendCookies, writeError, writeResponse } from "./write-response.js";

export { customFetch } from "@tessera/core";
export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type { Account, DefaultSession, Profile, Session, User } from "@tessera/core/types";
export type { ExpressAuthConfig } from "./config.js";
export { MAX_BODY_BYTES, toWebRequest } from "./web-request.js";

const RETURN_REDIRECT = "x-auth-return-redirect";
// In raw mode the core throws errors that end a flow unless the request carries this header;
// with it, the core returns the same error redirect (and cookies) it would give a browser.
const RETURN_REDIRECT_HEADERS = { [RETURN_REDIRECT]: "1" } as const;

/**
 * The Express middleware answering every Tessera action (`/signin`, `/callback/:provider`,
 * `/session`, …). Mount it at the config's `basePath` (default `/auth`), or at the root, where
 * it handles only paths under the base path. Body parsers before it are fine but not needed.
 * Behind a proxy, `app.set("trust proxy", …)` makes `X-Forwarded-Proto`/`-Host` count, so
 * cookies get their `__Secure-` prefix and redirects use the public host.
 *
 * @example
 * ```ts
 * app.use("/auth", ExpressAuth({ providers: [GitHub] }))
 * ```
 */
export function ExpressAuth(config: ExpressAuthConfig): RequestHandler {
  const logError = (error: Error) => {
    if (config.logger?.error) config.logger.error(error);
    else console.error("[tessera][error]", error);
  };
  // Stack-trace disclosure: errors are answered here, never passed to `next`, because Express's
  // default error handler sends the stack whenever NODE_ENV is not "production".
  const fail = (res: Response, error: unknown) => {
    logError(error instanceof Error ? error : new Error(String(error)));
    if (res.headersSent) return void res.destroy();
    // Nothing of a half-written answer (its cookies, its Location) leaves with the 500.
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    writeError(res, 500);
  };
  return async function tesseraAuth(req: Request, res: Response, next: NextFunction) {
    // Mounted at a path, the mount path is the base path (`@auth/express` does the same);
    // mounted at the root, the config's base path (default `/auth`) is.
    const { raw: rawConfig, basePath } = prepareConfig(config, mountPath(req));
    if (!req.originalUrl.startsWith(`${basePath}/`)) return next();
    try {
      const redirectAsJson = req.headers[RETURN_REDIRECT] !== undefined;
      const request = await buildWebRequest(req, RETURN_REDIRECT_HEADERS);
      if (request === "bad-request") return writeError(res, 400);
      if (request === "too-large") return writeError(res, 413);
      writeResponse(res, await Auth(request, rawConfig), redirectAsJson, logError);
    } catch (error) {
      fail(res, error);
    }
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
  const { raw: rawConfig, basePath } = prepareConfig(config);
  const origin = requestOrigin(req);
  // A malformed Host cannot name whose session this is.
  if (!origin) return null;
  const cookie = req.headers.cookie;
  const request = new Request(
    `${origin}${basePath}/session`,
    cookie ? { headers: { cookie } } : undefined,
  );
  const internal = await Auth(request, rawConfig);
  if ((internal.status ?? 200) !== 200)
    throw new AuthError(
      "Reading the session failed because the auth configuration is invalid; the server log names the cause.",
    );
  const res = req.res;
  if (internal.cookies && res && !res.headersSent) appendCookies(res, internal.cookies);
  return (internal.body as Session | null | undefined) ?? null;
}
