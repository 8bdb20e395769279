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

/** Resolves the callback URL for this request and the cookie to store when it changed. */
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
  const callbackUrl = await redirect({ url: candidate, baseUrl });
  if (callbackUrl === cookieValue) return { callbackUrl };
  return {
    callbackUrl,
    cookie: { name: cookie.name, value: callbackUrl, options: cookie.options },
  };
}
