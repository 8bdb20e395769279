/**
 * Cookie names and options (identical to Auth.js v5, so a running site can switch without signing
 * anyone out), and the chunking of large session cookies.
 */
import type { SerializeOptions } from "cookie";
import type { Cookie, CookieOption, CookiesOptions } from "../../types.js";
import { parseCookieHeader } from "./cookie-header.js";

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

/** Parses cookies; never throws (malformed pairs and bad percent-encoding are skipped). */
export function parseCookies(header: string | null): Record<string, string> {
  if (!header) return {};
  try {
    const parsed = parseCookieHeader(header);
    const out: Record<string, string> = {};
    for (const name in parsed) {
      const value = parsed[name];
      if (value !== undefined) out[name] = value;
    }
    return out;
  } catch {
    return {};
  }
}
