/**
 * Where the user goes after signing in or out. The candidate comes from the request (`callbackUrl`
 * in the body or query) or the callback-url cookie, and always passes the `redirect` callback,
 * whose default only allows the site's own origin (open-redirect defence).
 */
import { InvalidCallbackUrl } from "../../errors.js";
import type { CallbacksOptions, Cookie, CookieOption } from "../../types.js";
import type { AuthContext } from "../config/internal.js";

/**
 * This deployment's own callback URL for `provider` (`<base>/callback/<id>`), where a provider's
 * flow comes back unless a redirect proxy stands in between.
 *
 * @example
 * ```ts
 * ownCallbackUrl(ctx, { id: "github" }) // "https://app.test/auth/callback/github"
 * ```
 */
export function ownCallbackUrl(ctx: AuthContext, provider: { id: string }): string {
  return `${ctx.url.href}/callback/${encodeURIComponent(provider.id)}`;
}

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
 * Whether `value` can be a callback URL at all: a path of the site (`/dashboard`) or an absolute
 * http(s) URL; the rule Auth.js applies. Whether it is a URL the site may go to is the `redirect`
 * callback's decision, made afterwards.
 *
 * @example
 * ```ts
 * isHttpCallbackUrl("/dashboard", "https://app.test") // true
 * isHttpCallbackUrl("javascript:alert(1)", "https://app.test") // false
 * ```
 */
export function isHttpCallbackUrl(value: string, baseUrl: string): boolean {
  try {
    return /^https?:$/.test(new URL(value, value.startsWith("/") ? baseUrl : undefined).protocol);
  } catch {
    return false;
  }
}

/** The longest part of a refused value the server log quotes. */
const QUOTED_LENGTH = 200;

/**
 * Resolves the callback URL for this request and the cookie to store when it changed.
 *
 * A `callbackUrl` query parameter that is neither a path nor an http(s) URL is refused with
 * {@link InvalidCallbackUrl} (the request is answered 400) before the `redirect` callback sees
 * it: an app's own callback must never receive `javascript:` URLs from a link. Such a value in
 * the callback-url cookie is ignored instead (treated as absent): the cookie may have been
 * planted from a sibling subdomain (cookie tossing), and refusing it would lock the browser out
 * of sign-in.
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
  /** `callbackUrl` of the body, else of the query. */
  paramValue: unknown;
  /** `callbackUrl` of the query, checked even when the body has one. */
  queryValue?: string | undefined;
  cookieValue: string | undefined;
  baseUrl: string;
  redirect: CallbacksOptions["redirect"];
  cookie: CookieOption;
}): Promise<{ callbackUrl: string; cookie?: Cookie }> {
  const { paramValue, queryValue, cookieValue, baseUrl, redirect, cookie } = params;
  // Script injection through the app's redirect callback: `?callbackUrl=javascript:…` is refused.
  if (queryValue && !isHttpCallbackUrl(queryValue, baseUrl))
    throw new InvalidCallbackUrl(
      `The callbackUrl query parameter ${JSON.stringify(queryValue.slice(0, QUOTED_LENGTH))} is neither a path nor an http(s) URL; the request is refused. Link to a path such as "/dashboard" or to an absolute URL of the site.`,
    );
  const storedValue =
    cookieValue && isHttpCallbackUrl(cookieValue, baseUrl) ? cookieValue : undefined;
  const candidate = typeof paramValue === "string" && paramValue !== "" ? paramValue : storedValue;
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
