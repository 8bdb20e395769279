/**
 * lib/http/cookies.ts parses and writes cookie headers as the `cookie` package's `parse` and
 * `serialize` (v1), which the core used before: the same cookies from the same `Cookie` header,
 * the same `Set-Cookie` line or the same refusal for the same name, value and options.
 */
import { parse, type SerializeOptions, serialize } from "cookie";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCookies, serializeSetCookie } from "../src/lib/http/cookies.js";

/** The outcome of a call: its result, or the refusal's class and message. */
function outcome<T>(call: () => T): { value: T } | { error: string } {
  try {
    return { value: call() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** How the core read a Cookie header with the package: its `parse`, copied into a plain object. */
function parsedByPackage(header: string): Record<string, string> {
  const parsed = parse(header);
  const cookies: Record<string, string> = {};
  for (const name in parsed) {
    const value = parsed[name];
    if (value !== undefined) cookies[name] = value;
  }
  return cookies;
}

/** Characters that matter to the parser: separators, spaces, percent-encoding, quotes, non-ASCII. */
const HEADER_CHARS = fc.constantFrom(...'ab=;= ;\t%2E%zz"_~☃\u00e9,'.split(""));

describe("Cookie header parsing", () => {
  it("finds the same cookies as the cookie package in written and random headers", () => {
    const headers = [
      "",
      "a",
      "a=1",
      " a = 1 ; b=2;c",
      "a=1; a=2",
      "a=%E2%98%83; b=%zz; c=%",
      'a="quoted"; b=',
      "=v; a=1",
      "noequals; a=1; ;; b=2",
      "__proto__=x; constructor=y; toString=z",
      "a=1;b=2;\tc = 3\t",
    ];
    for (const header of headers)
      expect(parseCookies(header), header).toStrictEqual(parsedByPackage(header));
    fc.assert(
      fc.property(fc.string({ unit: HEADER_CHARS, maxLength: 40 }), (header) => {
        expect(parseCookies(header)).toStrictEqual(parsedByPackage(header));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("Set-Cookie writing", () => {
  it("writes the same line, or refuses with the same error, as the cookie package", () => {
    const date = new Date(Date.UTC(2030, 0, 2, 3, 4, 5));
    const cases: [string, string, SerializeOptions | undefined][] = [
      ["a", "/☃", { path: "/", httpOnly: true }],
      ["a", "", { maxAge: 0, secure: true, sameSite: "lax" }],
      ["__Host-x", "v", { path: "/", secure: true, sameSite: "none", partitioned: true }],
      ["a", "v", { domain: ".example.com", expires: date, priority: "high", sameSite: true }],
      // Untyped code may write the values capitalised; both accept them in any case.
      ["a", "v", { sameSite: "Strict" as SerializeOptions["sameSite"], priority: "Low" as "low" }],
      ["a", "v", { encode: (value) => value }],
      ["a", "v v", { encode: (value) => value }],
      ["a b", "v", undefined],
      ["a", "v", { maxAge: 1.5 }],
      ["a", "v", { domain: "bad domain" }],
      ["a", "v", { path: "/a;b" }],
      ["a", "v", { expires: new Date(Number.NaN) }],
      ["a", "v", { priority: "urgent" as SerializeOptions["priority"] }],
      ["a", "v", { sameSite: "sometimes" as SerializeOptions["sameSite"] }],
    ];
    for (const [name, value, options] of cases)
      expect(
        outcome(() => serializeSetCookie(name, value, options)),
        name,
      ).toEqual(outcome(() => serialize(name, value, options)));
    fc.assert(
      fc.property(
        fc.string({ maxLength: 8 }),
        fc.string({ maxLength: 12 }),
        fc.record(
          {
            maxAge: fc.oneof(fc.integer(), fc.double()),
            path: fc.string({ maxLength: 6 }),
            domain: fc.string({ maxLength: 8 }),
            httpOnly: fc.boolean(),
            secure: fc.boolean(),
            sameSite: fc.constantFrom("lax", "Strict", "none", true, false, "x"),
          },
          { requiredKeys: [] },
        ),
        (name, value, options) => {
          const given = options as SerializeOptions;
          expect(outcome(() => serializeSetCookie(name, value, given))).toEqual(
            outcome(() => serialize(name, value, given)),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});
