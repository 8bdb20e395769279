/**
 * Step 1 of the pipeline: turn a request (a `Request` or a Node request, see `RequestSource`) into the action, provider id, cookies and body
 * the rest of Tessera works with. Nothing here throws on hostile input: a request that cannot be
 * understood yields `null` and is answered with 400.
 */
import { parse as parseCookieHeader } from "cookie";
import type { AuthAction } from "../../types.js";
import { type ActionRoute, CORE_ACTION_ROUTES } from "../actions/routes.js";

/** The parsed request. */
export interface RequestInternal {
  /** The original request (handed to `authorize`, lazy configs and e-mail senders). */
  request: Request;
  url: URL;
  method: "GET" | "POST";
  /** A core {@link AuthAction}, or the name of an extension's action row. */
  action: string;
  /** The action's route in the effective action table. */
  route: ActionRoute;
  providerId?: string;
  headers: Headers;
  cookies: Record<string, string>;
  /** Form or JSON body of a POST (string values for forms). */
  body?: Record<string, unknown>;
  query: Record<string, string>;
  error?: string;
  /** The sub-path of an action whose route names some (`revoke` in `/sessions/revoke`). */
  subAction?: string;
  /** The client's IP address, when the integration knows it (see {@link RequestSource.clientIp}). */
  clientIp?: string;
  /** Set for Tessera's in-process server functions only (see {@link RequestSource.inProcess}). */
  inProcess?: true;
}

/** The routes of the core's actions, for configurations without extension rows. */
const CORE_ROUTES: ReadonlyMap<string, ActionRoute> = new Map(Object.entries(CORE_ACTION_ROUTES));

/** The routes a request may take, by action name (the effective action table). */
export type ActionRoutes = ReadonlyMap<string, ActionRoute>;

/** Bodies beyond this are refused (memory exhaustion by oversized posts). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** True when `value` names an action of the core. */
export function isAuthAction(value: string): value is AuthAction {
  return CORE_ROUTES.has(value);
}

/** Where a path leads: the action, its route, and what followed it. */
export interface ParsedRoute {
  action: string;
  route: ActionRoute;
  providerId?: string;
  subAction?: string;
}

/**
 * Splits `<basePath>/<action>[/<providerId or sub-path>]` by the routes of `routes` (default: the
 * core's). Returns `null` when the path does not name an action, so the caller can answer 400.
 */
export function parseActionAndProviderId(
  pathname: string,
  basePath: string,
  routes: ActionRoutes = CORE_ROUTES,
): ParsedRoute | null {
  const base = basePath.replace(/\/+$/, "");
  if (!pathname.startsWith(`${base}/`)) return null;
  const rest = pathname.slice(base.length + 1);
  // One segment (`session`, `csrf`, …) is the common case: no arrays of parts for it.
  const segments = rest !== "" && !rest.includes("/") ? [rest] : rest.split("/").filter(Boolean);
  if (segments.length !== 1 && segments.length !== 2) return null;
  const [action, tail] = segments as [string, string | undefined];
  const route = routes.get(action);
  if (route === undefined) return null;
  if (tail === undefined) return { action, route };
  if (route.tail === "nothing") return null;
  if (route.tail !== "provider")
    return route.tail.includes(tail) ? { action, route, subAction: tail } : null;
  let providerId: string;
  try {
    providerId = decodeURIComponent(tail);
  } catch {
    return null; // malformed percent-encoding
  }
  if (providerId === "undefined") return { action, route };
  return { action, route, providerId };
}

async function readLimited(request: Request): Promise<string | null> {
  try {
    return await readLimitedStream(request);
  } catch {
    return null; // the body stream failed (client went away)
  }
}

async function readLimitedStream(request: Request): Promise<string | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Where a request comes from: a Fetch `Request` or a Node `IncomingMessage` (see node.ts).
 * The pipeline reads only through this, so both inputs run the same steps; the `Request` that user
 * code receives (`request`) is built by a Node source only when it is asked for.
 */
export interface RequestSource {
  readonly method: string;
  /**
   * The absolute URL for an app mounted at `basePath`, or `null` when none can be built
   * (malformed Host, bad request target). With `trustForwarded` (config `trustHost`), a source that
   * sees raw headers takes the origin from `X-Forwarded-Proto`/`-Host`.
   */
  url(basePath: string, trustForwarded: boolean): string | null;
  /** A header value (`name` in lower case), or `null`. */
  header(name: string): string | null;
  /** The body as text, at most {@link MAX_BODY_BYTES}; `null` when larger or unreadable. */
  text(): Promise<string | null>;
  readonly headers: Headers;
  /** The request as user code sees it (lazy configs, `authorize`, e-mail senders). */
  readonly request: Request;
  /** {@link request} with its body readable: a Node source reads the body first. */
  requestWithBody(): Request | Promise<Request>;
  /**
   * The client's IP address as the integration knows it honestly (a socket address, Express's
   * `req.ip` under its `trust proxy` setting, SvelteKit's `getClientAddress()`); never read from an
   * unvalidated `X-Forwarded-For`, which any client can set. Rate limits count per IP only with it.
   */
  readonly clientIp?: string | undefined;
  /**
   * True only for the sources Tessera's in-process server functions build (`listSessions`,
   * `revokeSession`, …): the call comes from the app's server code, which answers for CSRF (Next.js
   * server actions and SvelteKit form actions check the origin), so no CSRF token is asked for.
   * Nothing in a request can set it.
   */
  readonly inProcess?: boolean;
}

/** A `Request` as a {@link RequestSource}: every part is there already. */
export function fetchSource(request: Request, clientIp?: string): RequestSource {
  return new FetchRequestSource(request, clientIp);
}

/** A class, not a literal of closures: one object per request instead of five. */
class FetchRequestSource implements RequestSource {
  readonly method: string;

  constructor(
    readonly request: Request,
    readonly clientIp: string | undefined,
  ) {
    this.method = request.method;
  }

  url(): string {
    return this.request.url;
  }

  header(name: string): string | null {
    return this.request.headers.get(name);
  }

  text(): Promise<string | null> {
    return readLimited(this.request);
  }

  get headers(): Headers {
    return this.request.headers;
  }

  requestWithBody(): Request {
    return this.request;
  }
}

async function parseBody(
  source: RequestSource,
): Promise<Record<string, unknown> | undefined | null> {
  const contentType = source.header("content-type") ?? "";
  const isJson = contentType.includes("application/json");
  const isForm = contentType.includes("application/x-www-form-urlencoded");
  if (!isJson && !isForm) return undefined;
  const text = await source.text();
  if (text === null) return null;
  if (isForm) return Object.fromEntries(new URLSearchParams(text));
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return parsed && typeof parsed === "object" && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : null;
}

/** Parses cookies; never throws (malformed pairs and bad percent-encoding are skipped). */
export function parseCookies(header: string | null): Record<string, string> {
  if (!header) return {};
  try {
    const parsed = parseCookieHeader(header);
    const out: Record<string, string> = {};
    for (const name in parsed) {
      const value = parsed[name];
      if (value !== undefined) out[name] = value;
    }
    return out;
  } catch {
    return {};
  }
}

/**
 * Parses `request` (a `Request` or a {@link RequestSource}) for an app mounted at `basePath`. With
 * `origin` (from `AUTH_URL`), the parsed URL has that origin instead of the request's, whatever
 * its Host headers said. `trustForwarded` lets a Node source take its origin from
 * `X-Forwarded-*` (a `Request` already has its URL).
 *
 * @example
 * ```ts
 * const parsed = await parseRequest(new Request("http://localhost/auth/session"), "/auth")
 * parsed?.action // "session"
 * ```
 */
export function parseRequest(
  request: Request | RequestSource,
  basePath: string,
  origin?: string,
  trustForwarded = false,
  routes: ActionRoutes = CORE_ROUTES,
): RequestInternal | null | Promise<RequestInternal | null> {
  const source = "requestWithBody" in request ? request : fetchSource(request);
  const method = source.method.toUpperCase();
  if (method !== "GET" && method !== "POST") return null;
  let url: URL;
  try {
    const href = source.url(basePath, trustForwarded);
    if (href === null) return null;
    url = new URL(href);
    // Magic-link poisoning: with AUTH_URL set, a forged Host header must not reach any URL we build.
    // (`origin` has no trailing slash, so a path such as `//evil.test` stays a path.)
    if (origin !== undefined) url = new URL(`${origin}${url.pathname}${url.search}`);
  } catch {
    return null;
  }
  const route = parseActionAndProviderId(url.pathname, basePath, routes);
  if (!route) return null;
  const inProcess = source.inProcess === true;
  // An action reachable only from server code is not there for HTTP clients, and the other way round.
  const reach = route.route.reach;
  if (reach !== "both" && (reach === "in-process") !== inProcess) return null;
  // `url.searchParams` builds a URLSearchParams object; most requests have no query at all.
  const query: Record<string, string> = url.search ? Object.fromEntries(url.searchParams) : {};
  const parsed = new ParsedRequest(source, url, method, route.action, route.route, query);
  if (route.providerId !== undefined) parsed.providerId = route.providerId;
  if (query.error !== undefined) parsed.error = query.error;
  if (route.subAction !== undefined) parsed.subAction = route.subAction;
  if (source.clientIp) parsed.clientIp = source.clientIp;
  if (inProcess) parsed.inProcess = true;
  // Only a POST waits for its body: a GET (every session read) is parsed without a promise.
  if (method !== "POST") return parsed;
  return parseBody(source).then((body) => {
    if (body === null) return null;
    if (body !== undefined) parsed.body = body;
    return parsed;
  });
}

/**
 * A parsed request. A class rather than an object literal: a literal with getters is built in
 * V8's slow mode on every request, and getters are needed so that a Node source builds its
 * `Headers` and `Request` only when something reads them.
 */
class ParsedRequest implements RequestInternal {
  declare providerId?: string;
  declare body?: Record<string, unknown>;
  declare error?: string;
  declare subAction?: string;
  declare clientIp?: string;
  declare inProcess?: true;
  cookies: Record<string, string>;
  readonly #source: RequestSource;

  constructor(
    source: RequestSource,
    public url: URL,
    public method: "GET" | "POST",
    public action: string,
    public route: ActionRoute,
    public query: Record<string, string>,
  ) {
    this.#source = source;
    this.cookies = parseCookies(source.header("cookie"));
  }

  get request(): Request {
    return this.#source.request;
  }

  get headers(): Headers {
    return this.#source.headers;
  }
}
