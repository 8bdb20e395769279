/**
 * The last step of the pipeline: `ResponseInternal` (status, headers, body, redirect and cookies
 * as data) becomes a standard `Response`.
 */
import { serialize } from "cookie";
import type { Cookie, ResponseInternal } from "../../types.js";

/** RFC 6265 §4.1.1 cookie-name as the `cookie` library accepts it: visible ASCII but `;` and `=`. */
const COOKIE_NAME = /^[!-:<>-~]+$/;

/**
 * The `; Path=/; HttpOnly; …` part of a `Set-Cookie` line per options object. The cookie policy's
 * option objects are made once per config, and serialising them is most of the cost of a cookie.
 */
const attributesCache = new WeakMap<object, string>();

function serializeCookie({ name, value, options }: Cookie): string {
  // Dates change per cookie and custom encoders are the application's: serialised in full.
  if (!options || options.expires || options.encode || !COOKIE_NAME.test(name))
    return serialize(name, value, options);
  let attributes = attributesCache.get(options);
  if (attributes === undefined) {
    // The library validates every option here, once, and throws as it would per cookie.
    attributes = serialize("n", "", options).slice(2);
    attributesCache.set(options, attributes);
  }
  // encodeURIComponent only emits characters a cookie value may hold: nothing to validate.
  return `${name}=${value ? encodeURIComponent(value) : ""}${attributes}`;
}

/** Serialises cookies as `Set-Cookie` header values (as `cookie`'s `serialize` writes them). */
export function serializeCookies(cookies: readonly Cookie[]): string[] {
  return cookies.map(serializeCookie);
}

/** The value of header `name` (any case) in header data, as `Headers#get` would find it. */
function headerValue(
  headers: Record<string, string> | undefined,
  name: string,
): string | undefined {
  if (!headers) return undefined;
  for (const key in headers)
    if (key.length === name.length && key.toLowerCase() === name) return headers[key];
  return undefined;
}

/**
 * Header data plus `Set-Cookie` lines and overrides, as the `HeadersInit` a `Response` takes.
 * Passing plain data rather than a `Headers` object saves undici a second copy of every header.
 */
function headersInit(
  headers: Record<string, string> | undefined,
  cookies: readonly Cookie[] | undefined,
  overrides?: Record<string, string>,
): HeadersInit | undefined {
  if (!cookies?.length && !overrides) return headers;
  const pairs: [string, string][] = [];
  for (const name in headers) {
    // An override replaces the header whatever its case, as `Headers#set` does.
    if (overrides && headerValue(overrides, name.toLowerCase()) !== undefined) continue;
    pairs.push([name, headers[name] as string]);
  }
  for (const name in overrides) pairs.push([name, overrides[name] as string]);
  if (cookies) for (const value of serializeCookies(cookies)) pairs.push(["Set-Cookie", value]);
  return pairs;
}

/**
 * Builds the `Response`. With `returnRedirectAsJson` (header `X-Auth-Return-Redirect`), a redirect
 * becomes `200 {"url": …}` so that client-side code can navigate itself.
 *
 * @example
 * ```ts
 * toResponse({ redirect: "http://localhost:3000/" }).headers.get("Location") // "http://localhost:3000/"
 * ```
 */
export function toResponse(internal: ResponseInternal, returnRedirectAsJson = false): Response {
  const { headers, cookies } = internal;
  if (internal.redirect !== undefined) {
    if (returnRedirectAsJson)
      return new Response(JSON.stringify({ url: internal.redirect }), {
        status: 200,
        headers: headersInit(headers, cookies, { "Content-Type": "application/json" }),
      });
    return new Response(null, {
      status: internal.status ?? 302,
      headers: headersInit(headers, cookies, { Location: internal.redirect }),
    });
  }
  let body: BodyInit | null = null;
  if (headerValue(headers, "content-type")?.startsWith("application/json"))
    body = JSON.stringify(internal.body ?? null);
  else if (internal.body !== undefined && internal.body !== null) body = internal.body as BodyInit;
  return new Response(body, {
    status: internal.status ?? 200,
    headers: headersInit(headers, cookies),
  });
}

/** A JSON response as data. */
export function json<T>(
  body: T,
  status = 200,
  headers: Record<string, string> = {},
): ResponseInternal<T> {
  return { status, body, headers: { "Content-Type": "application/json", ...headers } };
}
