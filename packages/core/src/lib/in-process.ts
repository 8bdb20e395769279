/**
 * Actions run in-process, for server code: `callAction` runs any row of the action table that may
 * run in-process, through the same pipeline as an HTTP request, and answers the `ResponseInternal`
 * the HTTP edge would turn into a `Response`. Integrations (`auth()`, `signIn`, `signOut`, session
 * reads, `listSessions`, …) use it instead of building a `Request`; the incoming request's cookies,
 * client IP and headers go through as they are, only the method, path and body are the call's.
 * No CSRF token is asked for: server code calls these, and answers for CSRF itself (Next.js server
 * actions and SvelteKit form actions check the origin). The `csrf` action still hands one out, for
 * server-rendered forms that post to the HTTP routes.
 */
import { AuthError } from "../errors.js";
import type { AuthAction, AuthConfig, Cookie, ResponseInternal } from "../types.js";
import type { AccessTokenAnswer } from "./actions/access-token.js";
import type { RequestSource } from "./config/internal.js";
import { assertStartupConfig, resolveConfig } from "./config/resolve.js";
import { type ConfigOrFactory, fetchSource, handleSource } from "./pipeline.js";
import type { AccessToken, AccessTokenOptions, RequestHead } from "./session/access-token.js";
import type { ListedSession } from "./session/devices.js";

/** What server code asks of an action. */
export interface ActionCall {
  /** A core action, or the name of an extension's row. */
  action: AuthAction | (string & {});
  /** The provider id that follows the action (`/signin/<providerId>`). */
  providerId?: string;
  /** The sub-path that follows the action (`revoke` in `/sessions/revoke`). */
  subPath?: string;
  /** Default: POST with a body, else GET. */
  method?: "GET" | "POST";
  /** A form (sent as `application/x-www-form-urlencoded`) or an object (sent as JSON). */
  body?: URLSearchParams | Record<string, unknown>;
  /** Query parameters (e.g. a provider's authorization parameters). */
  query?: URLSearchParams;
}

/** The incoming request an in-process call acts for. A `Request` is one. */
export interface IncomingRequestParts {
  /** The request's absolute URL (its origin picks the cookie names: `__Secure-` on https). */
  url: string | URL;
  headers: Headers;
}

/** What {@link callAction} is given: the call, and the request it is made for. */
export interface InProcessCall extends ActionCall {
  /** The incoming request's absolute URL; only its origin is used. */
  url: string | URL;
  /** The incoming request's headers (user agent, host, …); default none. */
  headers?: Headers;
  /** The `Cookie` header to act with; default the one in `headers`. */
  cookies?: string;
  /** The client's IP address, when the integration knows it honestly. */
  clientIp?: string;
}

/**
 * A source for `parts`: a `Request` as it is, or URL and headers (Next.js server components
 * have no `Request`), with the client IP when the integration knows it.
 */
export function incomingSource(
  parts: Request | IncomingRequestParts,
  clientIp?: string,
): RequestSource {
  if (parts instanceof Request) return fetchSource(parts, clientIp);
  return new HeadersSource(String(parts.url), parts.headers, clientIp);
}

/** URL and headers as a GET {@link RequestSource}; its `Request` is built only when asked for. */
class HeadersSource implements RequestSource {
  readonly method = "GET";
  #request: Request | undefined;

  constructor(
    readonly href: string,
    readonly headers: Headers,
    readonly clientIp: string | undefined,
  ) {}

  url(): string {
    return this.href;
  }

  header(name: string): string | null {
    return this.headers.get(name);
  }

  async text(): Promise<string> {
    return "";
  }

  get request(): Request {
    this.#request ??= new Request(this.href, { headers: this.headers });
    return this.#request;
  }

  requestWithBody(): Request {
    return this.request;
  }
}

/** Headers that describe a body: the incoming request's do not describe the call's. */
const BODY_HEADERS = new Set([
  "content-length",
  "content-type",
  "transfer-encoding",
  "content-encoding",
]);

/**
 * `base` (the incoming request) turned into the request of `call`: same client, the call's method,
 * path and body. The `Request` handed to user code (a lazy config, `authorize`) is built only when
 * asked for.
 */
class InProcessSource implements RequestSource {
  readonly method: "GET" | "POST";
  readonly inProcess = true;
  readonly clientIp: string | undefined;
  readonly #base: RequestSource;
  readonly #call: ActionCall;
  readonly #cookies: string | undefined;
  readonly #contentType: string | null;
  readonly #body: string;
  #href: string | undefined;
  #headers: Headers | undefined;
  #request: Request | undefined;

  constructor(base: RequestSource, call: ActionCall, cookies?: string, clientIp?: string) {
    this.#base = base;
    this.#call = call;
    this.#cookies = cookies;
    this.clientIp = clientIp ?? base.clientIp;
    const { body } = call;
    this.method = call.method ?? (body === undefined ? "GET" : "POST");
    if (body === undefined) {
      this.#contentType = null;
      this.#body = "";
    } else if (body instanceof URLSearchParams) {
      this.#contentType = "application/x-www-form-urlencoded";
      this.#body = body.toString();
    } else {
      this.#contentType = "application/json";
      this.#body = JSON.stringify(body);
    }
  }

  url(basePath: string, trustForwarded: boolean): string | null {
    const href = this.#base.url(basePath, trustForwarded);
    if (href === null) return null;
    const { action, providerId, subPath, query } = this.#call;
    let path = `${basePath.replace(/\/+$/, "")}/${action}`;
    if (providerId !== undefined) path += `/${encodeURIComponent(providerId)}`;
    if (subPath !== undefined) path += `/${subPath}`;
    const search = query?.toString();
    try {
      this.#href = `${new URL(href).origin}${path}${search ? `?${search}` : ""}`;
    } catch {
      return null;
    }
    return this.#href;
  }

  header(name: string): string | null {
    if (name === "content-type") return this.#contentType;
    if (name === "cookie" && this.#cookies !== undefined) return this.#cookies;
    // The answer is data for server code: never a redirect turned into JSON.
    if (name === "x-auth-return-redirect" || BODY_HEADERS.has(name)) return null;
    return this.#base.header(name);
  }

  async text(): Promise<string> {
    return this.#body;
  }

  get headers(): Headers {
    if (!this.#headers) {
      const headers = new Headers();
      for (const [name, value] of this.#base.headers)
        if (!BODY_HEADERS.has(name) && name !== "x-auth-return-redirect")
          headers.append(name, value);
      if (this.#cookies !== undefined) headers.set("cookie", this.#cookies);
      if (this.#contentType !== null) headers.set("content-type", this.#contentType);
      this.#headers = headers;
    }
    return this.#headers;
  }

  get request(): Request {
    this.#request ??= new Request(this.#href ?? this.url("", false) ?? "http://localhost/", {
      method: this.method,
      headers: this.headers,
      ...(this.method === "POST" && { body: this.#body }),
    });
    return this.#request;
  }

  requestWithBody(): Request {
    return this.request;
  }
}

/**
 * Runs `call` for the client of `base` (a `Request`'s or a Node request's source) and answers the
 * action's data. For integrations with a source of their own (the Node entry).
 */
export async function runInProcess(
  base: RequestSource,
  config: ConfigOrFactory,
  call: ActionCall,
  overrides: { cookies?: string; clientIp?: string } = {},
): Promise<ResponseInternal> {
  const source = new InProcessSource(base, call, overrides.cookies, overrides.clientIp);
  return (await handleSource(source, config, (data) => data)) as ResponseInternal;
}

/**
 * Runs an action in-process for server code and answers its data (`status`, `body`, `redirect`,
 * `cookies`) instead of a `Response`: the one way integrations reach the core. Actions whose row
 * is reachable over HTTP only (back-channel logout) answer 400. With the `raw` symbol in the
 * config, an `AuthError` that ends a flow is thrown to the caller, as `Auth()` does.
 *
 * @example
 * ```ts
 * const { body: session, cookies } = await callAction(config, {
 *   action: "session",
 *   url: "https://app.example/",
 *   cookies: request.headers.get("cookie") ?? "",
 * })
 * ```
 */
export function callAction(
  config: ConfigOrFactory,
  call: InProcessCall,
): Promise<ResponseInternal> {
  const { url, headers = new Headers(), cookies, clientIp, ...action } = call;
  const base = new HeadersSource(String(url), headers, clientIp);
  return runInProcess(base, config, action, cookies === undefined ? {} : { cookies });
}

/**
 * Runs one action in-process for a request already known to the runner (its URL, headers,
 * cookies and client IP): what an extension's server functions are written against, so that
 * every integration serves them through one runner of its own and no code per extension. The
 * answer's cookies are the integration's to set (integration runners set them themselves).
 */
export type ActionRunner = (call: ActionCall) => Promise<ResponseInternal>;

/** Options of {@link actionRunner}: what the integration knows about the request. */
export interface ActionRunnerOptions {
  /** The client's IP address, when the integration knows it honestly. */
  clientIp?: string;
  /**
   * Where the cookies of each answer go (a re-issued session, a cleared one): the integration's
   * response. Called only when an answer carries cookies. Without it they are left to the caller.
   */
  onCookies?: (cookies: Cookie[]) => void | Promise<void>;
}

/**
 * `run`, with the cookies of each answer handed to `onCookies` before the answer is returned:
 * how an integration binds the runner to the response it is building.
 *
 * @example
 * ```ts
 * const run = withAnswerCookies(actionRunner(request, config), (cookies) => setCookies(cookies))
 * ```
 */
export function withAnswerCookies(
  run: ActionRunner,
  onCookies: (cookies: Cookie[]) => void | Promise<void>,
): ActionRunner {
  return async (call) => {
    const answer = await run(call);
    if (answer.cookies?.length) await onCookies(answer.cookies);
    return answer;
  };
}

/**
 * An {@link ActionRunner} for the client of `request` (a `Request`, or URL and headers): the one
 * helper that binds an integration's request context to the in-process runner. Every server
 * function (`passkeysApi`, `twoFactorApi`, `passwordApi`, `organizationsApi`) takes the runner
 * it returns. The cookies each answer carries go to `options.onCookies`, else to the caller.
 *
 * @example
 * ```ts
 * const run = actionRunner(request, config, { onCookies: (cookies) => write(cookies) })
 * const { body } = await run({ action: "two-factor", subPath: "status" })
 * ```
 */
export function actionRunner(
  request: Request | IncomingRequestParts,
  config: ConfigOrFactory,
  options: ActionRunnerOptions = {},
): ActionRunner {
  const source = incomingSource(request, options.clientIp);
  const run: ActionRunner = (call) => runInProcess(source, config, call);
  return options.onCookies ? withAnswerCookies(run, options.onCookies) : run;
}

/**
 * Whether `config` serves an action named `action` (a core action or an extension's row), for
 * integrations that answer only the paths under the base path that Tessera serves (SvelteKit's
 * `handle` passes every other request on to the app). A config with an error answers true for
 * the core's actions only, so that their requests report the error.
 *
 * @example
 * ```ts
 * if (servesAction(config, "two-factor")) return Auth(request, config)
 * ```
 */
export function servesAction(config: AuthConfig, action: string): boolean {
  const resolved = resolveConfig(config);
  return resolved.actionTable.has(action);
}

/**
 * The action a server-side sign-in with `providerId` runs: `callback` for credentials (the form is
 * checked at once), `signin` for every other provider, `undefined` when no provider has that id.
 * A config with an error answers `signin`, whose run then reports the error.
 *
 * @example
 * ```ts
 * signInActionFor(config, "credentials", "https://app.example") // "callback"
 * ```
 */
export function signInActionFor(
  config: AuthConfig,
  providerId: string,
  origin: string,
): "signin" | "callback" | undefined {
  const resolved = resolveConfig(config);
  if (resolved.configError) return "signin";
  const provider = resolved.providersFor(origin).find((p) => p.id === providerId);
  if (!provider) return undefined;
  return provider.type === "credentials" ? "callback" : "signin";
}

/** What server code asks of the sessions action. */
export type SessionOperation =
  | { kind: "list" }
  | { kind: "revoke"; id: string }
  | { kind: "revoke-others" };

/** The answer of a revocation: how many sessions ended, and the cookies to set. */
export interface SessionRevocationResult {
  revoked: number;
  /** The cleared session cookie when the current session was revoked; set it on the response. */
  cookies: Cookie[];
}

/** `operation` as a call of the sessions action. */
function sessionsCall(operation: SessionOperation): ActionCall {
  if (operation.kind === "list") return { action: "sessions" };
  const body = operation.kind === "revoke" ? { id: operation.id } : { others: true };
  return { action: "sessions", subPath: "revoke", body };
}

/**
 * Runs `operation` for the client of `source`. Lists resolve to null when signed out;
 * revocations then revoke nothing. Throws an `AuthError` when the configuration cannot list
 * sessions (JWT strategy, an adapter without `listSessionsByUserId`) or the adapter failed.
 *
 * @example
 * ```ts
 * const list = await runSessionOperation(fetchSource(request), config, { kind: "list" })
 * ```
 */
export async function runSessionOperation(
  source: RequestSource,
  config: ConfigOrFactory,
  operation: SessionOperation,
): Promise<ListedSession[] | SessionRevocationResult | null> {
  const internal = await runInProcess(source, config, sessionsCall(operation));
  const status = internal.status ?? 200;
  if (status === 401) return operation.kind === "list" ? null : { revoked: 0, cookies: [] };
  if (status !== 200) {
    const message = (internal.body as { message?: unknown } | undefined)?.message;
    throw new AuthError(
      `The sessions action answered ${status}${typeof message === "string" ? ` (${message})` : ""}: listing and revoking sessions needs the database strategy and an adapter with listSessionsByUserId; the server log names the cause.`,
    );
  }
  if (operation.kind === "list") return internal.body as ListedSession[];
  const { revoked } = internal.body as { revoked: number };
  return { revoked, cookies: internal.cookies ?? [] };
}

/**
 * The signed-in user's sessions (database strategy), the current one first; null when signed out.
 * `request` is the incoming request (or its URL and headers); each entry's `id` is an opaque
 * handle for {@link revokeSession}.
 *
 * @example
 * ```ts
 * const sessions = await listSessions(request, config)
 * // [{ id, current: true, expires, createdAt, lastSeenAt, ip, userAgent }, …]
 * ```
 */
export async function listSessions(
  request: Request | IncomingRequestParts,
  config: ConfigOrFactory,
  options: { clientIp?: string } = {},
): Promise<ListedSession[] | null> {
  const source = incomingSource(request, options.clientIp);
  return (await runSessionOperation(source, config, { kind: "list" })) as ListedSession[] | null;
}

/**
 * Ends the signed-in user's session with handle `id` (from {@link listSessions}); a handle that
 * is unknown, already revoked or another user's revokes nothing. Revoking the current session
 * signs this device out: set the returned cookies on the response.
 *
 * @example
 * ```ts
 * const { revoked, cookies } = await revokeSession(request, config, id)
 * ```
 */
export async function revokeSession(
  request: Request | IncomingRequestParts,
  config: ConfigOrFactory,
  id: string,
  options: { clientIp?: string } = {},
): Promise<SessionRevocationResult> {
  const source = incomingSource(request, options.clientIp);
  return (await runSessionOperation(source, config, {
    kind: "revoke",
    id,
  })) as SessionRevocationResult;
}

/**
 * Ends every session of the signed-in user except the current one ("sign out everywhere else").
 *
 * @example
 * ```ts
 * const { revoked } = await revokeOtherSessions(request, config)
 * ```
 */
export async function revokeOtherSessions(
  request: Request | IncomingRequestParts,
  config: ConfigOrFactory,
  options: { clientIp?: string } = {},
): Promise<SessionRevocationResult> {
  const source = incomingSource(request, options.clientIp);
  return (await runSessionOperation(source, config, {
    kind: "revoke-others",
  })) as SessionRevocationResult;
}

/**
 * The access token of the signed-in user's account at `providerId`, refreshed first (with the
 * stored refresh token, RFC 6749 §6) when it has expired or expires within `oauth.refreshMargin`
 * seconds (default 60); `null` when the request has no session or its user has no such account.
 * Concurrent calls for one account refresh once (in this process; across processes with
 * `oauth.store`). Throws `RefreshTokenError` when the provider refuses the refresh token (the
 * user must sign in again; `events.refreshTokenError` fires).
 *
 * Database sessions: tokens live in the account row, refreshed ones are written back with
 * `adapter.updateAccount`. JWT sessions: the provider needs `refresh: true`; the token comes from
 * the session JWT, and a due refresh happens when the session is read (which re-issues the
 * cookie); pass `onCookies` to receive the re-issued cookie when this call refreshes.
 *
 * Runs the in-process `access-token` action, like every other server function.
 *
 * @example
 * ```ts
 * import { getAccessToken } from "@tessera/core"
 * const token = await getAccessToken(request, authConfig, "keycloak")
 * if (token) await fetch(api, { headers: { authorization: `Bearer ${token.accessToken}` } })
 * ```
 */
export async function getAccessToken(
  request: Request | RequestHead,
  config: ConfigOrFactory,
  providerId: string,
  options: AccessTokenOptions = {},
): Promise<AccessToken | null> {
  const internal = await runInProcess(incomingSource(request), config, {
    action: "access-token",
    providerId,
  });
  const answer = internal.body as AccessTokenAnswer | undefined;
  if (answer !== undefined && "error" in answer) throw answer.error;
  if (answer !== undefined && "token" in answer) {
    if (internal.cookies?.length) options.onCookies?.(internal.cookies);
    return answer.token;
  }
  // The action did not run: the configuration is unusable (the pipeline logged why). A fixed
  // config names its error; a lazy one was built for this request only.
  if (typeof config !== "function") assertStartupConfig(config);
  throw new AuthError(
    `getAccessToken could not run (${internal.status ?? 500}): the configuration is invalid or the host is not trusted. The server log names the cause.`,
  );
}
