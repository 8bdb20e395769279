/**
 * The last step of the pipeline: `ResponseInternal` (status, headers, body, redirect and cookies
 * as data) becomes a standard `Response`.
 */
import { serialize } from "cookie";
import type { Cookie, ResponseInternal } from "../../types.js";

/** RFC 6265 §4.1.1 cookie-name as the `cookie` library accepts it: visible ASCII but `;` and `=`. */
const COOKIE_NAME = /^[!-:<>-~]+$/;

/** The answer when no response can be built: the generic configuration error (no internals). */
export const CONFIGURATION_MESSAGE =
  "There was a problem with the server configuration. Check the server logs for more information.";

/**
 * Headers of answers that must never be cached by a browser or a proxy (session, CSRF token,
 * WebAuthn options): `Expires` and `Pragma` for HTTP/1.0 caches, as @auth/core sends them.
 */
export const NO_CACHE_HEADERS: Readonly<Record<string, string>> = {
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
};

/** Receives what the writer had to drop or replace, for the server log. */
export type WriteProblem = (error: Error) => void;

const LONE_SURROGATE = /[\ud800-\udfff]/gu;

/**
 * `encodeURIComponent` that never throws: a lone UTF-16 surrogate (which it refuses) becomes
 * U+FFFD first, as `String#toWellFormed` would do.
 */
function safeEncodeURIComponent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(LONE_SURROGATE, "\ufffd"));
  }
}

/**
 * The `; Path=/; HttpOnly; …` part of a `Set-Cookie` line per options object. The cookie policy's
 * option objects are made once per config, and serialising them is most of the cost of a cookie.
 */
const attributesCache = new WeakMap<object, string>();

function serializeCookie({ name, value, options }: Cookie): string {
  // Dates change per cookie and custom encoders are the application's: serialised in full.
  if (!options || options.expires || options.encode || !COOKIE_NAME.test(name))
    return serialize(
      name,
      value,
      options?.encode ? options : { ...options, encode: safeEncodeURIComponent },
    );
  let attributes = attributesCache.get(options);
  if (attributes === undefined) {
    // The library validates every option here, once, and throws as it would per cookie.
    attributes = serialize("n", "", options).slice(2);
    attributesCache.set(options, attributes);
  }
  // encodeURIComponent only emits characters a cookie value may hold: nothing to validate.
  return `${name}=${value ? safeEncodeURIComponent(value) : ""}${attributes}`;
}

/**
 * Serialises cookies as `Set-Cookie` header values (as `cookie`'s `serialize` writes them). Never
 * throws: a cookie whose name or options cannot be written is dropped and reported to `onProblem`.
 *
 * @example
 * ```ts
 * serializeCookies([{ name: "a", value: "/☃", options: { path: "/" } }]) // ["a=%2F%E2%98%83; Path=/"]
 * ```
 */
export function serializeCookies(cookies: readonly Cookie[], onProblem?: WriteProblem): string[] {
  const lines: string[] = [];
  for (const cookie of cookies) {
    try {
      lines.push(serializeCookie(cookie));
    } catch (error) {
      onProblem?.(
        new TypeError(`Cookie "${cookie.name}" could not be written and was dropped.`, {
          cause: error,
        }),
      );
    }
  }
  return lines;
}

/** RFC 9110 §5.6.2 token: what a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What Fetch's `Headers` and Node's `setHeader` accept in a value (no NUL, CR, LF or > U+00FF). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const LINE_BREAKS = /[\t\r\n]/g;
const NOT_URL_SAFE = /[^\x21-\x7e]+/g;

/**
 * `value` as header `name` can carry it, or `undefined` when it cannot. A `Location` is
 * percent-encoded (RFC 3986 §2.1) after dropping tabs and line breaks, as URL parsers do;
 * any other header with a character a header cannot hold is dropped (response splitting).
 *
 * @example
 * ```ts
 * safeHeaderValue("Location", "https://app.test/привет") // "https://app.test/%D0%BF%D1%80…"
 * safeHeaderValue("X-Note", "a\r\nSet-Cookie: x=1") // undefined
 * ```
 */
export function safeHeaderValue(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return undefined;
  if (name.length === 8 && name.toLowerCase() === "location")
    return value
      .replace(LINE_BREAKS, "")
      .replace(NOT_URL_SAFE, (run) => safeEncodeURIComponent(run));
  return HEADER_VALUE.test(value) ? value : undefined;
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

/** Adds a header, through {@link safeHeaderValue} when sanitising (then reporting a drop). */
function pushHeader(
  pairs: [string, string][],
  name: string,
  value: string,
  sanitize: WriteProblem | undefined,
): void {
  if (!sanitize) {
    pairs.push([name, value]);
    return;
  }
  const safe = safeHeaderValue(name, value);
  if (safe !== undefined) pairs.push([name, safe]);
  else sanitize(new TypeError(`Header "${name}" holds characters a header cannot carry; dropped.`));
}

/** Whether every header would pass {@link safeHeaderValue} unchanged. */
function allSafe(headers: Record<string, string> | undefined): boolean {
  for (const name in headers)
    if (safeHeaderValue(name, headers[name] as string) !== headers[name]) return false;
  return true;
}

/**
 * Header data plus `Set-Cookie` lines and overrides, as the `HeadersInit` a `Response` takes.
 * Passing plain data rather than a `Headers` object saves undici a second copy of every header.
 * With `sanitize`, every value goes through {@link safeHeaderValue} first.
 */
function headersInit(
  headers: Record<string, string> | undefined,
  setCookies: readonly string[] | undefined,
  overrides: Record<string, string> | undefined,
  sanitize: WriteProblem | undefined,
): Record<string, string> | [string, string][] | undefined {
  // Most answers carry only their own valid headers: the record is passed on as it is, which
  // spares an array of pairs and undici's slower conversion of one.
  if (!setCookies?.length && !overrides && (!sanitize || allSafe(headers))) return headers;
  const pairs: [string, string][] = [];
  for (const name in headers) {
    // An override replaces the header whatever its case, as `Headers#set` does.
    if (overrides && headerValue(overrides, name.toLowerCase()) !== undefined) continue;
    pushHeader(pairs, name, headers[name] as string, sanitize);
  }
  for (const name in overrides) pushHeader(pairs, name, overrides[name] as string, sanitize);
  if (setCookies) for (const value of setCookies) pairs.push(["Set-Cookie", value]);
  return pairs;
}

/** A body `Response` takes, named without the DOM library (published types stay Node-only). */
type ResponseBody = ConstructorParameters<typeof Response>[0];

/**
 * What an answer is made of, decided once for both writers (`toResponse` and the Node writer) so
 * that the two cannot drift: the status, the header data and the body.
 */
export interface ResponsePlan {
  status: number;
  headers: Record<string, string> | [string, string][] | undefined;
  body: string | Uint8Array | ResponseBody | null;
}

/**
 * Decides status, headers and body. A redirect becomes `302 Location` (or the status it names);
 * with `returnRedirectAsJson` it becomes `200 {"url": …}` and keeps `Location`, as Auth.js sends
 * it (with status 200 no client follows it). A JSON content type serialises `body`.
 */
export function planResponse(
  internal: ResponseInternal,
  setCookies: readonly string[] | undefined,
  returnRedirectAsJson: boolean,
  sanitize: WriteProblem | undefined,
): ResponsePlan {
  const { headers } = internal;
  if (internal.redirect !== undefined) {
    if (returnRedirectAsJson)
      return {
        status: 200,
        headers: headersInit(
          headers,
          setCookies,
          { "Content-Type": "application/json", Location: internal.redirect },
          sanitize,
        ),
        body: JSON.stringify({ url: internal.redirect }),
      };
    return {
      status: internal.status ?? 302,
      headers: headersInit(headers, setCookies, { Location: internal.redirect }, sanitize),
      body: null,
    };
  }
  let body: ResponsePlan["body"] = null;
  if (headerValue(headers, "content-type")?.startsWith("application/json"))
    body = JSON.stringify(internal.body ?? null);
  else if (internal.body !== undefined && internal.body !== null)
    body = internal.body as ResponseBody;
  return {
    status: internal.status ?? 200,
    headers: headersInit(headers, setCookies, undefined, sanitize),
    body,
  };
}

function buildResponse(
  internal: ResponseInternal,
  setCookies: readonly string[] | undefined,
  returnRedirectAsJson: boolean,
  sanitize: WriteProblem | undefined,
): Response {
  const plan = planResponse(internal, setCookies, returnRedirectAsJson, sanitize);
  return new Response(plan.body as ResponseBody, { status: plan.status, headers: plan.headers });
}

/** The body of the answer when no other can be built (never the error itself). */
export const CONFIGURATION_ERROR_BODY = JSON.stringify({ message: CONFIGURATION_MESSAGE });

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * Builds the `Response`. With `returnRedirectAsJson` (header `X-Auth-Return-Redirect`), a redirect
 * becomes `200 {"url": …}` (with the `Location` header kept) so that client-side code can
 * navigate itself.
 *
 * Never throws, whatever the values: a cookie or header that cannot be written is dropped (a
 * `Location` is percent-encoded), and a response that still cannot be built (a body that is not
 * JSON, an impossible status) becomes a plain 500 `{message}`. `onProblem` hears about each.
 *
 * @example
 * ```ts
 * toResponse({ redirect: "http://localhost:3000/" }).headers.get("Location") // "http://localhost:3000/"
 * ```
 */
export function toResponse(
  internal: ResponseInternal,
  returnRedirectAsJson = false,
  onProblem?: WriteProblem,
): Response {
  const setCookies = internal.cookies?.length
    ? serializeCookies(internal.cookies, onProblem)
    : undefined;
  try {
    return buildResponse(internal, setCookies, returnRedirectAsJson, undefined);
  } catch {
    // `Headers` refused a value: build again, dropping (or encoding) the culprits.
  }
  try {
    return buildResponse(internal, setCookies, returnRedirectAsJson, onProblem ?? (() => {}));
  } catch (error) {
    onProblem?.(asError(error));
  }
  return new Response(CONFIGURATION_ERROR_BODY, {
    status: 500,
    headers: { "Content-Type": "application/json" },
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
