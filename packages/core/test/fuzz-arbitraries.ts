/**
 * What the fuzzers (fuzz.test.ts, and packages/express/test/fuzz-http.test.ts over HTTP) are made
 * of: hostile values as fast-check arbitraries, the configuration they attack (several providers,
 * both session strategies, a malicious identity provider answering every back-channel call), and
 * the leak detector applied to every answer.
 */
import type { AuthConfig } from "@tessera/core";
import { customFetch } from "@tessera/core";
import type { SendVerificationRequestParams } from "@tessera/core/providers";
import Credentials from "@tessera/core/providers/credentials";
import Email from "@tessera/core/providers/email";
import Passkey from "@tessera/core/providers/passkey";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import fc from "fast-check";

// ---------------------------------------------------------------------------------------------
// Strings
// ---------------------------------------------------------------------------------------------

/** A UTF-16 code unit of the surrogate range on its own (not valid Unicode, valid JavaScript). */
export const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((code) => String.fromCharCode(code));

/** C0 and C1 controls, DEL, and the invisible or direction-changing characters of Unicode. */
export const controlCharacter = fc
  .oneof(
    fc.integer({ min: 0, max: 0x1f }),
    fc.integer({ min: 0x7f, max: 0x9f }),
    fc.constantFrom(0x2028, 0x2029, 0xfeff, 0x200b, 0x200d, 0x202e, 0x2066, 0xfffe, 0xffff),
  )
  .map((code) => String.fromCharCode(code));

/** Characters with a meaning in URLs, cookies, headers, HTML, JSON or e-mail addresses. */
const SYNTAX = [..."/\\@:%?#&=;,\"'<>`{}|^[]() .+*~$!\t"];

/** One character of a hostile string: any plane of Unicode, syntax, surrogates, controls. */
const hostileUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SYNTAX) },
  { weight: 3, arbitrary: fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: controlCharacter },
);

/** Short strings of hostile characters. */
export const hostileText = (maxLength = 40) => fc.string({ unit: hostileUnit, maxLength });

/** Very long values (10–100 kB): a hostile pattern repeated, cut anywhere (even mid-pair). */
export const longText = fc
  .tuple(fc.string({ unit: hostileUnit, minLength: 1, maxLength: 12 }), fc.nat({ max: 90_000 }))
  .map(([pattern, extra]) => {
    const length = 10_000 + extra;
    return pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);
  });

/** Values that parsers, look-ups and type checks trip over. */
const SPECIAL_VALUES = [
  "",
  " ",
  "undefined",
  "null",
  "true",
  "0",
  "-1",
  "1e309",
  "NaN",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "%",
  "%00",
  "%E0%A4%A",
  "%ED%A0%80",
  "%C0%AF",
  "\u0000",
  "\ud800",
  "\udfff\ud800",
  "a\r\nSet-Cookie: x=1",
  "<script>alert(1)</script>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, literally
  "${7*7}{{7*7}}",
  "../../../../etc/passwd",
];

/** Any hostile string: full Unicode, lone surrogates, controls, special words, very long. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileText() },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_VALUES) },
  { weight: 1, arbitrary: longText },
);

// ---------------------------------------------------------------------------------------------
// Structured hostile values
// ---------------------------------------------------------------------------------------------

/** The origin every in-process request is made to. */
export const FUZZ_ORIGIN = "http://localhost:3000";

/** Open-redirect attempts (callbackUrl and redirect targets), plain and encoded. */
const EVIL_URLS = [
  "https://evil.test",
  "https://evil.test/auth/callback",
  "//evil.test",
  "///evil.test",
  "////evil.test",
  "/\\evil.test",
  "\\\\evil.test",
  "\\/evil.test",
  "/\t/evil.test",
  "/\n/evil.test",
  " //evil.test",
  "https:evil.test",
  "https:/evil.test",
  "http://localhost:3000@evil.test",
  "http://localhost:3000.evil.test",
  "http://evil.test#@localhost:3000",
  "http://evil.test\\@localhost:3000",
  "http://localhost:3000\\@evil.test",
  "http://LOCALHOST:3000/ok",
  "http://localhost:3000/ok",
  "https://localhost:3000/ok",
  "http://localhost:3001/",
  "javascript:alert(document.cookie)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "\u0000javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "/%2F%2Fevil.test",
  "%2F%2Fevil.test",
  "/%5Cevil.test",
  "%2f%2fevil.test",
  "/%252F%252Fevil.test",
  "/..//evil.test",
  "/./\\evil.test",
  "/\u3002evil.test",
  "//evil%E3%80%82test",
  "//ｅｖｉｌ.test",
  "/\ud800",
  "/\udc00x",
  "/\u0000",
  "/ok\r\nLocation: https://evil.test",
  "/ok?x=\ud83d",
  "http://[::1",
  "http://[::1]:3000/",
  "/",
  "/ok",
  "ok",
  "?next=//evil.test",
  "#//evil.test",
];

/** A `callbackUrl` (or `redirect`) value: open-redirect forms, their encodings, hostile text. */
export const hostileCallbackUrl: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...EVIL_URLS) },
  { weight: 2, arbitrary: fc.constantFrom(...EVIL_URLS).map((url) => safeEncode(url)) },
  {
    // Same-origin targets with a hostile tail: these pass the origin check and reach cookies.
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom("/", "/ok/", "/?next=", "http://localhost:3000/"), hostileText())
      .map(([prefix, rest]) => prefix + rest),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom("//", "/\\", "\\", "https://", "javascript:", ""), hostileText())
      .map(([prefix, rest]) => prefix + rest),
  },
  { weight: 1, arbitrary: hostileString },
);

/** Sign-in addresses: header and recipient-list injection, look-alikes, quoting, plus noise. */
const EVIL_EMAILS = [
  "ada@example.com",
  " ADA@Example.COM ",
  "ada@example.com\r\nBcc: eve@evil.test",
  "ada@example.com\nSubject: hi",
  "ada@example.com,eve@evil.test",
  "ada@example.com;eve@evil.test",
  "ada@example.com eve@evil.test",
  "ada@example.com\u0000@evil.test",
  '"eve@evil.test"@example.com',
  '"ada@example.com"',
  "eve@evil.test <ada@example.com>",
  "<eve@evil.test>",
  "ada\uff20evil.test",
  "ada\ufe6bevil.test",
  "ada@ｅｘａｍｐｌｅ.com",
  "ada@example.com.",
  "ada@[127.0.0.1]",
  "ada@localhost",
  "a@b@evil.test",
  "ada%40evil.test@example.com",
  "ada@exa\u200bmple.com",
  "ada@\ud800.test",
  "=?utf-8?q?eve=40evil.test?=@example.com",
  "@example.com",
  "ada@",
  "@",
];

/** An e-mail address field. */
export const hostileEmail: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EVIL_EMAILS) },
  { weight: 2, arbitrary: hostileText(20).map((local) => `${local}@example.com`) },
  { weight: 1, arbitrary: hostileText(20).map((domain) => `ada@${domain}`) },
  { weight: 2, arbitrary: hostileString },
);

/** A JSON value of any type, including deep nesting, where a string is expected. */
export const hostileJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 1, arbitrary: hostileEmail },
  { weight: 1, arbitrary: hostileCallbackUrl },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileText(8), hostileString, { maxKeys: 3 }) },
  {
    weight: 1,
    arbitrary: fc.nat({ max: 3000 }).map((depth) => {
      let value: unknown = "x";
      for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
      return value;
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1e308, {}, []) },
);

/** Names of the fields Tessera reads from bodies and queries, and a few that it must ignore. */
export const FIELD_NAMES = [
  "csrfToken",
  "callbackUrl",
  "redirect",
  "redirectTo",
  "email",
  "username",
  "password",
  "data",
  "action",
  "token",
  "code",
  "state",
  "iss",
  "error",
  "id_token",
  "user",
  "json",
  "__proto__",
  "constructor",
] as const;

/** A hostile value for a named field (callback URLs and e-mails get their own generators). */
export function valueFor(name: string): fc.Arbitrary<unknown> {
  if (name === "callbackUrl" || name === "redirect" || name === "redirectTo")
    return fc.oneof(hostileCallbackUrl, hostileJsonValue);
  if (name === "email") return fc.oneof(hostileEmail, hostileJsonValue);
  if (name === "data") return fc.oneof(hostileJsonValue, hostileJsonValue.map(safeStringify));
  return hostileJsonValue;
}

/** A field name Tessera reads (the most consequential ones more often), or any hostile name. */
const fieldName = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom("csrfToken", "callbackUrl", "email", "username", "password", "data"),
  },
  { weight: 2, arbitrary: fc.constantFrom(...FIELD_NAMES) },
  { weight: 1, arbitrary: hostileText(12) },
);

/** One named field with a hostile value. */
export const hostileField = (name: fc.Arbitrary<string> = fieldName) =>
  name.chain((n) => valueFor(n).map((value): [string, unknown] => [n, value]));

/** Fields of a form, JSON body or query: names Tessera reads with hostile values (any type). */
export const hostileFields: fc.Arbitrary<[string, unknown][]> = fc.array(hostileField(), {
  maxLength: 6,
});

/** Content types, honest or lying about the body. */
export const contentType = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "application/x-www-form-urlencoded",
      "application/json",
      "application/x-www-form-urlencoded; charset=utf-8",
      "application/json; charset=utf-16",
      "APPLICATION/JSON",
      "Application/X-WWW-Form-Urlencoded",
      "application/json, application/x-www-form-urlencoded",
      "application/x-www-form-urlencoded;application/json",
      "application/jsonx",
      "text/plain",
      "text/html",
      "multipart/form-data; boundary=----x",
      "multipart/form-data",
      "application/octet-stream",
      "",
    ),
  },
  { weight: 1, arbitrary: hostileText(30) },
);

/** The body of a POST: how it is written and what the content type claims. */
export type FuzzBody =
  | { kind: "form"; fields: [string, unknown][]; contentType: string }
  | { kind: "json"; value: unknown; contentType: string }
  | { kind: "raw"; text: string; contentType: string };

const RAW_BODIES = [
  "{",
  "[",
  "]",
  '{"csrfToken":',
  "null",
  "[]",
  "[1,2]",
  '"string"',
  "0",
  "true",
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"callbackUrl":"/\\ud800"}',
  '{"callbackUrl":"//evil.test","csrfToken":["a","b"]}',
  '{"email":{"toString":"x"}}',
  "%",
  "a=%E0%A4%A",
  "&&==&=&",
  "csrfToken=a&csrfToken=b",
  "callbackUrl=%2F%2Fevil.test",
  "email=ada%40example.com%0D%0ABcc%3Aeve%40evil.test",
  "\ufeff{}",
  "\u0000",
];

const HONEST_TYPES = {
  form: [
    "application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded; charset=utf-8",
    "Application/X-WWW-Form-Urlencoded",
  ],
  json: ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON"],
};

/** Mostly the content type that matches the body, sometimes one that lies. */
const contentTypeFor = (kind: "form" | "json") =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HONEST_TYPES[kind]) },
    { weight: 1, arbitrary: contentType },
  );

/** A form body carrying `fields`. */
export const formBody = (fields: fc.Arbitrary<[string, unknown][]>): fc.Arbitrary<FuzzBody> =>
  fc.record({ kind: fc.constant("form" as const), fields, contentType: contentTypeFor("form") });

/** A JSON object body carrying `fields`. */
export const jsonBody = (fields: fc.Arbitrary<[string, unknown][]>): fc.Arbitrary<FuzzBody> =>
  fc.record({
    kind: fc.constant("json" as const),
    value: fields.map((pairs) => Object.fromEntries(pairs)),
    contentType: contentTypeFor("json"),
  });

/** A POST body: a form, a JSON value (objects, but also arrays and scalars), or raw bytes. */
export const hostileBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  { weight: 4, arbitrary: formBody(hostileFields) },
  { weight: 4, arbitrary: jsonBody(hostileFields) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("json" as const),
      value: hostileJsonValue,
      contentType: contentTypeFor("json"),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("raw" as const),
      text: fc.oneof(fc.constantFrom(...RAW_BODIES), hostileString),
      contentType: fc.oneof(contentTypeFor("json"), contentTypeFor("form")),
    }),
  },
);

/** Cookie names Tessera reads, with chunk suffixes (valid, odd and huge) and secure prefixes. */
const COOKIE_BASES = [
  "authjs.session-token",
  "authjs.csrf-token",
  "authjs.callback-url",
  "authjs.pkce.code_verifier",
  "authjs.state",
  "authjs.nonce",
  "authjs.challenge",
  "__Secure-authjs.session-token",
  "__Host-authjs.csrf-token",
  "next-auth.session-token",
];
const CHUNK_SUFFIXES = [
  "",
  "",
  "",
  ".0",
  ".1",
  ".2",
  ".10",
  ".00",
  ".-1",
  ".1e3",
  ".a",
  ".9999999999999999999",
  ".",
];

/** A cookie name: one Tessera reads (maybe chunked) or any hostile name. */
export const cookieName = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom(...COOKIE_BASES), fc.constantFrom(...CHUNK_SUFFIXES))
      .map(([base, suffix]) => base + suffix),
  },
  { weight: 1, arbitrary: hostileText(10) },
);

/** A cookie value: JWE-shaped garbage, CSRF-shaped garbage, percent-encoding, hostile text. */
export const cookieValue = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..x.y.z",
      "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.",
      "a.b.c.d.e",
      "....",
      "a|b",
      "|",
      `${"0".repeat(64)}|${"0".repeat(64)}`,
      "%",
      '"quoted"',
      "a=b",
    ),
  },
  { weight: 1, arbitrary: hostileCallbackUrl },
);

/** Header names an attacker controls and Tessera (or the platform) might read. */
export const HEADER_NAMES = [
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-for",
  "forwarded",
  "origin",
  "referer",
  "x-auth-return-redirect",
  "accept",
  "accept-language",
  "user-agent",
  "authorization",
  "cookie",
  "content-type",
  "sec-fetch-site",
  "sec-fetch-mode",
  "x-csrf-token",
  "if-none-match",
] as const;

/** Extra request headers: names Tessera or the platform might read, hostile values. */
export const hostileHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...HEADER_NAMES) },
      {
        weight: 1,
        arbitrary: fc.stringMatching(/^[a-z0-9!#$%&'*+.^_`|~-]{1,16}$/),
      },
    ),
    fc.oneof(
      { weight: 3, arbitrary: hostileString },
      { weight: 1, arbitrary: hostileCallbackUrl },
      { weight: 1, arbitrary: contentType },
    ),
  ),
  { maxLength: 4 },
);

// ---------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------

/** Every action Tessera serves. */
export const ACTIONS = [
  "signin",
  "callback",
  "signout",
  "session",
  "csrf",
  "providers",
  "error",
  "verify-request",
  "webauthn-options",
] as const;

/** Provider ids of {@link fuzzConfig}. */
export const PROVIDER_IDS = ["credentials", "fuzz-oauth", "fuzz-oidc", "email", "passkey"] as const;

/**
 * A path under `/auth` (without it): an action, with or without one of the configured provider
 * ids, unknown actions and providers, and segments that decode badly.
 */
export const actionPath: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...ACTIONS),
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 6, arbitrary: fc.constantFrom(...PROVIDER_IDS) },
          {
            weight: 1,
            arbitrary: fc.constantFrom("undefined", "unknown", "CREDENTIALS", "%2e%2e"),
          },
          { weight: 1, arbitrary: hostileText(20).map((id) => safeEncode(id)) },
        ),
      )
      .map(([action, provider]) => (provider === undefined ? action : `${action}/${provider}`)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "unknown",
      "session/extra",
      "signin/credentials/extra",
      "..%2Fsession",
      "%E0%A4%A",
      "signin/%E0%A4%A",
      "callback/%ED%A0%80",
      "callback/%00",
      "callback//credentials",
      "SESSION",
      "session;x",
      "session%00",
      ".",
    ),
  },
  { weight: 1, arbitrary: hostileText(30).map((segment) => safeEncode(segment)) },
);

/** Methods: mostly GET and POST, also every other method Tessera must refuse. */
export const method = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("GET", "POST") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "PUT",
      "DELETE",
      "PATCH",
      "OPTIONS",
      "HEAD",
      "PROPFIND",
      "get",
      "post",
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** Query strings written by hand: bad percent-encoding and repeated parameters. */
const RAW_QUERIES = [
  "",
  "",
  "",
  "callbackUrl=%ED%A0%80",
  "callbackUrl=%",
  "callbackUrl=%2F%2Fevil.test",
  "callbackUrl=/ok&callbackUrl=//evil.test",
  "email=%E0%A4%A",
  "error=%00",
  "a&&b==c",
  "state=&code=&iss=",
  "action=register&email=ada%40example.com",
  "action=authenticate",
];

/** One request of the fuzz. */
export interface FuzzCase {
  method: string;
  /** The path under `/auth/`. */
  path: string;
  query: [string, unknown][];
  rawQuery: string;
  /** Name, value, and whether the value is percent-encoded. */
  cookies: [string, string, boolean][];
  headers: [string, string][];
  body: FuzzBody | undefined;
  withCsrf: boolean;
  withSession: boolean;
}

type CaseParts = { [K in keyof FuzzCase]: fc.Arbitrary<FuzzCase[K]> };

const mostly = (value: boolean) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: fc.boolean() });

/** A case: every part hostile, or the given parts aimed at one feature. */
export function caseOf(parts: Partial<CaseParts> = {}): fc.Arbitrary<FuzzCase> {
  return fc.record<FuzzCase>({
    method,
    path: actionPath,
    query: hostileFields,
    rawQuery: fc.constantFrom(...RAW_QUERIES),
    cookies: fc.array(fc.tuple(cookieName, cookieValue, fc.boolean()), { maxLength: 4 }),
    headers: hostileHeaders,
    body: fc.option(hostileBody, { nil: undefined }),
    withCsrf: fc.boolean(),
    withSession: fc.boolean(),
    ...parts,
  });
}

/** Hostile fields that always include one `name` field. */
const fieldsWith = (...names: string[]) =>
  fc.tuple(...names.map((name) => hostileField(fc.constant(name))), hostileFields).map((parts) => {
    const named = parts.slice(0, -1) as [string, unknown][];
    const rest = parts.at(-1) as [string, unknown][];
    return [...named, ...rest];
  });

/** A form or JSON body with hostile values in `names`. */
const bodyWith = (...names: string[]) =>
  fc.oneof(formBody(fieldsWith(...names)), jsonBody(fieldsWith(...names)));

/**
 * The fuzz: mostly fully random requests, plus requests aimed at one feature (valid CSRF token,
 * the right action and content type) so that hostile values reach the code that uses them.
 */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  { weight: 6, arbitrary: caseOf() },
  {
    // Open redirects: callbackUrl in the query or the body of every action that reads it.
    weight: 3,
    arbitrary: caseOf({
      method: fc.constantFrom("GET", "POST"),
      path: fc.constantFrom(
        "signin",
        "signout",
        "signin/credentials",
        "signin/fuzz-oauth",
        "signin/email",
        "callback/credentials",
        "callback/fuzz-oauth",
        "callback/email",
      ),
      query: fc.array(hostileField(fc.constant("callbackUrl")), { maxLength: 2 }),
      body: fc.option(bodyWith("callbackUrl"), { nil: undefined, freq: 3 }),
      withCsrf: mostly(true),
    }),
  },
  {
    // E-mail sign-in: recipient injection and normalisation.
    weight: 1,
    arbitrary: caseOf({
      method: fc.constant("POST"),
      path: fc.constantFrom("signin/email", "signin/email", "signin"),
      body: bodyWith("email"),
      withCsrf: mostly(true),
    }),
  },
  {
    // E-mail link callback: hostile token and address.
    weight: 1,
    arbitrary: caseOf({
      method: fc.constant("GET"),
      path: fc.constant("callback/email"),
      query: fieldsWith("token", "email"),
    }),
  },
  {
    // Credentials: fields of every JSON type.
    weight: 1,
    arbitrary: caseOf({
      method: fc.constant("POST"),
      path: fc.constant("callback/credentials"),
      body: bodyWith("username", "password"),
      withCsrf: mostly(true),
    }),
  },
  {
    // Session reads and updates, with a real session and hostile `data`.
    weight: 1,
    arbitrary: caseOf({
      method: fc.constantFrom("GET", "POST"),
      path: fc.constant("session"),
      body: bodyWith("data"),
      withCsrf: mostly(true),
      withSession: mostly(true),
    }),
  },
  {
    // WebAuthn options and callbacks.
    weight: 1,
    arbitrary: caseOf({
      method: fc.constantFrom("GET", "POST"),
      path: fc.constantFrom("webauthn-options/passkey", "callback/passkey", "webauthn-options"),
      query: fieldsWith("action", "email"),
      body: bodyWith("action", "data"),
      withCsrf: mostly(true),
    }),
  },
  {
    // Sign-out with a real session.
    weight: 1,
    arbitrary: caseOf({
      method: fc.constantFrom("GET", "POST"),
      path: fc.constant("signout"),
      body: fc.option(bodyWith("callbackUrl", "csrfToken"), { nil: undefined }),
      withCsrf: mostly(true),
      withSession: mostly(true),
    }),
  },
);

// ---------------------------------------------------------------------------------------------
// Encoding helpers
// ---------------------------------------------------------------------------------------------

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `encodeURIComponent`, with lone surrogates encoded as the bytes a careless client would send. */
export function safeEncode(value: string): string {
  return value
    .split(LONE_SURROGATE)
    .map((part) => encodeURIComponent(part))
    .join("%ED%A0%80");
}

/** `JSON.stringify` that never throws (cycles cannot occur in generated values, BigInt can't). */
export function safeStringify(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/**
 * A string as a header value that the Fetch API accepts: UTF-8 bytes read as Latin-1 (as
 * Node's HTTP parser hands raw bytes over), without NUL/CR/LF, which `Headers` refuses.
 */
export function toHeaderValue(value: string): string {
  return Buffer.from(value, "utf8")
    .toString("latin1")
    .replace(/[\0\r\n]/g, "")
    .trim();
}

/** A form body from fields of any type (`String()` of each, as a careless client would send). */
export function formText(fields: [string, unknown][]): string {
  const form = new URLSearchParams();
  for (const [name, value] of fields)
    form.append(name, typeof value === "string" ? value : safeStringify(value));
  return form.toString();
}

/** The text of a body as sent on the wire. */
export function bodyText(body: FuzzBody): string {
  if (body.kind === "form") return formText(body.fields);
  if (body.kind === "json") return safeStringify(body.value);
  return body.text;
}

/** `body` with a CSRF token added (forms and JSON objects; other bodies cannot carry one). */
export function withCsrfToken(body: FuzzBody, token: string): FuzzBody {
  if (body.kind === "form") return { ...body, fields: [["csrfToken", token], ...body.fields] };
  if (
    body.kind === "json" &&
    body.value &&
    typeof body.value === "object" &&
    !Array.isArray(body.value)
  )
    return { ...body, value: { csrfToken: token, ...body.value } };
  return body;
}

// ---------------------------------------------------------------------------------------------
// The configuration under attack
// ---------------------------------------------------------------------------------------------

export const FUZZ_SECRET = "fuzz-secret-that-is-at-least-thirty-two-characters-long";
export const FUZZ_CLIENT_SECRET = "fuzz-oauth-client-secret-never-to-be-shown";
export const IDP_ORIGIN = "https://idp.test";
export const OIDC_ORIGIN = "https://oidc.test";

/** The secrets no answer may ever contain. */
export const SECRETS = [FUZZ_SECRET, FUZZ_CLIENT_SECRET];

/** What the malicious identity provider answers to a back-channel request. */
export interface IdpAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * A malicious identity provider: every back-channel request Tessera makes (token, userinfo,
 * JWKS) is answered with the next answer the current case chose (the last one repeats). Nothing
 * leaves the process.
 */
export class MaliciousIdp {
  answers: IdpAnswer[] = [{ status: 500, contentType: "text/plain", body: "down" }];
  readonly requests: string[] = [];
  readonly fetch = async (input: string | URL | Request): Promise<Response> => {
    this.requests.push(input instanceof Request ? input.url : String(input));
    const answer = (this.answers.length > 1 ? this.answers.shift() : this.answers[0]) ?? {
      status: 500,
      contentType: "",
      body: "",
    };
    const { status, contentType: type, body } = answer;
    return new Response(status === 204 || status === 304 ? null : body, {
      status,
      headers: type ? { "content-type": type } : {},
    });
  };
}

/** Token, userinfo and JWKS answers of a malicious or broken identity provider. */
export const idpAnswer: fc.Arbitrary<IdpAnswer> = fc.record({
  status: fc.constantFrom(200, 200, 200, 200, 200, 201, 204, 302, 400, 401, 500, 503),
  contentType: fc.constantFrom(
    "application/json",
    "application/json",
    "text/html",
    "",
    "application/jwt",
  ),
  body: fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record(
          {
            access_token: hostileJsonValue,
            token_type: fc.oneof(fc.constantFrom("bearer", "Bearer", "DPoP", "mac"), hostileString),
            id_token: fc.oneof(
              fc.constantFrom(
                "eyJhbGciOiJub25lIn0.eyJzdWIiOiJldmUiLCJpc3MiOiJodHRwczovL29pZGMudGVzdCJ9.",
                "a.b.c",
              ),
              hostileJsonValue,
            ),
            expires_in: hostileJsonValue,
            refresh_token: hostileJsonValue,
            scope: hostileJsonValue,
            error: hostileJsonValue,
            keys: hostileJsonValue,
            sub: hostileJsonValue,
            id: hostileJsonValue,
            email: hostileEmail,
          },
          { requiredKeys: [] },
        )
        .map(safeStringify),
    },
    {
      // A well-formed token response, so that the userinfo request and profile mapping run.
      weight: 3,
      arbitrary: fc
        .record({ scope: hostileJsonValue, expires_in: hostileJsonValue }, { requiredKeys: [] })
        .map((extra) => safeStringify({ access_token: "fuzz-at", token_type: "bearer", ...extra })),
    },
    {
      // A profile with hostile claims.
      weight: 3,
      arbitrary: fc
        .record(
          {
            id: hostileJsonValue,
            sub: hostileJsonValue,
            email: fc.oneof(hostileEmail, hostileJsonValue),
            name: hostileJsonValue,
            email_verified: hostileJsonValue,
          },
          { requiredKeys: [] },
        )
        .map(safeStringify),
    },
    { weight: 1, arbitrary: hostileJsonValue.map(safeStringify) },
    { weight: 1, arbitrary: hostileString },
  ),
});

/** A token endpoint answer: mostly a well-formed one (so that the profile is fetched next). */
export const tokenAnswer: fc.Arbitrary<IdpAnswer> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constant({
      status: 200,
      contentType: "application/json",
      body: '{"access_token":"fuzz-at","token_type":"bearer"}',
    }),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({ scope: hostileJsonValue, expires_in: hostileJsonValue }, { requiredKeys: [] })
      .map((extra) => ({
        status: 200,
        contentType: "application/json",
        body: safeStringify({ access_token: "fuzz-at", token_type: "bearer", ...extra }),
      })),
  },
  { weight: 1, arbitrary: idpAnswer },
);

/** Calls of `sendVerificationRequest` (no mail is sent). */
export type SentLink = Pick<SendVerificationRequestParams, "identifier" | "url">;

/** Options of {@link fuzzConfig}. */
export interface FuzzConfigOptions {
  strategy: "jwt" | "database";
  idp: MaliciousIdp;
  sent: SentLink[];
  /** Errors the logger received (Tessera logs every refused request). */
  logged?: Error[];
}

/**
 * A valid configuration with every kind of provider: credentials, a plain OAuth 2 provider and an
 * OpenID Connect one (explicit endpoints: no discovery), e-mail links recorded instead of sent,
 * and passkeys; the memory adapter; the session strategy of `options`. `trustHost` is explicit.
 */
export function fuzzConfig(options: FuzzConfigOptions): AuthConfig {
  const { strategy, idp, sent, logged } = options;
  return {
    secret: FUZZ_SECRET,
    trustHost: true,
    adapter: MemoryAdapter(createMemoryStore()),
    session: { strategy },
    experimental: { enableWebAuthn: true },
    logger: {
      error: (error) => void logged?.push(error),
      warn: () => {},
      debug: () => {},
    },
    providers: [
      Credentials({
        credentials: { username: { label: "User name" }, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === "ada" && password === "lovelace"
            ? { id: "ada", name: "Ada", email: "ada@example.com" }
            : null,
      }),
      {
        id: "fuzz-oauth",
        name: "Fuzz OAuth",
        type: "oauth",
        clientId: "fuzz-client",
        clientSecret: FUZZ_CLIENT_SECRET,
        authorization: `${IDP_ORIGIN}/authorize`,
        token: `${IDP_ORIGIN}/token`,
        userinfo: `${IDP_ORIGIN}/userinfo`,
        checks: ["pkce", "state"],
        profile: (profile: Record<string, unknown>) => ({
          id: String(profile.id ?? profile.sub),
          email: typeof profile.email === "string" ? profile.email : null,
        }),
        [customFetch]: idp.fetch,
      },
      {
        id: "fuzz-oidc",
        name: "Fuzz OIDC",
        type: "oidc",
        issuer: OIDC_ORIGIN,
        clientId: "fuzz-client",
        clientSecret: FUZZ_CLIENT_SECRET,
        authorization: `${OIDC_ORIGIN}/authorize`,
        token: `${OIDC_ORIGIN}/token`,
        userinfo: `${OIDC_ORIGIN}/userinfo`,
        jwks_endpoint: `${OIDC_ORIGIN}/jwks`,
        checks: ["pkce", "state", "nonce"],
        [customFetch]: idp.fetch,
      },
      Email({
        sendVerificationRequest: ({ identifier, url }) => void sent.push({ identifier, url }),
      }),
      Passkey(),
    ],
  };
}

/**
 * A misconfigured configuration: the e-mail provider and passkeys without an adapter. Every
 * request may answer 500 `{message}` (or the error page), but never with a stack or a secret.
 */
export function misconfiguredConfig(logged?: Error[]): AuthConfig {
  return {
    secret: FUZZ_SECRET,
    trustHost: true,
    experimental: { enableWebAuthn: true },
    logger: { error: (error) => void logged?.push(error), warn: () => {}, debug: () => {} },
    providers: [Email({ sendVerificationRequest: () => {} }), Passkey()],
  };
}

// ---------------------------------------------------------------------------------------------
// What an answer must never contain
// ---------------------------------------------------------------------------------------------

/** A stack frame as V8 prints it, also as Express's error page escapes it (`&nbsp;`). */
const STACK_FRAME = /(?: {4}|(?:&nbsp;|\s){2,})at [^\s]/;
/** An absolute file path of this machine, or a module URL. */
const FILE_PATH = /(?:file:\/\/\/|\/node_modules\/|\/packages\/[a-z-]+\/src\/|\.ts:\d+:\d+)/;

/**
 * Names the first leak in `answer` (a response's status line, headers and body as text): a
 * secret, a stack frame or a file path. Text the request itself carried is not a leak (a page may
 * legitimately show an escaped copy of a hostile input), so `sent` is checked too.
 */
export function findLeak(answer: string, sent: string): string | undefined {
  for (const secret of SECRETS) if (answer.includes(secret)) return `the secret ${secret}`;
  const cwd = process.cwd();
  if (answer.includes(cwd) && !sent.includes(cwd)) return `the path ${cwd}`;
  const frame = STACK_FRAME.exec(answer);
  if (frame && !sent.includes(frame[0])) return `a stack frame (${frame[0]})`;
  const path = FILE_PATH.exec(answer);
  if (path && !sent.includes(path[0])) return `a file path (${path[0]})`;
  return undefined;
}
