/**
 * The last step of the pipeline: `ResponseInternal` (status, headers, body, redirect and cookies
 * as data) becomes a standard `Response`.
 */
import { serialize } from "cookie";
import type { Cookie, ResponseInternal } from "../../types.js";

/** Serialises cookies as `Set-Cookie` header values. */
export function serializeCookies(cookies: readonly Cookie[]): string[] {
  return cookies.map(({ name, value, options }) => serialize(name, value, options));
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
