/**
 * A browser-like HTTP client for tests against real servers: a cookie jar and manual redirects,
 * so each hop can be asserted.
 */

/** One `Set-Cookie` header, parsed far enough for tests. */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string>;
}

/** Parses a `Set-Cookie` header (attribute names lower-cased). */
export function parseSetCookie(header: string): SetCookie {
  const [pair = "", ...parts] = header.split(";");
  const separator = pair.indexOf("=");
  const attributes: Record<string, string> = {};
  for (const part of parts) {
    const [key = "", ...rest] = part.trim().split("=");
    attributes[key.toLowerCase()] = rest.join("=");
  }
  return {
    name: pair.slice(0, separator).trim(),
    value: pair.slice(separator + 1).trim(),
    attributes,
  };
}

function isDeletion(cookie: SetCookie): boolean {
  const expires = cookie.attributes.expires;
  return (
    cookie.value === "" ||
    cookie.attributes["max-age"] === "0" ||
    (expires !== undefined && new Date(expires).getTime() <= Date.now())
  );
}

export class HttpClient {
  /** Cookies by name (values as sent on the wire). */
  readonly jar = new Map<string, string>();
  /** Every `Set-Cookie` of the last response. */
  lastSetCookies: SetCookie[] = [];

  constructor(readonly origin: string) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size && !headers.has("cookie"))
      headers.set("cookie", [...this.jar].map(([n, v]) => `${n}=${v}`).join("; "));
    const response = await fetch(new URL(path, this.origin), {
      ...init,
      headers,
      redirect: "manual",
    });
    this.lastSetCookies = response.headers.getSetCookie().map(parseSetCookie);
    for (const cookie of this.lastSetCookies) {
      if (isDeletion(cookie)) this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, { headers });
  }

  /** POSTs a URL-encoded form, as a browser does. */
  postForm(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.fetch(path, {
      method: "POST",
      body: new URLSearchParams(form),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    });
  }

  /** The CSRF token from `<basePath>/csrf` (its cookie lands in the jar). */
  async csrfToken(basePath = "/auth", headers: Record<string, string> = {}): Promise<string> {
    const response = await this.get(`${basePath}/csrf`, headers);
    return ((await response.json()) as { csrfToken: string }).csrfToken;
  }
}
