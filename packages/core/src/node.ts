/**
 * Tessera for plain `node:http` (and what is built on it: Fastify, Koa, Hono's Node server): the
 * action, cookies and body are read straight from the `IncomingMessage` and the answer written
 * straight to the `ServerResponse`. No Fetch `Request` is built unless user code asks for one
 * (a lazy config, `authorize`, an e-mail sender), and then it is a real one.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http"
 * import { getSession, toNodeHandler } from "@tessera/core/node"
 *
 * const auth = toNodeHandler(config)
 * createServer(async (req, res) => {
 *   if (req.url?.startsWith("/auth/")) return auth(req, res)
 *   const session = await getSession(req, config, res)
 *   res.end(session ? `Hello ${session.user?.name}` : "Signed out")
 * }).listen(3000)
 * ```
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { processEnv, trustHostFromEnv } from "./lib/config/env.js";
import { assertStartupConfig } from "./lib/config/resolve.js";
import {
  appendCookies,
  NodeRequestSource,
  type NodeSourceOptions,
  writeNodeError,
  writeNodeResponse,
} from "./lib/http/node-edge.js";
import { MAX_BODY_BYTES } from "./lib/http/request.js";
import type { WriteProblem } from "./lib/http/response.js";
import {
  type ActionRunner,
  runInProcess,
  runSessionOperation,
  type SessionOperation,
  type SessionRevocationResult,
} from "./lib/in-process.js";
import {
  type PasskeyList,
  type PasskeyOperation,
  runPasskeyOperation,
} from "./lib/passkeys-in-process.js";
import { type ConfigOrFactory, handleSource } from "./lib/pipeline.js";
import type { ListedSession } from "./lib/session/devices.js";
import { sessionReadOf } from "./lib/session-read.js";
import type { Cookie, ResponseInternal, Session } from "./types.js";

export {
  appendCookies,
  type NodeSourceOptions,
  nodeOrigin,
  originOf,
  targetPath,
  writeNodeError,
  writeNodeResponse,
} from "./lib/http/node-edge.js";
export { MAX_BODY_BYTES } from "./lib/http/request.js";

/** A `node:http` request listener. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Whether a lazy config's `Request` may take its origin from `X-Forwarded-*`. */
function lazyTrust(config: ConfigOrFactory): boolean | undefined {
  return typeof config === "function" ? trustHostFromEnv(processEnv()) : undefined;
}

/**
 * Answers one request from `req` onto `res` through the same pipeline as `Auth()`. For framework
 * integrations: `options` say what the framework knows better (its proxy-aware origin, a body its
 * parser consumed). Never rejects: whatever fails is logged and answered `500 {message}`.
 * `reshape` lets a wrapper that keeps an older API's answers (`@tessera/next-auth`'s v4 shapes)
 * adjust the answer's data before it is written.
 *
 * @example
 * ```ts
 * await handleNodeRequest(req, res, config, { origin: "https://app.test" })
 * ```
 */
export async function handleNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  config: ConfigOrFactory,
  options: NodeSourceOptions = {},
  reshape?: (internal: ResponseInternal) => ResponseInternal,
): Promise<void> {
  // Memory exhaustion: an announced oversized body is refused before anything is read or parsed.
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return writeNodeError(res, 413);
  const trust = options.trustForwarded === undefined ? lazyTrust(config) : undefined;
  // Copied only for a lazy config: most requests build no options object of their own.
  const source = new NodeRequestSource(
    req,
    trust === undefined ? options : { ...options, trustForwarded: trust },
  );
  const write = (internal: ResponseInternal, asJson: boolean, onProblem?: WriteProblem) =>
    writeNodeResponse(res, reshape ? reshape(internal) : internal, asJson, onProblem);
  try {
    const answer = await handleSource(source, config, write);
    // Raw mode hands the data back instead of writing it.
    if (answer !== undefined && !res.writableEnded) writeNodeResponse(res, answer);
  } catch (error) {
    // Stack-trace disclosure: nothing escapes to the server's default handler.
    console.error("[tessera][error] A request escaped the pipeline:", error);
    if (res.headersSent) res.destroy();
    else writeNodeError(res, 500);
  }
}

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * The client's IP address for a request, for per-IP sign-in rate limits. Not set by default:
   * behind a proxy the socket address is the proxy's, and every user would share one limit. A
   * server that clients reach directly can pass `(req) => req.socket.remoteAddress`; behind your
   * own proxy, the address that proxy reports (never a client-written `X-Forwarded-For`).
   */
  clientIp?: (req: IncomingMessage) => string | undefined;
}

/**
 * A `node:http` request listener answering every Tessera action under the config's `basePath`
 * (default `/auth`). Behind your own proxy, set `trustHost: true` (or `AUTH_TRUST_HOST=true`):
 * then `X-Forwarded-Proto`/`-Host` name the public origin, as they do for `Auth()`.
 *
 * A config object is checked here: a configuration error (no `AUTH_SECRET`, an untrusted host
 * without `AUTH_URL`, …) throws at start-up with the fix in its message. A lazy config
 * (`(request) => config`) is checked on each request.
 *
 * @example
 * ```ts
 * createServer(toNodeHandler({ providers: [GitHub] })).listen(3000)
 * createServer(toNodeHandler(config, { clientIp: (req) => req.socket.remoteAddress })).listen(3000)
 * ```
 */
export function toNodeHandler(
  config: ConfigOrFactory,
  options: NodeHandlerOptions = {},
): NodeHandler {
  // A fixed config fails here, at start-up, rather than on the first request; a lazy one is
  // resolved per request and checked there.
  if (typeof config !== "function") assertStartupConfig(config);
  const { clientIp } = options;
  if (!clientIp) return (req, res) => handleNodeRequest(req, res, config);
  return (req, res) => handleNodeRequest(req, res, config, { clientIp: clientIp(req) });
}

/** Options of the Node {@link getSession}. */
export interface NodeGetSessionOptions extends Pick<NodeSourceOptions, "origin" | "clientIp"> {
  /**
   * Receives the cookies the read sets (a refreshed session cookie), for a framework that keeps
   * its own response headers (Fastify's `reply.header`) instead of writing them on `res`.
   */
  onCookies?: (cookies: Cookie[]) => void;
}

/**
 * The session of the user making `req`, or `null` when signed out: runs `GET <basePath>/session`
 * with `req`'s cookies. With `res`, a refreshed session cookie (rolling expiry) is appended while
 * its headers are not sent (with `options.onCookies`, it is handed there instead). Rejects with an `AuthError` when the config is invalid (no secret, an
 * untrusted host without `AUTH_URL`, …; the server log names the cause), on every call until the
 * config is fixed: catch it in your request handler and answer 500, or a bare `node:http` server
 * exits on the unhandled rejection.
 *
 * @example
 * ```ts
 * const session = await getSession(req, config, res)
 * if (!session) return res.writeHead(302, { Location: "/auth/signin" }).end()
 * ```
 */
export async function getSession(
  req: IncomingMessage,
  config: ConfigOrFactory,
  res?: ServerResponse,
  options: NodeGetSessionOptions = {},
): Promise<Session | null> {
  const { onCookies, ...sourceOptions } = options;
  const source = new NodeRequestSource(req, {
    ...(lazyTrust(config) !== undefined && { trustForwarded: lazyTrust(config) as boolean }),
    ...sourceOptions,
  });
  // The data itself, not a written answer: the caller decides what to send.
  const { session, cookies } = sessionReadOf(
    await runInProcess(source, config, { action: "session" }),
  );
  if (cookies.length && onCookies) onCookies(cookies);
  else if (cookies.length && res && !res.headersSent) appendCookies(res, cookies);
  return session;
}

/** Options of the Node session functions: what the framework knows about `req`. */
export type NodeSessionOptions = Pick<NodeSourceOptions, "origin" | "clientIp">;

/** Runs a sessions operation for `req`, setting the cookies it returns on `res` when given. */
async function nodeSessionOperation(
  req: IncomingMessage,
  config: ConfigOrFactory,
  operation: SessionOperation,
  res: ServerResponse | undefined,
  options: NodeSessionOptions,
) {
  const source = new NodeRequestSource(req, {
    ...(lazyTrust(config) !== undefined && { trustForwarded: lazyTrust(config) as boolean }),
    ...options,
  });
  const result = await runSessionOperation(source, config, operation);
  if (result && "cookies" in result && res && !res.headersSent) appendCookies(res, result.cookies);
  return result;
}

/**
 * The signed-in user's sessions (database strategy), the current one first; null when signed
 * out. Each `id` is an opaque handle for {@link revokeSession}.
 *
 * @example
 * ```ts
 * const sessions = await listSessions(req, config)
 * ```
 */
export async function listSessions(
  req: IncomingMessage,
  config: ConfigOrFactory,
  options: NodeSessionOptions = {},
): Promise<ListedSession[] | null> {
  const result = await nodeSessionOperation(req, config, { kind: "list" }, undefined, options);
  return result as ListedSession[] | null;
}

/**
 * Ends the signed-in user's session `id` (from {@link listSessions}); returns how many ended (0
 * for an unknown id). Revoking the current session clears its cookie on `res`. Call it from a
 * route your app protects against CSRF (it takes no CSRF token).
 *
 * @example
 * ```ts
 * await revokeSession(req, config, req.body.id, res)
 * ```
 */
export async function revokeSession(
  req: IncomingMessage,
  config: ConfigOrFactory,
  id: string,
  res?: ServerResponse,
  options: NodeSessionOptions = {},
): Promise<number> {
  const result = await nodeSessionOperation(req, config, { kind: "revoke", id }, res, options);
  return (result as SessionRevocationResult).revoked;
}

/**
 * Ends every session of the signed-in user except the current one; returns how many ended.
 *
 * @example
 * ```ts
 * const revoked = await revokeOtherSessions(req, config)
 * ```
 */
export async function revokeOtherSessions(
  req: IncomingMessage,
  config: ConfigOrFactory,
  res?: ServerResponse,
  options: NodeSessionOptions = {},
): Promise<number> {
  const operation = { kind: "revoke-others" } as const;
  const result = await nodeSessionOperation(req, config, operation, res, options);
  return (result as SessionRevocationResult).revoked;
}

/**
 * The runner an extension's server functions take (`twoFactorApi(runner)`): actions run
 * in-process for `req`, each answer's cookies appended to `res` when given (and not yet sent).
 *
 * @example
 * ```ts
 * import { twoFactorApi } from "@tessera/core/two-factor"
 * const status = await twoFactorApi(nodeActionRunner(req, config, res)).status()
 * ```
 */
export function nodeActionRunner(
  req: IncomingMessage,
  config: ConfigOrFactory,
  res?: ServerResponse,
  options: NodeSessionOptions = {},
): ActionRunner {
  const source = new NodeRequestSource(req, {
    ...(lazyTrust(config) !== undefined && { trustForwarded: lazyTrust(config) as boolean }),
    ...options,
  });
  return async (call) => {
    const answer = await runInProcess(source, config, call);
    if (answer.cookies?.length && res && !res.headersSent) appendCookies(res, answer.cookies);
    return answer;
  };
}

/**
 * Runs a passkey-management `operation` (list, rename, delete) for the user making `req`: their
 * passkeys afterwards, or null when signed out or (rename, delete) when they have no such
 * passkey. Asks for no CSRF token: call it from a route your app protects. Throws an `AuthError`
 * when the config cannot manage passkeys (see `listPasskeys` of `@tessera/core`).
 *
 * @example
 * ```ts
 * const list = await nodePasskeyOperation(req, config, { kind: "list" })
 * ```
 */
export function nodePasskeyOperation(
  req: IncomingMessage,
  config: ConfigOrFactory,
  operation: PasskeyOperation,
  options: NodeSessionOptions = {},
): Promise<PasskeyList | null> {
  const source = new NodeRequestSource(req, {
    ...(lazyTrust(config) !== undefined && { trustForwarded: lazyTrust(config) as boolean }),
    ...options,
  });
  return runPasskeyOperation(source, config, operation);
}
