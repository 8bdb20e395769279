/**
 * The Next.js integration without a Next.js server: route handlers, `auth` as middleware and as a
 * wrapper, and the Pages Router form, each driven with real `NextRequest`s through the real core.
 * (Server components and server actions need Next.js's request context: app.test.ts covers them
 * in a built app.)
 */
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { callAction, signInActionFor } from "@tessera/core";
import CoreCredentials from "@tessera/core/providers/credentials";
import { memoryStore } from "@tessera/core/store";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import NextAuth, { type NextAuthConfig, type NextAuthRequest } from "@tessera/next";
import NextCredentials from "@tessera/next/providers/credentials";
import { NextRequest } from "next/server.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configLoader } from "../src/lib/config.js";
import { CookieJar, DEMO_PASSWORD, DEMO_USER, demoConfig, SECRET } from "./helpers.js";

const ORIGIN = "http://localhost:3000";

/** Signs the demo user in through the route handlers, as the built-in sign-in page does. */
async function signInThroughHandlers(
  handlers: ReturnType<typeof NextAuth>["handlers"],
  jar: CookieJar,
  basePath = "/api/auth",
  origin = ORIGIN,
): Promise<Response> {
  const csrf = await handlers.GET(
    new NextRequest(`${origin}${basePath}/csrf`, { headers: jar.headers() }),
  );
  jar.store(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await handlers.POST(
    new NextRequest(`${origin}${basePath}/callback/credentials`, {
      method: "POST",
      headers: jar.headers({ "content-type": "application/x-www-form-urlencoded" }),
      body: new URLSearchParams({
        csrfToken,
        email: DEMO_USER.email,
        password: DEMO_PASSWORD,
        callbackUrl: `${origin}/dashboard`,
      }),
    }),
  );
  jar.store(response);
  return response;
}

function page(path: string, jar = new CookieJar()): NextRequest {
  return new NextRequest(`${ORIGIN}${path}`, { headers: jar.headers() });
}

const savedEnv = { ...process.env };
afterEach(() => {
  for (const name of ["AUTH_URL", "NEXTAUTH_URL", "AUTH_SECRET", "AUTH_TRUST_HOST"]) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
});

describe("route handlers", () => {
  it("serve the actions under /api/auth and sign a user in with credentials", async () => {
    const { handlers } = NextAuth(demoConfig());
    const providers = await handlers.GET(page("/api/auth/providers"));
    expect(await providers.json()).toMatchObject({
      credentials: { callbackUrl: `${ORIGIN}/api/auth/callback/credentials` },
    });
    const jar = new CookieJar();
    const response = await signInThroughHandlers(handlers, jar);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    const session = await handlers.GET(page("/api/auth/session", jar));
    expect(await session.json()).toMatchObject({
      user: { name: DEMO_USER.name, email: DEMO_USER.email },
    });
  });

  it("keep the CSRF check: a credentials post without the token signs no one in", async () => {
    const { handlers } = NextAuth(demoConfig());
    const response = await handlers.POST(
      new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: DEMO_USER.email, password: DEMO_PASSWORD }),
      }),
    );
    expect(response.headers.get("location")).toContain("error=MissingCSRF");
    expect(response.headers.getSetCookie().join()).not.toContain("session-token");
  });

  it("take the base path from the path of AUTH_URL and the public origin from it", async () => {
    process.env.AUTH_URL = "https://app.example.com/custom/auth";
    const { handlers } = NextAuth(demoConfig());
    // The request arrives with the internal host a reverse proxy forwards to.
    const response = await handlers.GET(
      new NextRequest("http://10.0.0.7:3000/custom/auth/providers"),
    );
    expect(await response.json()).toMatchObject({
      credentials: {
        signinUrl: "https://app.example.com/custom/auth/signin/credentials",
        callbackUrl: "https://app.example.com/custom/auth/callback/credentials",
      },
    });
  });

  it("read the secret from AUTH_SECRET when the config has none", async () => {
    process.env.AUTH_SECRET = SECRET;
    const { handlers } = NextAuth(demoConfig({ secret: undefined }));
    const jar = new CookieJar();
    await signInThroughHandlers(handlers, jar);
    expect([...jar.cookies.keys()]).toContain("authjs.session-token");
  });

  it("refuse an untrusted host in production unless AUTH_TRUST_HOST says otherwise", async () => {
    const { handlers } = NextAuth(demoConfig({ trustHost: false }));
    const response = await handlers.GET(page("/api/auth/session"));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      message: expect.stringContaining("server configuration"),
    });
  });
});

describe("auth as middleware (proxy.ts)", () => {
  const onlySignedIn: NextAuthConfig["callbacks"] = {
    authorized: ({ auth }) => Boolean(auth),
  };

  it("redirects a signed-out visitor to the sign-in page with the page as callbackUrl", async () => {
    const { auth } = NextAuth(demoConfig({ callbacks: onlySignedIn }));
    const response = await auth(page("/protected?tab=2"));
    expect(response.status).toBe(307);
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.pathname).toBe("/api/auth/signin");
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/protected?tab=2`);
  });

  it("lets a signed-in user through", async () => {
    const { auth, handlers } = NextAuth(demoConfig({ callbacks: onlySignedIn }));
    const jar = new CookieJar();
    await signInThroughHandlers(handlers, jar);
    const response = await auth(page("/protected", jar));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get("location")).toBeNull();
  });

  it("sends visitors to pages.signIn and never redirects the sign-in page to itself", async () => {
    const { auth } = NextAuth(
      demoConfig({ callbacks: onlySignedIn, pages: { signIn: "/login?from=guard" } }),
    );
    const location = new URL((await auth(page("/protected"))).headers.get("location") ?? "");
    expect(`${location.pathname}?from=${location.searchParams.get("from")}`).toBe(
      "/login?from=guard",
    );
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/protected`);
    const onLoginPage = await auth(page("/login"));
    expect(onLoginPage.headers.get("x-middleware-next")).toBe("1");
  });

  it("uses a Response returned by the authorized callback as it is", async () => {
    const { auth } = NextAuth(
      demoConfig({
        callbacks: {
          authorized: ({ auth: session }) =>
            session ? true : Response.json({ message: "Sign in first" }, { status: 401 }),
        },
      }),
    );
    const response = await auth(page("/api/reports"));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Sign in first" });
  });

  it("fails closed when the authorized callback throws or returns nothing", async () => {
    const throwing = NextAuth(
      demoConfig({
        logger: { error: () => {} },
        callbacks: {
          authorized: () => {
            throw new Error("database unreachable");
          },
        },
      }),
    );
    expect((await throwing.auth(page("/protected"))).status).toBe(307);
    const silent = NextAuth(demoConfig({ callbacks: { authorized: () => undefined } }));
    expect((await silent.auth(page("/protected"))).status).toBe(307);
  });

  it("fails closed on a configuration error: a valid session cookie counts as no session", async () => {
    const { handlers } = NextAuth(demoConfig());
    const jar = new CookieJar();
    await signInThroughHandlers(handlers, jar);
    const seen: unknown[] = [];
    // Same secret, but the host is not trusted: every action is a configuration error.
    const broken = NextAuth(
      demoConfig({
        trustHost: false,
        logger: { error: () => {} },
        callbacks: {
          authorized: ({ auth }) => {
            seen.push(auth);
            return Boolean(auth);
          },
        },
      }),
    );
    const response = await broken.auth(page("/protected", jar));
    expect(seen).toEqual([null]);
    expect(response.status).toBe(307);
  });

  it("leaves the auth routes and pages reachable even when the authorized callback refuses", async () => {
    const { auth } = NextAuth(
      demoConfig({ callbacks: { authorized: () => false }, pages: { error: "/auth-error" } }),
    );
    for (const path of ["/api/auth/signin", "/api/auth/callback/credentials", "/auth-error"]) {
      const response = await auth(page(path));
      expect(response.headers.get("x-middleware-next")).toBe("1");
    }
    expect((await auth(page("/auth-error/details"))).status).toBe(307);
  });

  it("keeps the session alive: a re-issued session cookie goes out with the response", async () => {
    const config = demoConfig({ session: { updateAge: 0 } });
    const { auth, handlers } = NextAuth(config);
    const jar = new CookieJar();
    await signInThroughHandlers(handlers, jar);
    const response = await auth(page("/anything", jar));
    expect(response.headers.getSetCookie().join()).toMatch(/^authjs\.session-token=/);
  });

  it("calls a lazy config with the incoming request", async () => {
    const seen: string[] = [];
    const { auth } = NextAuth((request) => {
      seen.push(request?.nextUrl.pathname ?? "none");
      return demoConfig({ callbacks: onlySignedIn });
    });
    expect((await auth(page("/protected"))).status).toBe(307);
    expect(seen).toEqual(["/protected"]);
  });
});

describe("auth(handler) wrappers", () => {
  it("hand the session to the handler on request.auth", async () => {
    const { auth, handlers } = NextAuth(demoConfig());
    const route = auth((request: NextAuthRequest) =>
      Response.json({ email: request.auth?.user?.email ?? null }),
    );
    const jar = new CookieJar();
    expect(await (await route(page("/api/me"), {})).json()).toEqual({ email: null });
    await signInThroughHandlers(handlers, jar);
    expect(await (await route(page("/api/me", jar), {})).json()).toEqual({
      email: DEMO_USER.email,
    });
  });

  it("run the handler even when the authorized callback refuses, as next-auth does: the handler decides with request.auth", async () => {
    const { auth } = NextAuth(demoConfig({ callbacks: { authorized: ({ auth }) => !!auth } }));
    const route = auth((request: NextAuthRequest) =>
      request.auth
        ? new Response("secret")
        : Response.json({ message: "Not authenticated" }, { status: 401 }),
    );
    const response = await route(page("/api/admin"), {});
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Not authenticated" });
  });

  it("answer with the Response the authorized callback returns, without running the handler", async () => {
    let calls = 0;
    const { auth } = NextAuth(
      demoConfig({
        callbacks: { authorized: () => Response.json({ message: "No" }, { status: 403 }) },
      }),
    );
    const route = auth(() => {
      calls++;
      return new Response("secret");
    });
    const response = await route(page("/admin"), {});
    expect(response.status).toBe(403);
    expect(calls).toBe(0);
  });

  it("pass a middleware that returns nothing through, with the refreshed cookie", async () => {
    const { auth, handlers } = NextAuth(demoConfig({ session: { updateAge: 0 } }));
    const jar = new CookieJar();
    await signInThroughHandlers(handlers, jar);
    const middleware = auth(() => undefined);
    const response = await middleware(page("/", jar), {});
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.getSetCookie().join()).toContain("authjs.session-token=");
  });
});

describe("auth in the Pages Router", () => {
  it("reads the session from a Node request and sets refreshed cookies on the response", async () => {
    const { auth, handlers } = NextAuth(demoConfig({ session: { updateAge: 0 } }));
    const jar = new CookieJar();
    await signInThroughHandlers(handlers, jar);
    const server = createServer(async (req, res) => {
      const session = await auth({ req, res });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(session));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      const signedIn = await fetch(`http://127.0.0.1:${port}/`, { headers: jar.headers() });
      expect(await signedIn.json()).toMatchObject({ user: { email: DEMO_USER.email } });
      expect(signedIn.headers.getSetCookie().join()).toContain("authjs.session-token=");
      const signedOut = await fetch(`http://127.0.0.1:${port}/`);
      expect(await signedOut.json()).toBeNull();
    } finally {
      server.close();
    }
  });
});

describe("what auth() returns, as next-auth's", () => {
  /** The session auth() gives a server (Pages Router form: no Next.js request context needed). */
  async function authResult(config: NextAuthConfig): Promise<Record<string, unknown> | null> {
    const { auth, handlers } = NextAuth(config);
    const jar = new CookieJar();
    await signInThroughHandlers(handlers, jar);
    const server = createServer(async (req, res) => {
      res.end(JSON.stringify(await auth({ req, res })));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      return (await (
        await fetch(`http://127.0.0.1:${port}/`, { headers: jar.headers() })
      ).json()) as Record<string, unknown> | null;
    } finally {
      server.close();
    }
  }

  it("database strategy: session.user is the adapter user, with its id; the session token stays out", async () => {
    const store = createMemoryStore();
    const session = await authResult(
      demoConfig({ adapter: MemoryAdapter(store), session: { strategy: "database" } }),
    );
    const [stored] = [...store.sessions.values()];
    expect(session?.user).toMatchObject({ id: stored?.userId, email: DEMO_USER.email });
    expect(session).toMatchObject({ userId: stored?.userId, expires: expect.any(String) });
    expect(JSON.stringify(session)).not.toContain(stored?.sessionToken ?? "no session stored");
  });

  it("JWT strategy with a session callback: the token is the user under what the callback returns", async () => {
    const session = await authResult(
      demoConfig({ callbacks: { session: ({ session }) => ({ ...session, plan: "pro" }) } }),
    );
    expect(session).toMatchObject({ plan: "pro", user: { email: DEMO_USER.email } });
  });

  it("JWT strategy with a session callback that drops user: the token stands in, with its sub", async () => {
    const session = await authResult(
      demoConfig({ callbacks: { session: ({ session }) => ({ expires: session.expires }) } }),
    );
    expect(session?.user).toMatchObject({ email: DEMO_USER.email, sub: expect.any(String) });
  });

  it("auth() never hands provider tokens to the page when the session callback returns no user", async () => {
    const session = await authResult(
      demoConfig({
        jwt: { revocation: memoryStore() },
        callbacks: {
          // What an OAuth sign-in through a refresh: true provider keeps in the session JWT
          // (the credentials provider here has none, so the jwt callback puts it there).
          jwt: ({ token, trigger }) =>
            trigger === "signIn"
              ? {
                  ...token,
                  "tessera.oauth": {
                    provider: "op",
                    providerAccountId: "1",
                    access_token: "secret-access-token",
                    refresh_token: "secret-refresh-token",
                    id_token: "secret-id-token",
                  },
                }
              : token,
          session: ({ session }) => ({ expires: session.expires }),
        },
      }),
    );
    expect(session?.user).toMatchObject({ email: DEMO_USER.email, sub: expect.any(String) });
    expect(session?.user).not.toHaveProperty("tessera.oauth");
    expect(session?.user).not.toHaveProperty("sid");
    expect(session?.user).not.toHaveProperty("jti");
    expect(JSON.stringify(session)).not.toMatch(/secret-(access|refresh|id)-token/);
  });
});

describe("re-exports", () => {
  it("map next-auth/providers/* one to one onto the core's providers", async () => {
    const coreDir = fileURLToPath(new URL("../../core/src/providers/", import.meta.url));
    const nextDir = fileURLToPath(new URL("../src/providers/", import.meta.url));
    const core = readdirSync(coreDir).filter((file) => file.endsWith(".ts"));
    const next = readdirSync(nextDir).filter((file) => file.endsWith(".ts"));
    // When this fails, run `npm run sync-providers -w @tessera/next`.
    expect(next.sort()).toEqual(core.sort());
    for (const file of core) {
      const name = file.slice(0, -3);
      const specifier =
        name === "index" ? "@tessera/core/providers" : `@tessera/core/providers/${name}`;
      expect(readFileSync(`${nextDir}${file}`, "utf8")).toContain(`from "${specifier}"`);
    }
    expect(NextCredentials).toBe(CoreCredentials);
  });
});

describe("checking the config when NextAuth() runs", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("logs a fixed config's error at creation, and every request still answers it", async () => {
    delete process.env.AUTH_SECRET;
    const errors: Error[] = [];
    const { handlers } = NextAuth(
      demoConfig({ secret: undefined, logger: { error: (error) => errors.push(error) } }),
    );
    expect(errors.map((error) => error.name)).toEqual(["MissingSecret"]);
    expect(errors[0]?.message).toContain("AUTH_SECRET");
    expect((await handlers.GET(page("/api/auth/session"))).status).toBe(500);
  });

  it("says nothing while next build imports the route without the runtime AUTH_SECRET", () => {
    delete process.env.AUTH_SECRET;
    vi.stubEnv("NEXT_PHASE", "phase-production-build");
    const errors: Error[] = [];
    expect(() =>
      NextAuth(demoConfig({ secret: undefined, logger: { error: (error) => errors.push(error) } })),
    ).not.toThrow();
    expect(errors).toEqual([]);
  });

  it("leaves a lazy config to its requests", () => {
    delete process.env.AUTH_SECRET;
    const errors: Error[] = [];
    NextAuth(() =>
      demoConfig({ secret: undefined, logger: { error: (error) => errors.push(error) } }),
    );
    expect(errors).toEqual([]);
  });
});

describe("server actions", () => {
  it("sign in through the core in-process without a csrf-disabled warning when the app disabled nothing", async () => {
    const warnings: string[] = [];
    const config = demoConfig({ logger: { warn: (code) => warnings.push(code) } });
    // What signIn("credentials", form) runs once Next.js has given it the request's headers.
    const variants = await configLoader(config)(undefined);
    const result = await callAction(variants.action, {
      action: signInActionFor(variants.action, "credentials", ORIGIN) ?? "signin",
      providerId: "credentials",
      url: ORIGIN,
      headers: new Headers({ host: "localhost:3000" }),
      body: new URLSearchParams({
        email: DEMO_USER.email,
        password: DEMO_PASSWORD,
        callbackUrl: `${ORIGIN}/dashboard`,
      }),
    });
    expect(result.redirect).toBe(`${ORIGIN}/dashboard`);
    expect(result.cookies?.map((cookie) => cookie.name)).toContain("authjs.session-token");
    expect(warnings).not.toContain("csrf-disabled");
  });
});
