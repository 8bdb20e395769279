/**
 * The two kinds of request the clients make: reading JSON from an action, and posting a form
 * whose redirect comes back as JSON.
 */
import { type AuthEndpoint, authActionUrl } from "./endpoint.js";

/** Options of {@link fetchAuthJson}. */
export interface FetchAuthJsonOptions {
  /** Sent as a JSON `POST` body; without it the request is a `GET`. */
  body?: unknown;
  /** Extra headers, e.g. the `cookie` of an incoming request when called on a server. */
  headers?: Record<string, string>;
}

/**
 * The JSON answer of `action`, or `null` when the request failed, was refused or answered
 * something other than JSON. Failures are logged, never thrown.
 *
 * @example
 * ```ts
 * const providers = await fetchAuthJson<Record<string, unknown>>(endpoint, "providers")
 * ```
 */
export async function fetchAuthJson<T>(
  endpoint: AuthEndpoint,
  action: string,
  options: FetchAuthJsonOptions = {},
): Promise<T | null> {
  const url = authActionUrl(endpoint, action);
  try {
    const init: RequestInit = {
      credentials: "same-origin",
      headers: { Accept: "application/json", ...options.headers },
    };
    if (options.body !== undefined) {
      init.method = "POST";
      init.headers = { ...init.headers, "Content-Type": "application/json" };
      init.body = JSON.stringify(options.body);
    }
    const response = await fetch(url, init);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return (await response.json()) as T;
  } catch (error) {
    console.error("[tessera] request failed:", error);
    return null;
  }
}

/** What {@link postAuthForm} got back. */
export interface PostedForm {
  response: Response;
  /** Where the server would have redirected, or `null` when it named no URL. */
  url: string | null;
}

/**
 * POSTs `form` to `url` asking for the redirect as JSON (`X-Auth-Return-Redirect: 1`), so the
 * caller decides whether to follow it.
 *
 * @example
 * ```ts
 * const { url } = await postAuthForm("/api/auth/signout", new URLSearchParams({ csrfToken }))
 * ```
 */
export async function postAuthForm(url: string, form: URLSearchParams): Promise<PostedForm> {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Auth-Return-Redirect": "1",
    },
    body: form,
  });
  const data: unknown = await response.json().catch(() => null);
  const named = typeof data === "object" && data !== null ? (data as { url?: unknown }).url : null;
  return { response, url: typeof named === "string" ? named : null };
}
