/**
 * Where the user goes after signing in or out. The candidate comes from the request (`callbackUrl`
 * in the body or query) or the callback-url cookie, and always passes the `redirect` callback,
 * whose default only allows the site's own origin (open-redirect defence).
 */
import type { CallbacksOptions, Cookie, CookieOption } from "../../types.js";

/**
 * The default `redirect` callback: relative paths are resolved against `baseUrl`; absolute URLs
 * are kept only when they have the same origin; anything else falls back to `baseUrl`.
 *
 * @example
 * ```ts
 * defaultRedirect({ url: "https://evil.test", baseUrl: "https://app.test" }) // "https://app.test"
 * ```
 */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  // Protocol-relative ("//evil.test") and backslash ("/\evil.test") forms would leave the origin
  // once a browser parses them; resolving against baseUrl and comparing origins catches both.
  let parsed: URL;
  try {
    parsed = new URL(url, baseUrl);
  } catch {
    return baseUrl;
  }
  if (parsed.origin !== new URL(baseUrl).origin) return baseUrl;
  if (url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\"))
    return `${baseUrl}${url}`;
  return parsed.href === url ? url : baseUrl;
}

/** Characters that never belong in a URL we redirect to (header injection, spoofing). */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** True when every character is visible ASCII (nothing a header or cookie could refuse). */
function isVisibleAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

/**
 * `url` as it can travel in a `Location` header and a cookie: a visible-ASCII URL as it is (so
 * `baseUrl` keeps its exact form), anything else as the parsed URL's `href`, in which non-ASCII
 * characters are percent-encoded (RFC 3986 §2.1) and a lone UTF-16 surrogate became U+FFFD.
 * An unparseable URL falls back to `baseUrl`.
 */
function normalizeUrl(url: string, baseUrl: string): string {
  if (isVisibleAscii(url)) return url;
  try {
    return new URL(url, baseUrl).href;
  } catch {
    return baseUrl;
  }
}

/**
 * Resolves the callback URL for this request and the cookie to store when it changed.
 *
 * @example
 * ```ts
 * const { callbackUrl } = await resolveCallbackUrl({
 *   paramValue: "/привет", cookieValue: undefined, baseUrl: "https://app.test",
 *   redirect: defaultRedirect, cookie: cookies.callbackUrl,
 * })
 * callbackUrl // "https://app.test/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82"
 * ```
 */
export async function resolveCallbackUrl(params: {
  paramValue: unknown;
  cookieValue: string | undefined;
  baseUrl: string;
  redirect: CallbacksOptions["redirect"];
  cookie: CookieOption;
}): Promise<{ callbackUrl: string; cookie?: Cookie }> {
  const { paramValue, cookieValue, baseUrl, redirect, cookie } = params;
  const candidate =
    typeof paramValue === "string" && paramValue !== "" ? paramValue : (cookieValue ?? undefined);
  if (candidate === undefined || hasControlCharacter(candidate)) return { callbackUrl: baseUrl };
  // A lone surrogate or non-ASCII character would make the cookie and the Location header fail
  // to serialise (one request rejecting Auth(), or a sign-in ending in error=Configuration).
  const callbackUrl = normalizeUrl(await redirect({ url: candidate, baseUrl }), baseUrl);
  if (callbackUrl === cookieValue) return { callbackUrl };
  return {
    callbackUrl,
    cookie: { name: cookie.name, value: callbackUrl, options: cookie.options },
  };
}
