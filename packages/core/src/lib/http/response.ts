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

/**
 * Builds the `Response`. With `returnRedirectAsJson` (header `X-Auth-Return-Redirect`), a redirect
 * becomes `200 {"url": …}` so that client-side code can navigate itself.
 */
export function toResponse(internal: ResponseInternal, returnRedirectAsJson = false): Response {
  const headers = new Headers(internal.headers);
  if (internal.cookies)
    for (const value of serializeCookies(internal.cookies)) headers.append("Set-Cookie", value);
  if (internal.redirect !== undefined) {
    if (returnRedirectAsJson) {
      headers.set("Content-Type", "application/json");
      return new Response(JSON.stringify({ url: internal.redirect }), { status: 200, headers });
    }
    headers.set("Location", internal.redirect);
    return new Response(null, { status: internal.status ?? 302, headers });
  }
  let body: BodyInit | null = null;
  const contentType = headers.get("Content-Type");
  if (contentType?.startsWith("application/json")) body = JSON.stringify(internal.body ?? null);
  else if (internal.body !== undefined && internal.body !== null) body = internal.body as BodyInit;
  return new Response(body, { status: internal.status ?? 200, headers });
}

/** A JSON response as data. */
export function json<T>(
  body: T,
  status = 200,
  headers: Record<string, string> = {},
): ResponseInternal<T> {
  return { status, body, headers: { "Content-Type": "application/json", ...headers } };
}
