/**
 * Where a Tessera handler is mounted, as seen from the code calling it.
 */

/** The origin (`""` for the page's own) and the path the auth routes live under. */
export interface AuthEndpoint {
  /** Origin of the handler, e.g. `https://example.com`; `""` means same origin (relative URLs). */
  baseUrl: string;
  /** Mount path without a trailing slash, e.g. `/api/auth`. */
  basePath: string;
}

const DEFAULT_URL = "http://localhost:3000/api/auth";

/**
 * The URL of one action (`session`, `csrf`, `signin/github`, …) of `endpoint`.
 *
 * @example
 * ```ts
 * authActionUrl({ baseUrl: "", basePath: "/api/auth" }, "csrf") // "/api/auth/csrf"
 * ```
 */
export function authActionUrl(endpoint: AuthEndpoint, action: string): string {
  return `${endpoint.baseUrl}${endpoint.basePath}/${action}`;
}

/**
 * The endpoint named by an absolute URL such as `AUTH_URL`: its origin, and its path (`/api/auth`
 * when the URL has none). A value without a scheme is read as `https://…` (`VERCEL_URL` has
 * none); a missing or unreadable value gives `http://localhost:3000/api/auth`.
 *
 * @example
 * ```ts
 * endpointFromUrl("https://example.com/auth") // { baseUrl: "https://example.com", basePath: "/auth" }
 * endpointFromUrl("example.com") // { baseUrl: "https://example.com", basePath: "/api/auth" }
 * ```
 */
export function endpointFromUrl(url: string | undefined): AuthEndpoint {
  const fallback = new URL(DEFAULT_URL);
  let parsed = fallback;
  if (url) {
    try {
      parsed = new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`);
    } catch {
      parsed = fallback;
    }
  }
  const path = parsed.pathname === "/" ? fallback.pathname : parsed.pathname;
  return { baseUrl: parsed.origin, basePath: path.replace(/\/+$/, "") };
}
