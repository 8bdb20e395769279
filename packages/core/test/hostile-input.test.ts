import { Auth, type AuthConfig } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../src/lib/http/request.js";
import { ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const log = recordingLogger();
const config: AuthConfig = {
  secret: SECRET,
  trustHost: true,
  logger: log.logger,
  providers: [
    Credentials({
      credentials: { password: { type: "password" } },
      authorize: (c) => (c.password === "pw" ? { id: "1", name: "Ada" } : null),
    }),
  ],
};

const ACTIONS = [
  "callback",
  "csrf",
  "error",
  "providers",
  "session",
  "signin",
  "signout",
  "verify-request",
  "webauthn-options",
];

async function assertWellHandled(response: Response) {
  expect([200, 302, 400, 404, 405]).toContain(response.status);
  const location = response.headers.get("location");
  if (location) expect(new URL(location).origin).toBe(ORIGIN);
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack traces
}

describe("hostile requests", () => {
  it("answers 400 for unknown methods, paths and actions", async () => {
    for (const [method, path] of [
      ["PUT", "/auth/session"],
      ["DELETE", "/auth/signout"],
      ["GET", "/auth/unknown"],
      ["GET", "/auth/session/extra"],
      ["GET", "/auth/providers/credentials"],
      ["GET", "/auth/signin/a/b"],
      ["GET", "/elsewhere/session"],
      ["GET", "/auth"],
      ["GET", "/authsession"],
      ["POST", "/auth/csrf"],
      ["POST", "/auth/providers"],
    ] as const) {
      const response = await Auth(new Request(`${ORIGIN}${path}`, { method }), config);
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(await response.json()).toBe("Bad request.");
    }
  });

  it("answers 400 for malformed percent-encoding in the provider id", async () => {
    const response = await Auth(new Request(`${ORIGIN}/auth/signin/%E0%A4%A`), config);
    expect(response.status).toBe(400);
  });

  it("answers 400 for malformed JSON bodies and JSON that is not an object", async () => {
    for (const body of ["{", "[1,2]", '"string"', "null"]) {
      const response = await Auth(
        new Request(`${ORIGIN}/auth/session`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json" },
        }),
        config,
      );
      expect(response.status, body).toBe(400);
    }
  });

  it("refuses bodies over the size limit without reading them whole (memory exhaustion)", async () => {
    const body = "a=".padEnd(MAX_BODY_BYTES + 10, "x");
    const response = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        body,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      config,
    );
    expect(response.status).toBe(400);
  });

  it("ignores malformed cookies", async () => {
    const response = await Auth(
      new Request(`${ORIGIN}/auth/session`, {
        headers: { cookie: "authjs.session-token=%E0%A4%A; ;;=; authjs.csrf-token=|||; x" },
      }),
      config,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
  });

  it("never throws, never answers 500, never leaks a stack, never redirects off-site (property)", async () => {
    const segment = fc.oneof(
      fc.constantFrom(...ACTIONS, "credentials", "undefined", "%2F", "%00", "..", "%E0%A4%A"),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    const cookieValue = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom("a|b", "|", "eyJ..x.y.z", "%"),
    );
    const cookie = fc
      .array(
        fc.tuple(
          fc.constantFrom(
            "authjs.session-token",
            "authjs.session-token.0",
            "authjs.csrf-token",
            "authjs.callback-url",
            "x",
          ),
          cookieValue,
        ),
        { maxLength: 4 },
      )
      .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; "));
    const body = fc.oneof(
      fc.constant(undefined),
      fc
        .dictionary(
          fc.constantFrom("csrfToken", "callbackUrl", "password", "data", "email"),
          fc.string({ maxLength: 30 }),
        )
        .map((d) => ({
          type: "form" as const,
          text: new URLSearchParams(d).toString(),
        })),
      fc.json({ maxDepth: 2 }).map((text) => ({ type: "json" as const, text })),
      fc.string({ maxLength: 40 }).map((text) => ({ type: "json" as const, text })),
    );
    const callbackUrl = fc.oneof(
      fc.constantFrom(
        "https://evil.test",
        "//evil.test",
        "javascript:alert(1)",
        "/ok",
        "\u0000",
        "http://[::1",
        "%",
      ),
      fc.webUrl(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "OPTIONS"),
        fc.array(segment, { minLength: 0, maxLength: 3 }),
        cookie,
        body,
        fc.option(callbackUrl),
        async (method, segments, cookieHeader, payload, cb) => {
          const url = new URL(`${ORIGIN}/auth/${segments.join("/")}`);
          if (cb !== null) url.searchParams.set("callbackUrl", cb);
          const headers: Record<string, string> = { cookie: cookieHeader };
          let requestBody: string | undefined;
          if (payload && method !== "GET") {
            headers["content-type"] =
              payload.type === "form" ? "application/x-www-form-urlencoded" : "application/json";
            requestBody = payload.text;
          }
          const response = await Auth(
            new Request(url, { method, headers, body: requestBody }),
            config,
          );
          await assertWellHandled(response);
        },
      ),
      { numRuns: 400 },
    );
  });
});
