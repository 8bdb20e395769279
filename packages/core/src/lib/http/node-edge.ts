/**
 * The Node edge, both ways. In: a Node `IncomingMessage` as a `RequestSource`, the pipeline reading
 * the method, headers, cookies and body straight from it (the Fetch `Headers` and `Request` user
 * code receives are built on first access only, so session reads and CSRF never pay for them).
 * Out: `ResponseInternal` straight onto the `ServerResponse`, with no `Response` in between;
 * status, headers, cookies, redirect and body are decided by `planResponse`, the function
 * `toResponse` uses too, so the two writers cannot drift.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { Cookie, ResponseInternal } from "../../types.js";
import { MAX_BODY_BYTES, type RequestSource } from "./request.js";
import {
  CONFIGURATION_ERROR_BODY,
  planResponse,
  serializeCookies,
  type WriteProblem,
} from "./response.js";

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
