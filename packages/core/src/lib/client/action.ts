/**
 * Any action of the table from the browser, for the client functions of extensions: a `GET` for
 * data, or a `POST` carrying the CSRF token, its redirect (if any) answered as JSON. One function,
 * so an extension's client needs no code per framework.
 */
import type { AuthEndpoint } from "./endpoint.js";
import { authActionUrl } from "./endpoint.js";
import { getCsrfToken } from "./session.js";

/** What an action answered. */
export interface ActionAnswer<T> {
  /** A 2xx answer. */
  ok: boolean;
  status: number;
  /** The JSON body (an `{ error }` object on refusal), or null when there was none. */
  data: T | null;
  /** Where the server would have redirected (a finished sign-in), or null. */
  url: string | null;
}

/**
 * Runs `path` (`<action>` or `<action>/<sub-path>`) of `endpoint`: a `GET` without `body`, else a
 * `POST` of `body` as JSON with the CSRF token added. Never throws for an HTTP answer; a network
 * failure rejects.
 *
 * @example
 * ```ts
 * const { ok, data } = await callAuthAction(endpoint, "two-factor/status")
 * ```
 */
export async function callAuthAction<T>(
  endpoint: AuthEndpoint,
  path: string,
  body?: Record<string, unknown>,
): Promise<ActionAnswer<T>> {
  const init: RequestInit = {
    credentials: "same-origin",
    headers: { Accept: "application/json", "X-Auth-Return-Redirect": "1" },
  };
  if (body !== undefined) {
    init.method = "POST";
    init.headers = { ...init.headers, "Content-Type": "application/json" };
    init.body = JSON.stringify({ ...body, csrfToken: await getCsrfToken(endpoint) });
  }
  const response = await fetch(authActionUrl(endpoint, path), init);
  const data = (await response.json().catch(() => null)) as T | null;
  const named = typeof data === "object" && data !== null ? (data as { url?: unknown }).url : null;
  return {
    ok: response.ok,
    status: response.status,
    data,
    url: typeof named === "string" ? named : null,
  };
}
