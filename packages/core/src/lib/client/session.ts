/**
 * Reading the session, the CSRF token and the provider list, and updating the session.
 */
import type { Session } from "../../types.js";
import type { AuthEndpoint } from "./endpoint.js";
import { fetchAuthJson } from "./fetch.js";

/** A provider as `GET <basePath>/providers` lists it. */
export interface ClientSafeProvider {
  id: string;
  name: string;
  type: string;
  signinUrl: string;
  callbackUrl: string;
}

/**
 * The current session, or `null` when signed out or unreachable. On a server, pass the incoming
 * request's `cookie` header.
 *
 * @example
 * ```ts
 * const session = await getSession({ baseUrl: "", basePath: "/api/auth" })
 * ```
 */
export async function getSession(
  endpoint: AuthEndpoint,
  headers?: Record<string, string>,
): Promise<Session | null> {
  return sessionOrNull(await fetchAuthJson<Session | null>(endpoint, "session", { headers }));
}

/** Without a session the handler answers `null`; an empty object means the same. */
function sessionOrNull(session: Session | null): Session | null {
  return session && Object.keys(session).length > 0 ? session : null;
}

/**
 * A CSRF token for a POST to the handler (double-submit cookie: the matching cookie is set by the
 * same answer), or `""` when it could not be fetched.
 *
 * @example
 * ```ts
 * const csrfToken = await getCsrfToken(endpoint)
 * ```
 */
export async function getCsrfToken(endpoint: AuthEndpoint): Promise<string> {
  const body = await fetchAuthJson<{ csrfToken?: unknown }>(endpoint, "csrf");
  return typeof body?.csrfToken === "string" ? body.csrfToken : "";
}

/**
 * The configured providers by id, or `null` when the handler could not be reached.
 *
 * @example
 * ```ts
 * const providers = await getProviders(endpoint)
 * ```
 */
export async function getProviders(
  endpoint: AuthEndpoint,
): Promise<Record<string, ClientSafeProvider> | null> {
  return fetchAuthJson<Record<string, ClientSafeProvider>>(endpoint, "providers");
}

/**
 * Updates the session: `POST <basePath>/session` with `data` and a CSRF token, so the `jwt` and
 * `session` callbacks run with `trigger: "update"`. Without `data` the session is only fetched
 * again (`GET`). Resolves with the new session, or `null`.
 *
 * @example
 * ```ts
 * await updateSession(endpoint, { user: { name: "Grace" } })
 * ```
 */
export async function updateSession(
  endpoint: AuthEndpoint,
  data?: unknown,
): Promise<Session | null> {
  if (data === undefined) return getSession(endpoint);
  const csrfToken = await getCsrfToken(endpoint);
  return sessionOrNull(
    await fetchAuthJson<Session | null>(endpoint, "session", { body: { csrfToken, data } }),
  );
}
