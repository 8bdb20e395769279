/**
 * The sessions action run in-process, for server code (`listSessions`, `revokeSession`,
 * `revokeOtherSessions` of the core, its Node entry and every integration). The action is the one
 * `GET <basePath>/sessions` and `POST <basePath>/sessions/revoke` run: the incoming request's
 * cookies, client IP and headers go through the same pipeline, only its method, path and body
 * are the operation's. No CSRF token is asked for: server code calls these, and answers for CSRF
 * itself (Next.js server actions and SvelteKit form actions check the origin).
 */
import { AuthError } from "../errors.js";
import type { Cookie, ResponseInternal } from "../types.js";
import { fetchSource, type RequestSource } from "./http/request.js";
import { type ConfigOrFactory, handleSource } from "./pipeline.js";
import type { ListedSession } from "./session/devices.js";

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

/** The parts of an incoming request the sessions action reads. A `Request` is one. */
export interface IncomingRequestParts {
  /** The request's absolute URL (its origin picks the cookie names: `__Secure-` on https). */
  url: string | URL;
  headers: Headers;
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
  const href = String(parts.url);
  let request: Request | undefined;
  const build = () => {
    request ??= new Request(href, { headers: parts.headers });
    return request;
  };
  return {
    method: "GET",
    url: () => href,
    header: (name) => parts.headers.get(name),
    text: async () => "",
    headers: parts.headers,
    get request() {
      return build();
    },
    requestWithBody: build,
    clientIp,
  };
}

/** `base` turned into the request of `operation`: same client, the action's method, path and body. */
function operationSource(base: RequestSource, operation: SessionOperation): RequestSource {
  const isList = operation.kind === "list";
  const body = JSON.stringify(
    operation.kind === "revoke" ? { id: operation.id } : { others: true },
  );
  return {
    method: isList ? "GET" : "POST",
    url(basePath, trustForwarded) {
      const href = base.url(basePath, trustForwarded);
      if (href === null) return null;
      try {
        const base = basePath.replace(/\/+$/, "");
        return `${new URL(href).origin}${base}/sessions${isList ? "" : "/revoke"}`;
      } catch {
        return null;
      }
    },
    header(name) {
      if (name === "content-type") return isList ? null : "application/json";
      // The answer is data for server code: never a redirect turned into JSON.
      if (name === "content-length" || name === "x-auth-return-redirect") return null;
      return base.header(name);
    },
    text: async () => (isList ? "" : body),
    get headers() {
      return base.headers;
    },
    get request() {
      return base.request;
    },
    requestWithBody: () => base.requestWithBody(),
    clientIp: base.clientIp,
    inProcess: true,
  };
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
  const internal = (await handleSource(
    operationSource(source, operation),
    config,
    (data) => data,
  )) as ResponseInternal;
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
