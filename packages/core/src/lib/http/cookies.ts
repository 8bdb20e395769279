/**
 * Cookie names and options (identical to Auth.js v5, so a running site can switch without signing
 * anyone out), the chunking of large session cookies, and `Cookie` header parsing and
 * `Set-Cookie` writing with the results of the `cookie` package's `parse` and `serialize` (v1;
 * test/cookie-header.test.ts compares both on the same inputs). The package is CommonJS:
 * importing it made Node start its CommonJS loader and scan the file for exports before an app's
 * first request, about as long as loading a dozen of the core's own modules. Its option types
 * stay in use (`SerializeOptions`, a type-only import).
 */
import type { SerializeOptions } from "cookie";
import type { Cookie, CookieOption, CookiesOptions } from "../../types.js";

/** Browsers keep 4096 bytes per cookie; 160 are reserved for name and attributes (as Auth.js). */
export const CHUNK_SIZE = 4096 - 160;

/** Seconds a PKCE/state/nonce/WebAuthn-challenge cookie lives. */
export const CHECK_COOKIE_MAX_AGE = 60 * 15;

/** The default cookie policy; `secure` adds the `__Secure-`/`__Host-` prefixes. */
export function defaultCookies(secure: boolean): CookiesOptions {
  const prefix = secure ? "__Secure-" : "";
  const base: SerializeOptions = { httpOnly: true, sameSite: "lax", path: "/", secure };
  const option = (name: string, extra: SerializeOptions = {}): CookieOption => ({
    name,
    options: { ...base, ...extra },
  });
  return {
    sessionToken: option(`${prefix}authjs.session-token`),
    callbackUrl: option(`${prefix}authjs.callback-url`),
    // `__Host-` forbids Domain and requires Path=/: the token cannot be planted from a subdomain.
    csrfToken: option(`${secure ? "__Host-" : ""}authjs.csrf-token`),
    pkceCodeVerifier: option(`${prefix}authjs.pkce.code_verifier`, {
      maxAge: CHECK_COOKIE_MAX_AGE,
    }),
    state: option(`${prefix}authjs.state`, { maxAge: CHECK_COOKIE_MAX_AGE }),
    nonce: option(`${prefix}authjs.nonce`),
    webauthnChallenge: option(`${prefix}authjs.challenge`, { maxAge: CHECK_COOKIE_MAX_AGE }),
  };
}

/** Merges user cookie overrides into the defaults (per cookie, options merged key by key). */
export function mergeCookies(
  defaults: CookiesOptions,
  overrides: Partial<CookiesOptions> | undefined,
): CookiesOptions {
  if (!overrides) return defaults;
  const merged = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof CookiesOptions)[]) {
    const override = overrides[key];
    if (!override) continue;
    merged[key] = {
      name: override.name ?? defaults[key].name,
      options: { ...defaults[key].options, ...override.options },
    };
  }
  return merged;
}

const CHUNK_SUFFIX = /\.(\d+)$/;

/** The names of every cookie holding `name` or one of its chunks `name.N`. */
export function chunkNames(cookies: Record<string, string>, name: string): string[] {
  const names: string[] = [];
  for (const candidate in cookies)
    if (candidate === name || isChunkOf(candidate, name)) names.push(candidate);
  return names;
}

/** Whether cookie `candidate` is a chunk `name.N` of `name` (checked without building strings). */
function isChunkOf(candidate: string, name: string): boolean {
  return (
    candidate.length > name.length + 1 &&
    candidate.charCodeAt(name.length) === 46 /* "." */ &&
    candidate.startsWith(name) &&
    CHUNK_SUFFIX.test(candidate.slice(name.length))
  );
}

/** Reads a possibly chunked cookie: chunks joined in numeric order of their suffix. */
export function readChunkedCookie(
  cookies: Record<string, string>,
  name: string,
): string | undefined {
  const whole = cookies[name];
  // Read on every request: no array unless there are chunks.
  let names: string[] | undefined;
  for (const candidate in cookies) {
    if (!isChunkOf(candidate, name)) continue;
    names ??= [];
    names.push(candidate);
  }
  if (names === undefined) return whole;
  names.sort((a, b) => suffix(a) - suffix(b));
  return names.map((n) => cookies[n]).join("");
}

function suffix(name: string): number {
  return Number(CHUNK_SUFFIX.exec(name)?.[1] ?? 0);
}

/** Cookies that delete every existing chunk of `option.name`. */
export function clearChunkedCookie(
  cookies: Record<string, string>,
  option: CookieOption,
): Cookie[] {
  return chunkNames(cookies, option.name).map((name) => ({
    name,
    value: "",
    options: { ...option.options, maxAge: 0 },
  }));
}

/**
 * Cookies that store `value` under `option.name`, split into `name.0`, `name.1`, … when longer
 * than {@link CHUNK_SIZE}, and that delete chunks of the previous value that are now stale.
 */
export function writeChunkedCookie(
  cookies: Record<string, string>,
  option: CookieOption,
  value: string,
  extra: SerializeOptions = {},
): Cookie[] {
  const options = { ...option.options, ...extra };
  const written: Cookie[] = [];
  if (value.length <= CHUNK_SIZE) {
    written.push({ name: option.name, value, options });
  } else {
    const count = Math.ceil(value.length / CHUNK_SIZE);
    for (let i = 0; i < count; i++)
      written.push({
        name: `${option.name}.${i}`,
        value: value.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
        options,
      });
  }
  const keep = new Set(written.map((c) => c.name));
  const stale = clearChunkedCookie(cookies, option).filter((c) => !keep.has(c.name));
  return [...stale, ...written];
}

/**
 * The cookies of a `Cookie` header by name: `name=value` pairs separated by `;` (RFC 6265
 * §4.2.1), read as the core read them with the `cookie` package before: the first of two cookies
 * with one name wins, spaces and tabs around a name or value are dropped, a pair without `=` is
 * skipped, and a value is percent-decoded when it is valid percent-encoding (kept as written
 * otherwise). Never throws: a Cookie header is whatever the client sent.
 *
 * @example
 * ```ts
 * parseCookies("a=1; b=%E2%98%83; a=2") // { a: "1", b: "☃" }
 * ```
 */
export function parseCookies(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = {};
  // Every request parses this header: one pass with indexOf and no intermediate arrays or
  // objects, which showed as several per cent of a session read.
  if (!header || header.length < 2) return cookies;
  const length = header.length;
  let start = 0;
  while (start < length) {
    const equals = header.indexOf("=", start);
    // No `=` left: no pair from here on has a value.
    if (equals === -1) break;
    const semicolon = header.indexOf(";", start);
    const end = semicolon === -1 ? length : semicolon;
    if (equals < end) {
      const name = withoutBlanks(header, start, equals);
      if (!Object.hasOwn(cookies, name))
        cookies[name] = percentDecoded(withoutBlanks(header, equals + 1, end));
    }
    start = end + 1;
  }
  return cookies;
}

/** `header` from `start` to `end`, without the spaces and tabs at either end. */
function withoutBlanks(header: string, start: number, end: number): string {
  let from = start;
  let to = end;
  while (from < to && isBlank(header.charCodeAt(from))) from++;
  while (to > from && isBlank(header.charCodeAt(to - 1))) to--;
  return header.slice(from, to);
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** `value` percent-decoded; kept as written when it is not valid percent-encoding. */
function percentDecoded(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// --- the Set-Cookie header ------------------------------------------------------------------

const COOKIE_NAME = /^[\u0021-\u003A\u003C\u003E-\u007E]+$/;
const COOKIE_VALUE = /^[\u0021-\u003A\u003C-\u007E]*$/;
const DOMAIN_VALUE =
  /^([.]?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)([.][a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const PATH_VALUE = /^[\u0020-\u003A\u003D-\u007E]*$/;

/** The `; SameSite=…` attribute, or a `TypeError` for a value the attribute cannot take. */
function sameSiteAttribute(sameSite: SerializeOptions["sameSite"]): string {
  switch (typeof sameSite === "string" ? sameSite.toLowerCase() : sameSite) {
    case true:
    case "strict":
      return "; SameSite=Strict";
    case "lax":
      return "; SameSite=Lax";
    case "none":
      return "; SameSite=None";
    default:
      throw new TypeError(`option sameSite is invalid: ${String(sameSite)}`);
  }
}

/** The `; Priority=…` attribute, or a `TypeError` for a value the attribute cannot take. */
function priorityAttribute(priority: SerializeOptions["priority"]): string {
  switch (typeof priority === "string" ? priority.toLowerCase() : undefined) {
    case "low":
      return "; Priority=Low";
    case "medium":
      return "; Priority=Medium";
    case "high":
      return "; Priority=High";
    default:
      throw new TypeError(`option priority is invalid: ${String(priority)}`);
  }
}

/**
 * One `Set-Cookie` header value. The value is encoded with `options.encode` (default
 * `encodeURIComponent`); throws a `TypeError` for a name, encoded value or option a cookie cannot
 * hold.
 *
 * @example
 * ```ts
 * serializeSetCookie("a", "/☃", { path: "/", httpOnly: true }) // "a=%2F%E2%98%83; Path=/; HttpOnly"
 * ```
 */
export function serializeSetCookie(
  name: string,
  value: string,
  options: SerializeOptions = {},
): string {
  if (!COOKIE_NAME.test(name)) throw new TypeError(`argument name is invalid: ${name}`);
  // A value that is not a string (from untyped code) is written as text, as the package does.
  const text = String(value);
  const encoded = text ? (options.encode ?? encodeURIComponent)(text) : "";
  if (!COOKIE_VALUE.test(encoded)) throw new TypeError(`argument val is invalid: ${text}`);
  let line = `${name}=${encoded}`;
  if (options.maxAge !== undefined) {
    if (!Number.isInteger(options.maxAge))
      throw new TypeError(`option maxAge is invalid: ${options.maxAge}`);
    line += `; Max-Age=${options.maxAge}`;
  }
  if (options.domain) {
    if (!DOMAIN_VALUE.test(options.domain))
      throw new TypeError(`option domain is invalid: ${options.domain}`);
    line += `; Domain=${options.domain}`;
  }
  if (options.path) {
    if (!PATH_VALUE.test(options.path))
      throw new TypeError(`option path is invalid: ${options.path}`);
    line += `; Path=${options.path}`;
  }
  if (options.expires) {
    const expires: unknown = options.expires;
    if (
      Object.prototype.toString.call(expires) !== "[object Date]" ||
      !Number.isFinite((expires as Date).valueOf())
    )
      throw new TypeError(`option expires is invalid: ${String(expires)}`);
    line += `; Expires=${(expires as Date).toUTCString()}`;
  }
  if (options.httpOnly) line += "; HttpOnly";
  if (options.secure) line += "; Secure";
  if (options.partitioned) line += "; Partitioned";
  if (options.priority) line += priorityAttribute(options.priority);
  if (options.sameSite) line += sameSiteAttribute(options.sameSite);
  return line;
}
