/**
 * The plugin inside Fastify apps of the test's own (through `app.inject`, Fastify's in-process
 * HTTP): what depends on how the app is set up — its `trustProxy`, its own body parsers and
 * hooks, a prefix of its choosing, a broken config. The real Fastify; nothing is mocked.
 */
import Credentials from "@tessera/core/providers/credentials";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { getSession, requireAuth, TesseraAuth, type TesseraAuthOptions } from "../src/index.js";

const SECRET = "fastify-plugin-secret-of-at-least-32-chars";
const ADA = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };

function options(overrides: Partial<TesseraAuthOptions> = {}): TesseraAuthOptions {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) =>
          username === "ada" && password === "lovelace" ? ADA : null,
      }),
    ],
    ...overrides,
  };
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function appWith(
  auth: TesseraAuthOptions,
  serverOptions: FastifyServerOptions = {},
  setup?: (app: FastifyInstance) => void | Promise<void>,
): Promise<FastifyInstance> {
  const app = Fastify(serverOptions);
  apps.push(app);
  await setup?.(app);
  await app.register(TesseraAuth, auth);
  app.get("/me", async (request) => ({ session: await getSession(request) }));
  await app.ready();
  return app;
}

/** The `name=value` pairs of a response's Set-Cookie headers. */
function cookiesOf(header: string | string[] | number | undefined): Map<string, string> {
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
  return new Map(
    lines.map((line) => {
      const pair = line.slice(0, line.indexOf(";"));
      const eq = pair.indexOf("=");
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
}

/** Signs Ada in under `prefix`; answers the cookies to send afterwards. */
async function signIn(
  app: FastifyInstance,
  prefix = "/auth",
  headers: Record<string, string> = {},
): Promise<Map<string, string>> {
  const csrf = await app.inject({ url: `${prefix}/csrf`, headers });
  const jar = cookiesOf(csrf.headers["set-cookie"]);
  const { csrfToken } = csrf.json() as { csrfToken: string };
  const response = await app.inject({
    method: "POST",
    url: `${prefix}/callback/credentials`,
    headers: {
      ...headers,
      "content-type": "application/x-www-form-urlencoded",
      cookie: [...jar].map(([n, v]) => `${n}=${v}`).join("; "),
    },
    payload: new URLSearchParams({ csrfToken, username: "ada", password: "lovelace" }).toString(),
  });
  expect(response.statusCode).toBe(302);
  return cookiesOf(response.headers["set-cookie"]);
}

function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([n, v]) => `${n}=${v}`).join("; ");
}

describe("TesseraAuth in a Fastify app", () => {
  it("serves the actions under the register prefix, which becomes the base path", async () => {
    const app = await appWith(options({ prefix: "/api/auth" }));
    const providers = await app.inject({ url: "/api/auth/providers" });
    expect(providers.json()).toMatchObject({
      credentials: { signinUrl: "http://localhost/api/auth/signin/credentials" },
    });
    expect((await app.inject({ url: "/auth/providers" })).statusCode).toBe(404);
    const jar = await signIn(app, "/api/auth");
    const me = await app.inject({ url: "/me", headers: { cookie: cookieHeader(jar) } });
    expect(me.json()).toMatchObject({ session: { user: { email: "ada@example.com" } } });
  });

  it("keeps the app's own body parsers: a form parser registered before it does not reach the actions", async () => {
    const app = await appWith(options(), {}, (root) => {
      // An app-wide form parser that turns bodies into objects, as @fastify/formbody does.
      root.addContentTypeParser(
        "application/x-www-form-urlencoded",
        { parseAs: "string" },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      root.post("/form", async (request) => ({ body: request.body }));
    });
    const jar = await signIn(app);
    expect(jar.has("authjs.session-token")).toBe(true);
    const form = await app.inject({
      method: "POST",
      url: "/form",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "a=1",
    });
    expect(form.json()).toEqual({ body: { a: "1" } });
  });

  it("honours trustProxy: X-Forwarded-Proto makes cookies __Secure- only from a trusted proxy", async () => {
    const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "app.example" };
    const trusting = await appWith(options(), { trustProxy: true });
    const secure = await trusting.inject({ url: "/auth/csrf", headers: forwarded });
    expect([...cookiesOf(secure.headers["set-cookie"]).keys()]).toEqual([
      "__Host-authjs.csrf-token",
    ]);
    const providers = await trusting.inject({ url: "/auth/providers", headers: forwarded });
    expect(providers.json()).toMatchObject({
      credentials: { signinUrl: "https://app.example/auth/signin/credentials" },
    });

    // Spoofed scheme (cookie downgrade/upgrade confusion): without trustProxy the header is ignored.
    const plain = await appWith(options());
    const insecure = await plain.inject({ url: "/auth/csrf", headers: forwarded });
    expect([...cookiesOf(insecure.headers["set-cookie"]).keys()]).toEqual(["authjs.csrf-token"]);
  });

  it("answers 400 to a Host that would rewrite the URL (host header injection)", async () => {
    const app = await appWith(options());
    const response = await app.inject({
      url: "/auth/session",
      headers: { host: "evil.example/x?" },
    });
    expect(response.statusCode).toBe(400);
    const me = await app.inject({ url: "/me", headers: { host: "evil.example/x?" } });
    expect(me.json()).toEqual({ session: null });
  });

  it("refuses an oversized body with 413 before the core reads it (memory exhaustion)", async () => {
    const app = await appWith(options());
    const response = await app.inject({
      method: "POST",
      url: "/auth/callback/credentials",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `csrfToken=${"x".repeat(1024 * 1024 + 1)}`,
    });
    expect(response.statusCode).toBe(413);
    expect(response.body).not.toMatch(/\bat .*\.(js|ts):\d+/);
  });

  it("keeps headers an earlier hook set (security headers) on the actions' answers", async () => {
    const app = await appWith(options(), {}, (root) => {
      root.addHook("onRequest", async (_request, reply) => {
        reply.header("x-frame-options", "DENY");
      });
    });
    const response = await app.inject({ url: "/auth/signin" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-frame-options"]).toBe("DENY");
  });

  it("re-issues a due session cookie on the reply of a route that read the session", async () => {
    const app = await appWith(options({ session: { updateAge: 0 } }));
    const jar = await signIn(app);
    const me = await app.inject({ url: "/me", headers: { cookie: cookieHeader(jar) } });
    expect(me.json()).toMatchObject({ session: { user: { name: "Ada Lovelace" } } });
    const reissued = cookiesOf(me.headers["set-cookie"]).get("authjs.session-token");
    expect(reissued).toBeTruthy();
    expect(reissued).not.toBe(jar.get("authjs.session-token"));
  });

  it("reads the session once per request however often request.auth is awaited", async () => {
    let reads = 0;
    const app = await appWith(
      options({
        callbacks: {
          session: ({ session }) => {
            reads++;
            return session;
          },
        },
      }),
      {},
      (root) => {
        root.get("/twice", async (request) => {
          const first = await request.auth;
          const second = await request.auth;
          const third = await getSession(request);
          return { same: first === second && second === third };
        });
      },
    );
    const jar = await signIn(app);
    reads = 0;
    const response = await app.inject({ url: "/twice", headers: { cookie: cookieHeader(jar) } });
    expect(response.json()).toEqual({ same: true });
    expect(reads).toBe(1);
  });

  it("requireAuth sends signed-out visitors to a page of the app's choosing, or answers 401", async () => {
    const app = await appWith(options(), {}, (root) => {
      root.get("/page", { onRequest: requireAuth({ redirectTo: "/login" }) }, async () => "page");
      root.get("/api", { onRequest: requireAuth({ redirectTo: false }) }, async () => "api");
    });
    const page = await app.inject({ url: "/page?tab=2" });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe("/login?callbackUrl=%2Fpage%3Ftab%3D2");
    expect((await app.inject({ url: "/api" })).statusCode).toBe(401);
    const jar = await signIn(app);
    const signedIn = await app.inject({ url: "/page", headers: { cookie: cookieHeader(jar) } });
    expect(signedIn.body).toBe("page");
  });

  it("fails app.ready() with the fix in the message when the config has no secret", async () => {
    const previous = process.env.AUTH_SECRET;
    delete process.env.AUTH_SECRET;
    try {
      const app = Fastify();
      apps.push(app);
      await expect(
        app.register(TesseraAuth, options({ secret: undefined })).ready(),
      ).rejects.toThrow(/secret/i);
    } finally {
      if (previous !== undefined) process.env.AUTH_SECRET = previous;
    }
  });

  it("names the fix when a route reads the session without the plugin", async () => {
    const app = Fastify();
    apps.push(app);
    app.get("/", async (request) => getSession(request));
    const response = await app.inject({ url: "/" });
    expect(response.statusCode).toBe(500);
    expect(response.json().message).toMatch(/register TesseraAuth/);
  });
});
