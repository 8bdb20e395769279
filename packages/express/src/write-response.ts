/**
 * Core response data → Express response. Cookies arrive as data and are serialised straight into
 * `Set-Cookie`; no intermediate `Response` object is built.
 */
import type { Cookie, ResponseInternal } from "@tessera/core";
import { serialize } from "cookie";
import type { Response as ExpressResponse } from "express";

/** Appends `cookies` as `Set-Cookie` headers, keeping cookies set earlier by the app. */
export function appendCookies(res: ExpressResponse, cookies: readonly Cookie[]): void {
  if (cookies.length === 0) return;
  res.append(
    "Set-Cookie",
    cookies.map(({ name, value, options }) => serialize(name, value, options)),
  );
}

function isJson(headers: Record<string, string> | undefined): boolean {
  if (!headers) return false;
  for (const name in headers) {
    if (name.length === 12 && name.toLowerCase() === "content-type")
      return headers[name]!.startsWith("application/json");
  }
  return false;
}

/**
 * Writes `internal` to `res`. A redirect becomes `302 Location`, or `200 {"url": …}` when the
 * client asked for it with `X-Auth-Return-Redirect` (client-side sign-in and sign-out).
 */
export function writeResponse(
  res: ExpressResponse,
  internal: ResponseInternal,
  redirectAsJson: boolean,
): void {
  const { headers, cookies, redirect } = internal;
  if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
  if (cookies) appendCookies(res, cookies);
  let status = internal.status ?? 200;
  let body: string | Uint8Array | undefined;
  if (redirect !== undefined) {
    if (redirectAsJson) {
      res.setHeader("Content-Type", "application/json");
      body = JSON.stringify({ url: redirect });
      status = 200;
    } else {
      res.setHeader("Location", redirect);
      status = internal.status ?? 302;
    }
  } else if (isJson(headers)) {
    body = JSON.stringify(internal.body ?? null);
  } else if (typeof internal.body === "string" || internal.body instanceof Uint8Array) {
    body = internal.body;
  }
  res.statusCode = status;
  res.end(body);
}

/** The JSON error answer for a request that never reaches the core (as the core answers 400). */
export function writeError(res: ExpressResponse, status: 400 | 413): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  if (status === 413) res.setHeader("Connection", "close");
  res.end(JSON.stringify(status === 400 ? "Bad request." : "Payload too large."));
}
