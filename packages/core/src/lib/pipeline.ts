/**
 * The request pipeline, top to bottom:
 *
 *   parse → resolve config → assert → CSRF / callback URL → action → ResponseInternal → Response
 *
 * Only this file knows the order. Parsing is here, first: every request walks through it, a
 * `Request` (`fetchSource`) and a Node request (node.ts) alike. Nothing in it throws on hostile
 * input: a request that cannot be understood yields `null` and is answered with 400. The later
 * steps that only some requests take (CSRF, callback URL, the actions) live in their own modules.
 */

import {
  AuthError,
  CredentialsSignin,
  EmailSignInError,
  ErrorPageLoop,
  errorPageParam,
  InvalidCallbackUrl,
  isClientError,
  RateLimited,
} from "../errors.js";
import type {
  AuthAction,
  AuthConfig,
  Cookie,
  CookiesOptions,
  LoggerInstance,
  ResponseInternal,
} from "../types.js";
import { type ActionRoute, CORE_ACTION_ROUTES } from "./actions/routes.js";
import { isDevelopmentEnv, processEnv, untrustedHost } from "./config/env.js";
import type {
  ActionRoutes,
  ActionTable,
  AuthContext,
  InternalProvider,
  ParsedRoute,
  RequestInternal,
  RequestSource,
  ResolvedConfig,
} from "./config/internal.js";
import { resolveConfig } from "./config/resolve.js";
import { resolveCallbackUrl } from "./http/callback-url.js";
import { parseCookies, serializeSetCookie } from "./http/cookies.js";
import { CONFIGURATION_MESSAGE, json } from "./http/response.js";
import { raw } from "./symbols.js";

// --- step 1: parse the request ----------------------------------------------------------------

/** The routes of the core's actions, for configurations without extension rows. */
const CORE_ROUTES: ReadonlyMap<string, ActionRoute> = new Map(Object.entries(CORE_ACTION_ROUTES));

/** Bodies beyond this are refused (memory exhaustion by oversized posts). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** True when `value` names an action of the core. */
export function isAuthAction(value: string): value is AuthAction {
  return CORE_ROUTES.has(value);
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

// --- steps 2 to 6: resolve, check, run the action, answer ------------------------------------

/** A configuration, or a function building one per request (lazy initialisation). */
export type ConfigOrFactory = AuthConfig | ((request: Request) => AuthConfig | Promise<AuthConfig>);

/**
 * The context of one request. A class, so that every context has the same shape and `url` can be
 * parsed on first use (most actions never read it) without making the object slow to build.
 */
class RequestContext implements AuthContext {
  csrfToken?: string;
  csrfTokenVerified: boolean;
  callbackUrl: string;
  readonly responseCookies: Cookie[] = [];
  readonly logger: LoggerInstance;
  #url: URL | undefined;
  #providers: InternalProvider[] | undefined;
  #provider: InternalProvider | undefined | null;
  readonly #origin: string;

  constructor(
    readonly config: ResolvedConfig,
    readonly request: RequestInternal,
    readonly cookies: CookiesOptions,
    readonly secureCookies: boolean,
    origin: string,
  ) {
    this.#origin = origin;
    this.logger = config.logger;
    // An in-process call comes from the app's own server code, not from a browser form.
    this.csrfTokenVerified = config.csrfDisabled || request.inProcess === true;
    this.callbackUrl = origin;
  }

  get url(): URL {
    this.#url ??= new URL(`${this.request.url.origin}${this.config.basePath}`);
    return this.#url;
  }

  /** Looked up on first use: a session read never needs the providers. */
  get providers(): InternalProvider[] {
    this.#providers ??= this.config.providersFor(this.#origin);
    return this.#providers;
  }

  get provider(): InternalProvider | undefined {
    if (this.#provider !== undefined) return this.#provider ?? undefined;
    const id = this.request.providerId;
    if (id === undefined) return undefined;
    this.#provider = this.providers.find((p) => p.id === id) ?? null;
    return this.#provider ?? undefined;
  }

  /** A resumed sign-in names its provider itself (session/sign-in.ts). */
  set provider(provider: InternalProvider | undefined) {
    this.#provider = provider ?? null;
  }
}

/** Builds the per-request context: cookies policy, providers, CSRF state, callback URL. */
function createContext(
  config: ResolvedConfig,
  request: RequestInternal,
): AuthContext | Promise<AuthContext> {
  const { url: requestUrl, route, method } = request;
  const secureCookies = config.source.useSecureCookies ?? requestUrl.protocol === "https:";
  const cookies = config.cookies[secureCookies ? 1 : 0];
  // Read once: `URL#origin` builds a new string on every access.
  const origin = requestUrl.origin;
  const ctx = new RequestContext(config, request, cookies, secureCookies, origin);

  // In-process calls skip the double-submit check, except that the csrf action still hands out a
  // token: a server-rendered form (a React Router loader's, …) posts it to the HTTP routes.
  const needsCsrf =
    !config.csrfDisabled &&
    (request.inProcess !== true || request.action === "csrf") &&
    (route.csrf === "all" || (route.csrf === "post" && method === "POST"));
  const needsCallbackUrl = route.callbackUrl;
  // Synchronous when neither a CSRF token nor a callback URL is at stake (session reads,
  // providers): most requests then build their context without a promise.
  if (!needsCsrf && !needsCallbackUrl) return ctx;
  return prepareFlow(ctx, needsCsrf, needsCallbackUrl);
}

/**
 * The CSRF check, loaded with the first request that needs a CSRF token: a session read needs
 * none, so an app loads one module fewer before its first request. Kept once loaded; a failed
 * load is retried by the next request.
 */
let csrfCheck: Promise<typeof import("./http/csrf.js")> | undefined;

function loadCsrfCheck(): Promise<typeof import("./http/csrf.js")> {
  csrfCheck ??= import("./http/csrf.js").catch((cause: unknown) => {
    csrfCheck = undefined;
    throw cause;
  });
  return csrfCheck;
}

/** The CSRF state and callback URL of a flow that needs them (see {@link createContext}). */
async function prepareFlow(
  ctx: RequestContext,
  needsCsrf: boolean,
  needsCallbackUrl: boolean,
): Promise<AuthContext> {
  const { config, request, cookies } = ctx;
  const method = request.method;
  if (needsCsrf) {
    const { verifyCsrfToken } = await loadCsrfCheck();
    const state = await verifyCsrfToken({
      cookieValue: request.cookies[cookies.csrfToken.name],
      bodyValue: request.body?.csrfToken,
      isPost: method === "POST",
      secrets: config.secrets,
      cookie: cookies.csrfToken,
      from: request,
    });
    if (state.refusal) ctx.logger.debug(state.refusal);
    ctx.csrfToken = state.token;
    ctx.csrfTokenVerified = state.verified;
    if (state.cookie) ctx.responseCookies.push(state.cookie);
  }

  if (needsCallbackUrl) {
    const { callbackUrl, cookie } = await resolveCallbackUrl({
      paramValue: request.body?.callbackUrl ?? request.query.callbackUrl,
      queryValue: request.query.callbackUrl,
      cookieValue: request.cookies[cookies.callbackUrl.name],
      baseUrl: request.url.origin,
      redirect: config.callbacks.redirect,
      cookie: cookies.callbackUrl,
    });
    ctx.callbackUrl = callbackUrl;
    if (cookie) ctx.responseCookies.push(cookie);
  }
  return ctx;
}

/** Runs the handler of the request's row, when the row serves the request's method. */
function runAction(
  table: ActionTable,
  ctx: AuthContext,
): Promise<ResponseInternal> | ResponseInternal {
  const { action, method } = ctx.request;
  // The parsed action names a row of this table: parsing looked it up there.
  const row = table.get(action);
  if (row === undefined || !row.methods.includes(method)) {
    ctx.logger.debug(`${method} is not supported for the "${action}" action`);
    return json("Bad request.", 400);
  }
  return row.handler(ctx);
}

/**
 * The response for a configuration error: generic for the browser, the cause in the log. The
 * error page and its stylesheet load with the first one: a working app never loads them.
 */
async function configurationErrorResponse(
  config: ResolvedConfig,
  request: RequestInternal,
  error: Error,
): Promise<ResponseInternal> {
  config.logger.error(error);
  if (!request.route.page || request.method !== "GET") {
    return json(
      {
        message: CONFIGURATION_MESSAGE,
      },
      500,
    );
  }
  // Host header injection: an untrusted host is attacker-chosen, so the answer neither redirects
  // to it (not even to pages.error: the built-in page needs no host) nor names it (Auth.js does).
  const hostTrusted = config.trustHost;
  const errorPath = config.pages.error;
  const loops = errorPath && request.query.callbackUrl?.startsWith(errorPath);
  if (errorPath && !loops && hostTrusted)
    return { redirect: `${request.url.origin}${errorPath}?error=Configuration` };
  if (loops)
    config.logger.error(
      new ErrorPageLoop(`The error page ${errorPath} must not require authentication.`),
    );
  const detail = hostTrusted ? `${error.name}: ${error.message}` : error.name;
  const [{ renderErrorPage }, { coreTranslator }] = await Promise.all([
    import("./pages/index.js"),
    import("./i18n/core/translator.js"),
  ]);
  return renderErrorPage({
    url: hostTrusted ? new URL(`${request.url.origin}${config.basePath}`) : undefined,
    theme: config.theme,
    error: "Configuration",
    ...(config.debug && isDevelopmentEnv(processEnv()) && { detail }),
    t: await coreTranslator({ config, request }),
  });
}

/** The longest typed address sent back to the sign-in page (longer ones are no address). */
const MAX_TYPED_ADDRESS = 320;

/** The redirect (or JSON) that ends a flow which threw. */
function errorRedirect(
  config: ResolvedConfig,
  request: RequestInternal,
  error: Error,
  cookies: Cookie[],
): ResponseInternal {
  // POST /session is an API call: no page to redirect to.
  if (request.method === "POST" && request.action === "session")
    return { ...json(null, 400), cookies };
  // A malformed callbackUrl is bad input, not a failed flow: no page to send the browser to.
  if (error instanceof InvalidCallbackUrl) return { ...json("Bad request.", 400), cookies };
  const type = isClientError(error) ? errorPageParam(error) : "Configuration";
  const params = new URLSearchParams({ error: type });
  if (error instanceof CredentialsSignin) params.set("code", error.code);
  if (error instanceof EmailSignInError && error.code) {
    // A refused address: the sign-in page says why and shows the address again to correct.
    params.set("code", error.code);
    const typed = request.body?.email;
    if (typeof typed === "string" && typed.length <= MAX_TYPED_ADDRESS) params.set("email", typed);
  }
  const kind = error instanceof AuthError ? error.kind : "error";
  const page =
    (kind === "signIn" ? config.pages.signIn : config.pages.error) ??
    `${config.basePath}/${kind === "signIn" ? "signin" : "error"}`;
  const separator = page.includes("?") ? "&" : "?";
  return { redirect: `${request.url.origin}${page}${separator}${params}`, cookies };
}

/** An error that raw mode hands to the integration on purpose (see the end of `run`). */
class RawError {
  constructor(readonly error: AuthError) {}
}

/**
 * Writes the answer: `toResponse` for a `Request`, the Node writer for a Node request. Raw mode
 * skips it and hands the data back.
 */
export type Responder<T> = (
  internal: ResponseInternal,
  returnRedirectAsJson: boolean,
  onProblem?: WriteProblem,
) => T;

/**
 * Runs one request through Tessera. Returns a `Response`, or the internal response data when the
 * config carries the `raw` symbol. Never rejects (but for the `AuthError`s raw mode throws on
 * purpose): whatever escapes the pipeline is logged and answered with a plain JSON error.
 */
export function handleRequest(
  request: Request,
  configOrFactory: ConfigOrFactory,
  clientIp?: string,
  reshape?: (internal: ResponseInternal) => ResponseInternal,
): Promise<Response | ResponseInternal> {
  const respond: Responder<Response> = reshape
    ? (internal, asJson, onProblem) => toResponse(reshape(internal), asJson, onProblem)
    : toResponse;
  return handleSource(fetchSource(request, clientIp), configOrFactory, respond);
}

/**
 * {@link handleRequest} for any request source (a `Request` or a Node request), answered through
 * `respond`: one flow, parse → config → action → answer, whatever the input and output.
 */
export async function handleSource<T>(
  source: RequestSource,
  configOrFactory: ConfigOrFactory,
  respond: Responder<T>,
): Promise<T | ResponseInternal> {
  try {
    return await run(source, configOrFactory, respond);
  } catch (error) {
    if (error instanceof RawError) throw error.error;
    // Denial of service: a request that makes the pipeline throw must not reject Auth(), which
    // kills a bare node:http server; the answer never carries the error or its stack.
    console.error("[tessera][error] A request escaped the pipeline:", error);
    const internal = isClientError(error)
      ? json("Bad request.", 400)
      : json({ message: CONFIGURATION_MESSAGE }, 500);
    const isRaw = typeof configOrFactory !== "function" && configOrFactory.raw === raw;
    return isRaw ? internal : respond(internal, false);
  }
}

async function run<T>(
  source: RequestSource,
  configOrFactory: ConfigOrFactory,
  respond: Responder<T>,
): Promise<T | ResponseInternal> {
  let config: AuthConfig;
  try {
    config =
      typeof configOrFactory === "function"
        ? await configOrFactory(await source.requestWithBody())
        : configOrFactory;
  } catch (error) {
    // A lazy config that throws must not become an unhandled exception (or a stack trace). There
    // is no configured logger yet, so the cause goes to the console.
    console.error("[tessera][error] The lazy configuration function threw:", error);
    return respond(json({ message: CONFIGURATION_MESSAGE }, 500), false);
  }
  const resolved = resolveConfig(config);
  const isRaw = config.raw === raw;
  // Looked up only when a redirect or an error needs it: most answers are neither.
  const returnRedirectAsJson = () => source.header("x-auth-return-redirect") !== null;
  const finish = (internal: ResponseInternal) =>
    isRaw
      ? internal
      : respond(internal, internal.redirect !== undefined && returnRedirectAsJson(), (problem) =>
          resolved.logger.error(problem),
        );

  // Awaited only when pending (a POST body): a session read runs through without a promise.
  const table = resolved.actionTable;
  const parsing = parseRequest(
    source,
    resolved.basePath,
    resolved.origin,
    resolved.trustHost,
    table,
  );
  const parsed = parsing instanceof Promise ? await parsing : parsing;
  if (!parsed) {
    resolved.logger.debug("unparseable request", { method: source.method });
    return finish(json("Bad request.", 400));
  }
  const configError =
    resolved.configError ?? (resolved.trustHost ? undefined : untrustedHost(parsed.url.origin));
  if (configError) return finish(await configurationErrorResponse(resolved, parsed, configError));

  let ctx: AuthContext | undefined;
  try {
    const created = createContext(resolved, parsed);
    ctx = created instanceof Promise ? await created : created;
    const internal = await runAction(table, ctx);
    if (ctx.responseCookies.length)
      internal.cookies = [...ctx.responseCookies, ...(internal.cookies ?? [])];
    return finish(internal);
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    resolved.logger.error(error);
    if (isRaw && error instanceof AuthError && !returnRedirectAsJson()) throw new RawError(error);
    const failed = errorRedirect(resolved, parsed, error, ctx?.responseCookies ?? []);
    // Over a sign-in rate limit: the wait goes with every answer; API clients get 429.
    const limited = error instanceof RateLimited;
    if (limited) failed.headers = { ...failed.headers, "Retry-After": String(error.retryAfter) };
    // Asked for JSON, a failed flow answers `{url}` without a Location header, as @auth/core does.
    if (!isRaw && failed.redirect !== undefined && returnRedirectAsJson())
      return finish({
        ...json({ url: failed.redirect }, limited ? 429 : 200, failed.headers),
        cookies: failed.cookies ?? [],
      });
    return finish(failed);
  }
}

// --- last step: write the answer ----------------------------------------------------------------
// `ResponseInternal` (status, headers, body, redirect and cookies as data) becomes a standard
// `Response`; the Node writer (node.ts) takes the same plan (`planResponse`).

/** RFC 6265 §4.1.1 cookie-name as the `cookie` library accepts it: visible ASCII but `;` and `=`. */
const COOKIE_NAME = /^[!-:<>-~]+$/;

/** Receives what the writer had to drop or replace, for the server log. */
export type WriteProblem = (error: Error) => void;

const LONE_SURROGATE = /[\ud800-\udfff]/gu;

/**
 * `encodeURIComponent` that never throws: a lone UTF-16 surrogate (which it refuses) becomes
 * U+FFFD first, as `String#toWellFormed` would do.
 */
function safeEncodeURIComponent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(LONE_SURROGATE, "\ufffd"));
  }
}

/**
 * The `; Path=/; HttpOnly; …` part of a `Set-Cookie` line per options object. The cookie policy's
 * option objects are made once per config, and serialising them is most of the cost of a cookie.
 */
const attributesCache = new WeakMap<object, string>();

function serializeCookie({ name, value, options }: Cookie): string {
  // Dates change per cookie and custom encoders are the application's: serialised in full.
  if (!options || options.expires || options.encode || !COOKIE_NAME.test(name))
    return serializeSetCookie(
      name,
      value,
      options?.encode ? options : { ...options, encode: safeEncodeURIComponent },
    );
  let attributes = attributesCache.get(options);
  if (attributes === undefined) {
    // Every option is validated here, once, and throws as it would per cookie.
    attributes = serializeSetCookie("n", "", options).slice(2);
    attributesCache.set(options, attributes);
  }
  // encodeURIComponent only emits characters a cookie value may hold: nothing to validate.
  return `${name}=${value ? safeEncodeURIComponent(value) : ""}${attributes}`;
}

/**
 * Serialises cookies as `Set-Cookie` header values (as `cookie`'s `serialize` writes them: see
 * http/cookies.ts). Never
 * throws: a cookie whose name or options cannot be written is dropped and reported to `onProblem`.
 *
 * @example
 * ```ts
 * serializeCookies([{ name: "a", value: "/☃", options: { path: "/" } }]) // ["a=%2F%E2%98%83; Path=/"]
 * ```
 */
export function serializeCookies(cookies: readonly Cookie[], onProblem?: WriteProblem): string[] {
  const lines: string[] = [];
  for (const cookie of cookies) {
    try {
      lines.push(serializeCookie(cookie));
    } catch (error) {
      onProblem?.(
        new TypeError(`Cookie "${cookie.name}" could not be written and was dropped.`, {
          cause: error,
        }),
      );
    }
  }
  return lines;
}

/** RFC 9110 §5.6.2 token: what a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What Fetch's `Headers` and Node's `setHeader` accept in a value (no NUL, CR, LF or > U+00FF). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const LINE_BREAKS = /[\t\r\n]/g;
const NOT_URL_SAFE = /[^\x21-\x7e]+/g;

/**
 * `value` as header `name` can carry it, or `undefined` when it cannot. A `Location` is
 * percent-encoded (RFC 3986 §2.1) after dropping tabs and line breaks, as URL parsers do;
 * any other header with a character a header cannot hold is dropped (response splitting).
 *
 * @example
 * ```ts
 * safeHeaderValue("Location", "https://app.test/привет") // "https://app.test/%D0%BF%D1%80…"
 * safeHeaderValue("X-Note", "a\r\nSet-Cookie: x=1") // undefined
 * ```
 */
export function safeHeaderValue(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return undefined;
  if (name.length === 8 && name.toLowerCase() === "location")
    return value
      .replace(LINE_BREAKS, "")
      .replace(NOT_URL_SAFE, (run) => safeEncodeURIComponent(run));
  return HEADER_VALUE.test(value) ? value : undefined;
}

/** The value of header `name` (any case) in header data, as `Headers#get` would find it. */
function headerValue(
  headers: Record<string, string> | undefined,
  name: string,
): string | undefined {
  if (!headers) return undefined;
  for (const key in headers)
    if (key.length === name.length && key.toLowerCase() === name) return headers[key];
  return undefined;
}

/** Adds a header, through {@link safeHeaderValue} when sanitising (then reporting a drop). */
function pushHeader(
  pairs: [string, string][],
  name: string,
  value: string,
  sanitize: WriteProblem | undefined,
): void {
  if (!sanitize) {
    pairs.push([name, value]);
    return;
  }
  const safe = safeHeaderValue(name, value);
  if (safe !== undefined) pairs.push([name, safe]);
  else sanitize(new TypeError(`Header "${name}" holds characters a header cannot carry; dropped.`));
}

/** Whether every header would pass {@link safeHeaderValue} unchanged. */
function allSafe(headers: Record<string, string> | undefined): boolean {
  for (const name in headers)
    if (safeHeaderValue(name, headers[name] as string) !== headers[name]) return false;
  return true;
}

/**
 * Header data plus `Set-Cookie` lines and overrides, as the `HeadersInit` a `Response` takes.
 * Passing plain data rather than a `Headers` object saves undici a second copy of every header.
 * With `sanitize`, every value goes through {@link safeHeaderValue} first.
 */
function headersInit(
  headers: Record<string, string> | undefined,
  setCookies: readonly string[] | undefined,
  overrides: Record<string, string> | undefined,
  sanitize: WriteProblem | undefined,
): Record<string, string> | [string, string][] | undefined {
  // Most answers carry only their own valid headers: the record is passed on as it is, which
  // spares an array of pairs and undici's slower conversion of one.
  if (!setCookies?.length && !overrides && (!sanitize || allSafe(headers))) return headers;
  const pairs: [string, string][] = [];
  for (const name in headers) {
    // An override replaces the header whatever its case, as `Headers#set` does.
    if (overrides && headerValue(overrides, name.toLowerCase()) !== undefined) continue;
    pushHeader(pairs, name, headers[name] as string, sanitize);
  }
  for (const name in overrides) pushHeader(pairs, name, overrides[name] as string, sanitize);
  if (setCookies) for (const value of setCookies) pairs.push(["Set-Cookie", value]);
  return pairs;
}

/** A body `Response` takes, named without the DOM library (published types stay Node-only). */
type ResponseBody = ConstructorParameters<typeof Response>[0];

/**
 * What an answer is made of, decided once for both writers (`toResponse` and the Node writer) so
 * that the two cannot drift: the status, the header data and the body.
 */
export interface ResponsePlan {
  status: number;
  headers: Record<string, string> | [string, string][] | undefined;
  body: string | Uint8Array | ResponseBody | null;
}

/**
 * Decides status, headers and body. A redirect becomes `302 Location` (or the status it names);
 * with `returnRedirectAsJson` it becomes `200 {"url": …}` and keeps `Location`, as Auth.js sends
 * it (with status 200 no client follows it). A JSON content type serialises `body`.
 */
export function planResponse(
  internal: ResponseInternal,
  setCookies: readonly string[] | undefined,
  returnRedirectAsJson: boolean,
  sanitize: WriteProblem | undefined,
): ResponsePlan {
  const { headers } = internal;
  if (internal.redirect !== undefined) {
    if (returnRedirectAsJson)
      return {
        status: 200,
        headers: headersInit(
          headers,
          setCookies,
          { "Content-Type": "application/json", Location: internal.redirect },
          sanitize,
        ),
        body: JSON.stringify({ url: internal.redirect }),
      };
    return {
      status: internal.status ?? 302,
      headers: headersInit(headers, setCookies, { Location: internal.redirect }, sanitize),
      body: null,
    };
  }
  let body: ResponsePlan["body"] = null;
  if (headerValue(headers, "content-type")?.startsWith("application/json"))
    body = JSON.stringify(internal.body ?? null);
  else if (internal.body !== undefined && internal.body !== null)
    body = internal.body as ResponseBody;
  return {
    status: internal.status ?? 200,
    headers: headersInit(headers, setCookies, undefined, sanitize),
    body,
  };
}

function buildResponse(
  internal: ResponseInternal,
  setCookies: readonly string[] | undefined,
  returnRedirectAsJson: boolean,
  sanitize: WriteProblem | undefined,
): Response {
  const plan = planResponse(internal, setCookies, returnRedirectAsJson, sanitize);
  return new Response(plan.body as ResponseBody, { status: plan.status, headers: plan.headers });
}

/** The body of the answer when no other can be built (never the error itself). */
export const CONFIGURATION_ERROR_BODY = JSON.stringify({ message: CONFIGURATION_MESSAGE });

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * Builds the `Response`. With `returnRedirectAsJson` (header `X-Auth-Return-Redirect`), a redirect
 * becomes `200 {"url": …}` (with the `Location` header kept) so that client-side code can
 * navigate itself.
 *
 * Never throws, whatever the values: a cookie or header that cannot be written is dropped (a
 * `Location` is percent-encoded), and a response that still cannot be built (a body that is not
 * JSON, an impossible status) becomes a plain 500 `{message}`. `onProblem` hears about each.
 *
 * @example
 * ```ts
 * toResponse({ redirect: "http://localhost:3000/" }).headers.get("Location") // "http://localhost:3000/"
 * ```
 */
export function toResponse(
  internal: ResponseInternal,
  returnRedirectAsJson = false,
  onProblem?: WriteProblem,
): Response {
  const setCookies = internal.cookies?.length
    ? serializeCookies(internal.cookies, onProblem)
    : undefined;
  try {
    return buildResponse(internal, setCookies, returnRedirectAsJson, undefined);
  } catch {
    // `Headers` refused a value: build again, dropping (or encoding) the culprits.
  }
  try {
    return buildResponse(internal, setCookies, returnRedirectAsJson, onProblem ?? (() => {}));
  } catch (error) {
    onProblem?.(asError(error));
  }
  return new Response(CONFIGURATION_ERROR_BODY, {
    status: 500,
    headers: { "Content-Type": "application/json" },
  });
}
