/**
 * The Node writer: `ResponseInternal` straight onto a `node:http` `ServerResponse`, with no
 * `Response` in between. Status, headers, cookies, redirect and body are decided by
 * `planResponse`, the same function `toResponse` uses, so the two writers cannot drift.
 */
import type { ServerResponse } from "node:http";
import type { Cookie, ResponseInternal } from "../../types.js";
import {
  CONFIGURATION_ERROR_BODY,
  planResponse,
  serializeCookies,
  type WriteProblem,
} from "./response.js";

/**
 * Appends `cookies` as `Set-Cookie` lines, keeping those set earlier (by the app). Never throws:
 * a cookie that cannot be written is dropped and reported to `onProblem`.
 *
 * @example
 * ```ts
 * appendCookies(res, [{ name: "a", value: "1", options: { path: "/" } }])
 * ```
 */
export function appendCookies(
  res: ServerResponse,
  cookies: readonly Cookie[],
  onProblem?: WriteProblem,
): void {
  if (cookies.length === 0) return;
  const lines = serializeCookies(cookies, onProblem);
  if (lines.length) res.appendHeader("Set-Cookie", lines);
}

/** A plain JSON answer (`400 "Bad request."`, `500 {message}`) for when nothing else can be sent. */
export function writeNodeError(res: ServerResponse, status: 400 | 413 | 500): void {
  // Nothing of a half-written answer (its cookies, its Location) leaves with the error.
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  if (status === 413) res.setHeader("Connection", "close");
  res.end(
    status === 500
      ? CONFIGURATION_ERROR_BODY
      : JSON.stringify(status === 400 ? "Bad request." : "Payload too large."),
  );
}

const ignoreProblem: WriteProblem = () => {};

/**
 * Sets (or, for `Set-Cookie`, appends) a header; one that Node refuses (a name that is not a
 * token, a value with a control character: response splitting) is dropped and reported.
 */
function setHeaderOrDrop(
  res: ServerResponse,
  name: string,
  value: string,
  report: WriteProblem,
): void {
  try {
    if (name === "Set-Cookie") res.appendHeader(name, value);
    else res.setHeader(name, value);
  } catch {
    report(new TypeError(`Header "${name}" holds characters a header cannot carry; dropped.`));
  }
}

/**
 * Writes `internal` to `res` and ends it. With `returnRedirectAsJson` (header
 * `X-Auth-Return-Redirect`), a redirect becomes `200 {"url": …}` with `Location` kept.
 *
 * Never throws, whatever the values: a header or cookie a header cannot carry is dropped (a
 * `Location` percent-encoded) and reported to `onProblem`; an answer that still cannot be written
 * (an impossible status, a body that is neither text nor bytes) becomes `500 {message}`.
 *
 * @example
 * ```ts
 * writeNodeResponse(res, { redirect: "http://localhost:3000/" }) // 302, Location: http://localhost:3000/
 * ```
 */
export function writeNodeResponse(
  res: ServerResponse,
  internal: ResponseInternal,
  returnRedirectAsJson = false,
  onProblem?: WriteProblem,
): void {
  const report = onProblem ?? ignoreProblem;
  try {
    const setCookies = internal.cookies?.length
      ? serializeCookies(internal.cookies, report)
      : undefined;
    // A `Location` is always sanitised (percent-encoded). Other headers are checked by Node's
    // setHeader itself, which refuses exactly what `safeHeaderValue` drops (RFC 9110 tokens,
    // no control characters): a refused one is dropped in `setHeaderOrDrop`, unchecked twice.
    const sanitize = internal.redirect === undefined ? undefined : report;
    const plan = planResponse(internal, setCookies, returnRedirectAsJson, sanitize);
    const { body } = plan;
    if (body !== null && typeof body !== "string" && !(body instanceof Uint8Array))
      throw new TypeError("The response body is neither text nor bytes.");
    // Validated before any header is set: Node refuses a status outside 100–999.
    if (!Number.isInteger(plan.status) || plan.status < 100 || plan.status > 999)
      throw new RangeError(`Invalid status ${plan.status}.`);
    const { headers } = plan;
    if (Array.isArray(headers)) {
      for (const [name, value] of headers) setHeaderOrDrop(res, name, value, report);
    } else if (headers)
      for (const name in headers) setHeaderOrDrop(res, name, headers[name] as string, report);
    res.statusCode = plan.status;
    res.end(body ?? undefined);
  } catch (error) {
    report(error instanceof Error ? error : new Error(String(error)));
    if (res.headersSent) res.destroy();
    else writeNodeError(res, 500);
  }
}
