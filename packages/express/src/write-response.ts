/**
 * Core response data → Express response. Cookies arrive as data and are serialised straight into
 * `Set-Cookie`; no intermediate `Response` object is built. Nothing here throws on a value: the
 * core's serialisers drop (or encode) what a header cannot carry.
 */
import {
  CONFIGURATION_MESSAGE,
  type Cookie,
  type ResponseInternal,
  safeHeaderValue,
  serializeCookies,
  type WriteProblem,
} from "@tessera/core";
import type { Response as ExpressResponse } from "express";

/** Appends `cookies` as `Set-Cookie` headers, keeping cookies set earlier by the app. */
export function appendCookies(
  res: ExpressResponse,
  cookies: readonly Cookie[],
  onProblem?: WriteProblem,
): void {
  if (cookies.length === 0) return;
  const lines = serializeCookies(cookies, onProblem);
  if (lines.length) res.append("Set-Cookie", lines);
}

/** Sets header `name` unless its value cannot be carried (response splitting); reports that. */
function setHeader(res: ExpressResponse, name: string, value: string, onProblem?: WriteProblem) {
  const safe = safeHeaderValue(name, value);
  if (safe !== undefined) res.setHeader(name, safe);
  else
    onProblem?.(new TypeError(`Header "${name}" holds characters a header cannot carry; dropped.`));
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
  onProblem?: WriteProblem,
): void {
  const { headers, cookies, redirect } = internal;
  if (headers) for (const name in headers) setHeader(res, name, headers[name]!, onProblem);
  if (cookies) appendCookies(res, cookies, onProblem);
  let status = internal.status ?? 200;
  let body: string | Uint8Array | undefined;
  if (redirect !== undefined) {
    if (redirectAsJson) {
      res.setHeader("Content-Type", "application/json");
      setHeader(res, "Location", redirect, onProblem);
      body = JSON.stringify({ url: redirect });
      status = 200;
    } else {
      setHeader(res, "Location", redirect, onProblem);
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

/**
 * The JSON error answer for a request the core could not answer: 400 and 413 as the core answers
 * malformed and oversized requests, 500 `{message}` (generic, never the error) otherwise.
 */
export function writeError(res: ExpressResponse, status: 400 | 413 | 500): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  if (status === 413) res.setHeader("Connection", "close");
  const body =
    status === 400
      ? "Bad request."
      : status === 413
        ? "Payload too large."
        : { message: CONFIGURATION_MESSAGE };
  res.end(JSON.stringify(body));
}
