import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Auth, type AuthConfig, type ResponseInternal } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import fc from "fast-check";
import { afterAll, describe, expect, it, vi } from "vitest";
import { MAX_BODY_BYTES, toResponse } from "../src/lib/pipeline.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

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

/**
 * `Auth()` behind a bare `node:http` server, the way a plain Node app serves it: no framework
 * catches anything. A rejected `Auth()` is recorded (a real server of this shape would crash on
 * the unhandled rejection) and the connection dropped.
 */
async function bareNodeServer(authConfig: AuthConfig) {
  const rejections: unknown[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string") headers.set(name, value);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      ...(req.method === "POST" && { body: Buffer.concat(chunks) }),
    });
    let response: Response;
    try {
      response = await Auth(request, authConfig);
    } catch (error) {
      rejections.push(error);
      res.destroy();
      return;
    }
    res.statusCode = response.status;
    for (const [name, value] of response.headers)
      if (name !== "set-cookie") res.setHeader(name, value);
    res.setHeader("set-cookie", response.headers.getSetCookie());
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  servers.push(server);
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, rejections };
}

const servers: http.Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

describe("a lone surrogate in the callback URL (unhandled-rejection denial of service)", () => {
  // `JSON.parse` turns `\ud800` into a lone UTF-16 surrogate, which `encodeURIComponent` refuses.
  const body = '{"callbackUrl":"/\\ud800"}';

  it("cannot make Auth() reject behind a bare node:http server", async () => {
    const { origin, rejections } = await bareNodeServer(config);
    const response = await fetch(`${origin}/auth/signin/credentials`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      redirect: "manual",
    }).catch(() => undefined); // the connection is dropped when Auth() rejects
    expect(rejections).toEqual([]);
    if (!response) throw new Error("no response");
    expect(response.status).toBe(302);
    const text = await response.text();
    expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
    const cookie = response.headers
      .getSetCookie()
      .find((c) => c.startsWith("authjs.callback-url="));
    // The lone surrogate became U+FFFD in the parsed URL, percent-encoded.
    expect(cookie).toContain(encodeURIComponent(`${origin}/%EF%BF%BD`));
    // The server still answers.
    expect((await fetch(`${origin}/auth/session`)).status).toBe(200);
  });

  it("resolves for every action that reads a callback URL", async () => {
    for (const path of [
      "/auth/signin/credentials",
      "/auth/callback/credentials",
      "/auth/signout",
    ]) {
      const response = await Auth(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
        config,
      );
      await assertWellHandled(response);
    }
  });
});

describe("the last-resort answer", () => {
  it("is a plain 500 {message} without the error, not a rejection, when the error path throws too", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const throwingLogger: AuthConfig = {
      ...config,
      logger: {
        error: () => {
          throw new Error("log sink down");
        },
      },
      providers: [
        Credentials({
          authorize: () => {
            throw new Error("database down");
          },
        }),
      ],
    };
    const client = new Client(throwingLogger);
    const csrfToken = await client.csrfToken();
    const response = await client.post("/auth/callback/credentials", { csrfToken });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ message: expect.stringContaining("server configuration") });
    expect(text).not.toContain("down");
    expect(String(spy.mock.calls[0]?.[1])).toContain("log sink down");
    spy.mockRestore();
  });
});

describe("the response writer", () => {
  it("never throws, whatever the cookie, header, redirect or body values", async () => {
    const internals: ResponseInternal[] = [
      { cookies: [{ name: "authjs.callback-url", value: "/\ud800", options: { path: "/" } }] },
      { cookies: [{ name: "a b", value: "x", options: { path: "/" } }] },
      { cookies: [{ name: "ok", value: "\udc00", options: { expires: new Date(0) } }] },
      { cookies: [{ name: "ok", value: "x", options: { domain: "bad domain" } }] },
      { redirect: "http://localhost:3000/\u043f\r\nSet-Cookie: x=1" },
      { headers: { "X-Test": "a\r\nb", "Content-Type": "text/plain" }, body: "ok" },
      { headers: { "Content-Type": "application/json" }, body: { n: 1n } },
      { status: 1000 },
    ];
    for (const internal of internals) {
      const response = toResponse(internal);
      expect(response.status).toBeGreaterThanOrEqual(200);
      await response.text();
    }
    const redirect = toResponse({ redirect: "http://localhost:3000/\u043f\r\nSet-Cookie: x=1" });
    expect(redirect.headers.get("location")).toBe("http://localhost:3000/%D0%BFSet-Cookie:%20x=1");
    expect(redirect.headers.getSetCookie()).toEqual([]);
  });
});

describe("non-ASCII callback URLs", () => {
  async function signIn(client: Client, extra: Record<string, string> = {}) {
    const csrfToken = await client.csrfToken();
    return client.post("/auth/callback/credentials", { csrfToken, password: "pw", ...extra });
  }

  it("signs in and lands on the percent-encoded URL for callbackUrl=/привет", async () => {
    const client = new Client(config);
    const response = await signIn(client, { callbackUrl: "/привет" });
    expect(response.headers.get("location")).toBe(new URL("/привет", ORIGIN).href);
    expect(client.jar.has("authjs.session-token")).toBe(true);
  });

  it("signs in and lands on the percent-encoded URL for a callback-url cookie /☃", async () => {
    const client = new Client(config);
    client.jar.set("authjs.callback-url", encodeURIComponent("/☃"));
    const response = await signIn(client);
    expect(response.headers.get("location")).toBe(new URL("/☃", ORIGIN).href);
    expect(client.jar.has("authjs.session-token")).toBe(true);
  });
});
