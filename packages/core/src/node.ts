/**
 * Tessera for plain `node:http` (and what is built on it: Fastify, Koa, Hono's Node server): the
 * action, cookies and body are read straight from the `IncomingMessage` and the answer written
 * straight to the `ServerResponse`. No Fetch `Request` is built unless user code asks for one
 * (a lazy config, `authorize`, an e-mail sender), and then it is a real one.
 *
 * Both ways: in, a Node `IncomingMessage` as a `RequestSource`, the pipeline reading
 * the method, headers, cookies and body straight from it (the Fetch `Headers` and `Request` user
 * code receives are built on first access only, so session reads and CSRF never pay for them).
 * Out, `ResponseInternal` straight onto the `ServerResponse`, with no `Response` in between;
 * status, headers, cookies, redirect and body are decided by `planResponse`, the function
 * `toResponse` uses too, so the two writers cannot drift.
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
import type { TLSSocket } from "node:tls";
import { processEnv, trustHostFromEnv } from "./lib/config/env.js";
import type { RequestSource } from "./lib/config/internal.js";
import { assertStartupConfig } from "./lib/config/resolve.js";
import {
  type ActionRunner,
  runInProcess,
  runSessionOperation,
  type SessionOperation,
  type SessionRevocationResult,
  withAnswerCookies,
} from "./lib/in-process.js";
import {
  type PasskeyList,
  type PasskeyOperation,
  runPasskeyOperation,
} from "./lib/passkeys-in-process.js";
import {
  CONFIGURATION_ERROR_BODY,
  type ConfigOrFactory,
  handleSource,
  MAX_BODY_BYTES,
  planResponse,
  serializeCookies,
  type WriteProblem,
} from "./lib/pipeline.js";
import type { ListedSession } from "./lib/session/devices.js";
import { sessionReadOf } from "./lib/session-read.js";
import type { Cookie, ResponseInternal, Session } from "./types.js";

// Host header injection: only a host name, IPv4/IPv6 literal and port may reach the URL (a Host
// such as `evil.example/x?` would otherwise rewrite the path Tessera sees).
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const PROTO = /^https?$/i;

/** How the integration sees the request, where it knows better than the raw message. */
export interface NodeSourceOptions {
  /**
   * The origin (`https://app.test`), as a framework computes it (Express's `trust proxy`). When
   * absent, it comes from the Host header (or `X-Forwarded-*` when trusted); `null` when the
   * framework found none (a malformed Host), which is answered 400.
   */
  origin?: string | null | undefined;
  /** The request target (path and query); default `req.url`. Given the base path. */
  target?: (basePath: string) => string;
  /** The method to act as; default `req.method`. */
  method?: string;
  /**
   * Whether `X-Forwarded-*` name the origin of the `Request` handed to a lazy config, which runs
   * before the config's `trustHost` is known; default false.
   */
  trustForwarded?: boolean;
  /** The body, when a framework's body parser consumed the stream already. */
  body?: string | undefined;
  /**
   * The client's IP address as the framework knows it honestly (Express's `req.ip`, which
   * follows its `trust proxy` setting); rate limits count per IP only with it. Never pass an
   * unvalidated `X-Forwarded-For`: any client can write one.
   */
  clientIp?: string | undefined;
}

/** The first value of a (possibly repeated, comma-separated) forwarded header. */
function first(value: string | string[] | undefined): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  if (one === undefined) return undefined;
  const comma = one.indexOf(",");
  return (comma === -1 ? one : one.slice(0, comma)).trim();
}

/**
 * The origin of `req`: `X-Forwarded-Proto`/`-Host` when `trustForwarded` (the config's
 * `trustHost`: your own proxy sets them), else the Host header and the socket's TLS state.
 * `undefined` when the host is malformed.
 */
export function nodeOrigin(req: IncomingMessage, trustForwarded: boolean): string | undefined {
  const forwardedHost = trustForwarded ? first(req.headers["x-forwarded-host"]) : undefined;
  const forwardedProto = trustForwarded ? first(req.headers["x-forwarded-proto"]) : undefined;
  const proto =
    forwardedProto && PROTO.test(forwardedProto)
      ? forwardedProto
      : (req.socket as TLSSocket | undefined)?.encrypted
        ? "https"
        : "http";
  return originOf(proto, forwardedHost || req.headers.host || "localhost");
}

/**
 * `<protocol>://<host>` from what a framework computed (Fastify's `request.protocol` and
 * `request.host`, which follow its `trustProxy`), or `undefined` when the host is not a host
 * name, IP literal and port, or the protocol not http(s).
 *
 * @example
 * ```ts
 * originOf("https", "app.example:8443") // "https://app.example:8443"
 * originOf("http", "evil.example/x?") // undefined
 * ```
 */
export function originOf(protocol: string, host: string): string | undefined {
  if (!HOST.test(host) || !PROTO.test(protocol)) return undefined;
  return `${protocol.toLowerCase()}://${host}`;
}

/**
 * The path and query of a request target. An absolute-form target (`GET http://host/auth/… HTTP/1.1`,
 * RFC 9112 §3.2.2) is reduced to its path: its host is attacker-chosen like a Host header, and the
 * origin comes from the Host rules above. Anything else that is not a path is refused (`null`).
 */
export function targetPath(target: string): string | null {
  if (target.startsWith("/")) return target.startsWith("//") ? null : target;
  if (!/^https?:\/\//i.test(target)) return null;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

/** Reads the body as text, or `null` beyond {@link MAX_BODY_BYTES} or when the stream fails. */
function readBody(req: IncomingMessage): Promise<string | null> {
  const declared = Number(req.headers["content-length"] ?? 0);
  // Memory exhaustion: an announced oversized body is refused before a byte is read.
  if (declared > MAX_BODY_BYTES) return Promise.resolve(null);
  if (req.readableEnded) return Promise.resolve("");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (value: string | null) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > MAX_BODY_BYTES) {
        req.pause();
        done(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks, total).toString("utf8"));
    const onError = () => done(null);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/** `req` as a {@link RequestSource}. */
export class NodeRequestSource implements RequestSource {
  readonly method: string;
  readonly clientIp: string | undefined;
  #body: Promise<string | null> | undefined;
  #bodyText: string | null | undefined;
  #href: string | undefined;
  #headers: Headers | undefined;
  #request: Request | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly options: NodeSourceOptions = {},
  ) {
    this.method = options.method ?? req.method ?? "GET";
    this.clientIp = options.clientIp;
    if (options.body !== undefined) {
      this.#bodyText = options.body;
      this.#body = Promise.resolve(options.body);
    }
  }

  url(basePath: string, trustForwarded: boolean): string | null {
    const { origin: given } = this.options;
    const origin = given === undefined ? nodeOrigin(this.req, trustForwarded) : given;
    if (origin === undefined || origin === null) return null;
    const path = targetPath(this.options.target?.(basePath) ?? this.req.url ?? "/");
    if (path === null) return null;
    this.#href = `${origin}${path}`;
    return this.#href;
  }

  header(name: string): string | null {
    const value = this.req.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(name === "cookie" ? "; " : ", ") : value;
  }

  text(): Promise<string | null> {
    this.#body ??= readBody(this.req).then((text) => {
      this.#bodyText = text;
      return text;
    });
    return this.#body;
  }

  get headers(): Headers {
    if (!this.#headers) {
      const headers = new Headers();
      const raw = this.req.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i] as string;
        // HTTP/2 pseudo-headers are not headers; the body length belongs to the original body.
        if (name.charCodeAt(0) === 58 /* ":" */ || isLengthHeader(name)) continue;
        try {
          headers.append(name, raw[i + 1] as string);
        } catch {
          // Node's parser is more lenient than Fetch's Headers: such a value is left out.
        }
      }
      this.#headers = headers;
    }
    return this.#headers;
  }

  get request(): Request {
    if (!this.#request) {
      const href =
        this.#href ?? this.url("", this.options.trustForwarded ?? false) ?? "http://localhost/";
      const body = this.method === "POST" ? this.#bodyText : undefined;
      this.#request = new Request(href, {
        method: this.method,
        headers: this.headers,
        ...(typeof body === "string" && { body }),
      });
    }
    return this.#request;
  }

  requestWithBody(): Request | Promise<Request> {
    // Fast path: GETs (and bodies read already) need no await.
    if (this.method !== "POST" || this.#bodyText !== undefined) return this.request;
    return this.text().then(() => this.request);
  }
}

function isLengthHeader(name: string): boolean {
  const lower = name.length === 14 || name.length === 17 ? name.toLowerCase() : "";
  return lower === "content-length" || lower === "transfer-encoding";
}

/**
 * Appends `cookies` as `Set-Cookie` lines, keeping those set earlier (by the app). Never throws:
 * a cookie that cannot be written is dropped and reported to `onProblem`.
 *
 * @example
 * ```ts
 * appendCookies(res, [{ name: "a", value: "1", options: { path: "/" } }])
 * ```
 */
export function appendCookies(
  res: ServerResponse,
  cookies: readonly Cookie[],
  onProblem?: WriteProblem,
): void {
  if (cookies.length === 0) return;
  const lines = serializeCookies(cookies, onProblem);
  if (lines.length) res.appendHeader("Set-Cookie", lines);
}

/** A plain JSON answer (`400 "Bad request."`, `500 {message}`) for when nothing else can be sent. */
export function writeNodeError(res: ServerResponse, status: 400 | 413 | 500): void {
  // Nothing of a half-written answer (its cookies, its Location) leaves with the error.
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  if (status === 413) res.setHeader("Connection", "close");
  res.end(
    status === 500
      ? CONFIGURATION_ERROR_BODY
      : JSON.stringify(status === 400 ? "Bad request." : "Payload too large."),
  );
}

const ignoreProblem: WriteProblem = () => {};

/**
 * Sets (or, for `Set-Cookie`, appends) a header; one that Node refuses (a name that is not a
 * token, a value with a control character: response splitting) is dropped and reported.
 */
function setHeaderOrDrop(
  res: ServerResponse,
  name: string,
  value: string,
  report: WriteProblem,
): void {
  try {
    if (name === "Set-Cookie") res.appendHeader(name, value);
    else res.setHeader(name, value);
  } catch {
    report(new TypeError(`Header "${name}" holds characters a header cannot carry; dropped.`));
  }
}

/**
 * Writes `internal` to `res` and ends it. With `returnRedirectAsJson` (header
 * `X-Auth-Return-Redirect`), a redirect becomes `200 {"url": …}` with `Location` kept.
 *
 * Never throws, whatever the values: a header or cookie a header cannot carry is dropped (a
 * `Location` percent-encoded) and reported to `onProblem`; an answer that still cannot be written
 * (an impossible status, a body that is neither text nor bytes) becomes `500 {message}`.
 *
 * @example
 * ```ts
 * writeNodeResponse(res, { redirect: "http://localhost:3000/" }) // 302, Location: http://localhost:3000/
 * ```
 */
export function writeNodeResponse(
  res: ServerResponse,
  internal: ResponseInternal,
  returnRedirectAsJson = false,
  onProblem?: WriteProblem,
): void {
  const report = onProblem ?? ignoreProblem;
  try {
    const setCookies = internal.cookies?.length
      ? serializeCookies(internal.cookies, report)
      : undefined;
    // A `Location` is always sanitised (percent-encoded). Other headers are checked by Node's
    // setHeader itself, which refuses exactly what `safeHeaderValue` drops (RFC 9110 tokens,
    // no control characters): a refused one is dropped in `setHeaderOrDrop`, unchecked twice.
    const sanitize = internal.redirect === undefined ? undefined : report;
    const plan = planResponse(internal, setCookies, returnRedirectAsJson, sanitize);
    const { body } = plan;
    if (body !== null && typeof body !== "string" && !(body instanceof Uint8Array))
      throw new TypeError("The response body is neither text nor bytes.");
    // Validated before any header is set: Node refuses a status outside 100–999.
    if (!Number.isInteger(plan.status) || plan.status < 100 || plan.status > 999)
      throw new RangeError(`Invalid status ${plan.status}.`);
    const { headers } = plan;
    if (Array.isArray(headers)) {
      for (const [name, value] of headers) setHeaderOrDrop(res, name, value, report);
    } else if (headers)
      for (const name in headers) setHeaderOrDrop(res, name, headers[name] as string, report);
    res.statusCode = plan.status;
    res.end(body ?? undefined);
  } catch (error) {
    report(error instanceof Error ? error : new Error(String(error)));
    if (res.headersSent) res.destroy();
    else writeNodeError(res, 500);
  }
}

export { MAX_BODY_BYTES } from "./lib/pipeline.js";

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
  const run: ActionRunner = (call) => runInProcess(source, config, call);
  if (!res) return run;
  return withAnswerCookies(run, (cookies) => {
    if (!res.headersSent) appendCookies(res, cookies);
  });
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
