/**
 * Differential scenarios: the same requests to next-auth@4.24.15's Pages Router handler and to
 * Tessera's, served by Next.js's own API resolver on one origin. Status, redirects, JSON shapes
 * and cookie names must agree; where Tessera answers differently on purpose the test says so and
 * the migration guide lists it. Sessions and CSRF tokens are carried from one to the other.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../../core/test/fixtures/oidc-provider.js";
import type { SetCookie } from "../../express/test/http-client.js";
import NextAuth, { getServerSession } from "../src/index.js";
import { encode, getToken } from "../src/jwt.js";
import CredentialsProvider from "../src/providers/credentials.js";
import type { NextAuthOptions } from "../src/types.js";
import { type ApiHandler, type Impl, ImplClient, startPagesApi } from "./pages-api.js";

// next-auth v4 is CommonJS; its default export is the `default` property of the module.
const require = createRequire(import.meta.url);
const v4NextAuth = (require("next-auth") as { default: (...args: unknown[]) => unknown }).default;
const v4GetServerSession = (
  require("next-auth/next") as { getServerSession: (...args: unknown[]) => Promise<unknown> }
).getServerSession;
const v4GetToken = (require("next-auth/jwt") as { getToken: (params: unknown) => Promise<unknown> })
  .getToken;
const v4Credentials = (
  require("next-auth/providers/credentials") as { default: (options: unknown) => unknown }
).default;

/** A response with Next.js's API resolver's `res.json`. */
interface NextApiResponseLike extends ServerResponse {
  json(body: unknown): void;
}

const secret = "differential-secret-of-thirty-two-chars";

const credentials = {
  username: { label: "User name", type: "text" },
  password: { label: "Password", type: "password" },
};

async function authorize(fields: Record<string, string> | undefined) {
  if (fields?.password !== "right") return null;
  return { id: "user-1", name: fields.username, email: `${fields.username}@example.test` };
}

/** The same v4 options for both (a fresh object each: v4 writes `secret` into its options). */
function callbacks(): NextAuthOptions["callbacks"] {
  return {
    jwt: async ({ token, user }) => (user ? { ...token, role: "admin" } : token),
    session: async ({ session, token }) => ({
      ...session,
      user: { ...session.user, role: token.role, id: token.sub },
    }),
  };
}

let origin: string;
let close: () => Promise<void>;
let op: RunningOidcProvider;

/** The local OpenID Provider as a v4 app configures a custom OIDC provider: `wellKnown`, `idToken`. */
function opProvider() {
  return {
    id: "op",
    name: "Local OP",
    type: "oauth" as const,
    wellKnown: `${op.issuer}/.well-known/openid-configuration`,
    idToken: true,
    checks: ["pkce" as const, "state" as const],
    clientId: "v4-app",
    clientSecret: "v4-app-secret",
    authorization: { params: { scope: "openid email profile" } },
    profile: (profile: Record<string, string>) => ({
      id: profile.sub ?? "",
      name: profile.name ?? null,
      email: profile.email ?? null,
    }),
  };
}

beforeAll(async () => {
  process.env.NEXTAUTH_SECRET = secret;
  const handlers = {} as Record<Impl, ApiHandler>;
  const routes: Record<string, Record<Impl, ApiHandler>> = {};
  const server = await startPagesApi(handlers, routes);
  origin = server.origin;
  close = server.close;
  process.env.NEXTAUTH_URL = origin;
  op = await startOidcProvider({
    clients: [
      {
        client_id: "v4-app",
        client_secret: "v4-app-secret",
        redirect_uris: [`${origin}/api/auth/callback/op`],
      },
    ],
    accounts: [{ sub: "grace", email: "grace@example.test", email_verified: true, name: "Grace" }],
  });
  const v4Options = {
    providers: [v4Credentials({ name: "Password", credentials, authorize }), opProvider()],
    callbacks: callbacks(),
  };
  const tesseraOptions: NextAuthOptions = {
    providers: [CredentialsProvider({ name: "Password", credentials, authorize }), opProvider()],
    callbacks: callbacks(),
  };
  handlers.v4 = ((req: unknown, res: unknown) => v4NextAuth(req, res, v4Options)) as ApiHandler;
  handlers.tessera = NextAuth(tesseraOptions) as ApiHandler;
  // getServerSession(req, res, options) and getToken({ req }) in API routes, as v4 apps call them.
  routes["/api/server-session"] = {
    v4: async (req, res) =>
      (res as NextApiResponseLike).json(await v4GetServerSession(req, res, v4Options)),
    tessera: async (req, res) =>
      (res as NextApiResponseLike).json(await getServerSession(req, res, tesseraOptions)),
  };
  routes["/api/token"] = {
    v4: async (req, res) => (res as NextApiResponseLike).json(await v4GetToken({ req })),
    tessera: async (req, res) =>
      (res as NextApiResponseLike).json(
        await getToken({ req: req as IncomingMessage & { headers: Record<string, string> } }),
      ),
  };
});

afterAll(async () => {
  await close?.();
  await op?.close();
  delete process.env.NEXTAUTH_URL;
  delete process.env.NEXTAUTH_SECRET;
});

function clients(): Record<Impl, ImplClient> {
  return { v4: new ImplClient(origin, "v4"), tessera: new ImplClient(origin, "tessera") };
}

/** Name and attributes of the cookies a response set (values differ by nature). */
function cookieShapes(list: SetCookie[]): Record<string, string[]> {
  const shapes: Record<string, string[]> = {};
  for (const cookie of list)
    shapes[cookie.name] = Object.keys(cookie.attributes)
      .filter((name) => name !== "expires" && name !== "max-age")
      .sort();
  return shapes;
}

async function signIn(client: ImplClient, password = "right") {
  const csrfToken = await client.csrfToken("/api/auth");
  const response = await client.postForm("/api/auth/callback/credentials", {
    csrfToken,
    username: "ada",
    password,
    callbackUrl: `${origin}/dashboard`,
    json: "true",
  });
  return { response, body: (await response.json()) as { url: string } };
}

describe("GET /api/auth/csrf", () => {
  it("answers the same JSON shape and the same CSRF cookie, token|sha256(token+secret)", async () => {
    const answers = await Promise.all(
      Object.values(clients()).map(async (client) => {
        const response = await client.get("/api/auth/csrf");
        return {
          status: response.status,
          body: (await response.json()) as { csrfToken: string },
          cookies: client.lastSetCookies,
        };
      }),
    );
    const [v4, tessera] = answers as [(typeof answers)[0], (typeof answers)[0]];
    expect(tessera.status).toBe(v4.status);
    expect(Object.keys(tessera.body)).toEqual(Object.keys(v4.body));
    expect(tessera.body.csrfToken).toMatch(/^[0-9a-f]{64}$/);
    // Deliberate difference (migration guide): v4 also writes `next-auth.callback-url` on any
    // request without one; Tessera writes it only where a sign-in names a callbackUrl.
    const { "next-auth.callback-url": _v4Only, ...v4Cookies } = cookieShapes(v4.cookies);
    expect(_v4Only).toBeDefined();
    expect(cookieShapes(tessera.cookies)).toEqual(v4Cookies);
    const { createHash } = await import("node:crypto");
    for (const { body, cookies } of answers) {
      const value = decodeURIComponent(
        cookies.find((c) => c.name === "next-auth.csrf-token")?.value ?? "",
      );
      const [token, hash] = value.split("|");
      expect(token).toBe(body.csrfToken);
      expect(hash).toBe(createHash("sha256").update(`${token}${secret}`).digest("hex"));
    }
  });

  it("a CSRF cookie and token from one side are accepted by the other (sign-out goes through)", async () => {
    for (const [from, to] of [
      ["v4", "tessera"],
      ["tessera", "v4"],
    ] as const) {
      const source = clients()[from];
      const csrfToken = await source.csrfToken("/api/auth");
      const target = new ImplClient(origin, to);
      for (const [name, value] of source.jar) target.jar.set(name, value);
      const response = await target.postForm("/api/auth/signout", {
        csrfToken,
        callbackUrl: `${origin}/bye`,
        json: "true",
      });
      expect(response.status, `${from} → ${to}`).toBe(200);
      expect(await response.json()).toEqual({ url: `${origin}/bye` });
    }
  });
});

describe("GET /api/auth/providers and /session", () => {
  it("list the providers with the same JSON", async () => {
    const { v4, tessera } = clients();
    const [a, b] = await Promise.all([
      v4.get("/api/auth/providers"),
      tessera.get("/api/auth/providers"),
    ]);
    expect(b.status).toBe(a.status);
    expect(await b.json()).toEqual(await a.json());
  });

  it("answer a signed-out session as v4 does", async () => {
    const { v4, tessera } = clients();
    const [a, b] = await Promise.all([
      v4.get("/api/auth/session"),
      tessera.get("/api/auth/session"),
    ]);
    expect(b.status).toBe(a.status);
    expect(await b.json()).toEqual(await a.json());
  });
});

describe("credentials sign-in", () => {
  it("answers the same { url }, sets the same cookies, and the session reads the same", async () => {
    const results = [];
    for (const client of Object.values(clients())) {
      const { response, body } = await signIn(client);
      const cookies = cookieShapes(client.lastSetCookies);
      const session = (await (await client.get("/api/auth/session")).json()) as Record<
        string,
        unknown
      >;
      results.push({ status: response.status, body, cookies, session });
    }
    const [v4, tessera] = results as [(typeof results)[0], (typeof results)[0]];
    expect(tessera.status).toBe(v4.status);
    expect(tessera.body).toEqual(v4.body);
    // Deliberate difference (migration guide): Tessera rotates the CSRF token when a session
    // starts (a token planted before sign-in is worthless after it); v4 keeps it.
    const { "next-auth.csrf-token": rotated, ...sessionCookies } = tessera.cookies;
    expect(rotated).toEqual(["httponly", "path", "samesite"]);
    expect(sessionCookies).toEqual(v4.cookies);
    expect(tessera.session).toEqual({ ...v4.session, expires: tessera.session.expires });
    expect(tessera.session.user).toEqual({
      name: "ada",
      email: "ada@example.test",
      role: "admin",
      id: "user-1",
    });
  });

  it("refuses a wrong password with v4's error name", async () => {
    for (const client of Object.values(clients())) {
      const { body } = await signIn(client, "wrong");
      expect(new URL(body.url).searchParams.get("error"), client.impl).toBe("CredentialsSignin");
      expect(client.jar.has("next-auth.session-token")).toBe(false);
    }
  });
});

describe("a session surviving the switch", () => {
  it("a v4 session cookie reads as the same session on Tessera, and the other way round", async () => {
    for (const [from, to] of [
      ["v4", "tessera"],
      ["tessera", "v4"],
    ] as const) {
      const source = clients()[from];
      await signIn(source);
      const own = (await (await source.get("/api/auth/session")).json()) as Record<string, unknown>;
      const target = new ImplClient(origin, to);
      target.jar.set("next-auth.session-token", source.jar.get("next-auth.session-token") ?? "");
      const read = (await (await target.get("/api/auth/session")).json()) as Record<
        string,
        unknown
      >;
      expect(read.user, `${from} → ${to}`).toEqual(own.user);
    }
  });
});

describe("OIDC sign-in against the local OpenID Provider (wellKnown, idToken, PKCE, state)", () => {
  it("sets v4's state and PKCE cookies, completes the flow and reads the same session", async () => {
    const results = [];
    for (const client of Object.values(clients())) {
      const csrfToken = await client.csrfToken("/api/auth");
      const start = await client.postForm("/api/auth/signin/op", {
        csrfToken,
        callbackUrl: `${origin}/after`,
        json: "true",
      });
      const { url } = (await start.json()) as { url: string };
      const checks = cookieShapes(client.lastSetCookies);
      expect(new URL(url).origin, client.impl).toBe(op.issuer);
      const back = await op.authorize(url);
      const callback = await client.get(new URL(back.url).pathname + new URL(back.url).search);
      const session = (await (await client.get("/api/auth/session")).json()) as {
        user?: Record<string, unknown>;
      };
      results.push({
        status: callback.status,
        location: callback.headers.get("location"),
        checks,
        user: session.user,
      });
    }
    const [v4, tessera] = results as [(typeof results)[0], (typeof results)[0]];
    expect(Object.keys(tessera.checks).sort()).toEqual(Object.keys(v4.checks).sort());
    expect(Object.keys(v4.checks)).toEqual(
      expect.arrayContaining(["next-auth.state", "next-auth.pkce.code_verifier"]),
    );
    expect(tessera.status).toBe(v4.status);
    expect(tessera.location).toBe(v4.location);
    expect(tessera.user).toEqual(v4.user);
    expect(tessera.user).toMatchObject({ name: "Grace", email: "grace@example.test", id: "grace" });
  });
});

describe("an OAuth sign-in in flight across the switch", () => {
  /**
   * One side sends the browser to the OpenID Provider (its state and PKCE cookies set), the site
   * switches (or rolls back) while the user is there, the other side receives the callback.
   */
  async function signInAcross(from: Impl, to: Impl) {
    const source = clients()[from];
    const csrfToken = await source.csrfToken("/api/auth");
    const start = await source.postForm("/api/auth/signin/op", {
      csrfToken,
      callbackUrl: `${origin}/after-switch`,
      json: "true",
    });
    const { url } = (await start.json()) as { url: string };
    const back = new URL((await op.authorize(url)).url);
    const target = new ImplClient(origin, to);
    for (const [name, value] of source.jar) target.jar.set(name, value);
    const callback = await target.get(back.pathname + back.search);
    const cleared = target.lastSetCookies
      .filter((cookie) => cookie.value === "")
      .map((cookie) => cookie.name);
    const session = (await (await target.get("/api/auth/session")).json()) as {
      user?: Record<string, unknown>;
    };
    return { callback, cleared, session };
  }

  it("a sign-in started on next-auth v4 completes on Tessera (v4's state and PKCE cookies read)", async () => {
    const { callback, cleared, session } = await signInAcross("v4", "tessera");
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`${origin}/after-switch`);
    // Single use: the check cookies are deleted by the callback that used them.
    expect(cleared).toEqual(
      expect.arrayContaining(["next-auth.state", "next-auth.pkce.code_verifier"]),
    );
    expect(session.user).toMatchObject({ name: "Grace", email: "grace@example.test", id: "grace" });
  });

  it("a sign-in started on Tessera completes on next-auth v4 after a rollback (v4 reads Tessera's)", async () => {
    const { callback, session } = await signInAcross("tessera", "v4");
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`${origin}/after-switch`);
    expect(session.user).toMatchObject({ name: "Grace", email: "grace@example.test", id: "grace" });
  });

  it("a state cookie sealed under another secret (forged) still fails with v4's OAuthCallback", async () => {
    const source = clients().v4;
    const csrfToken = await source.csrfToken("/api/auth");
    const start = await source.postForm("/api/auth/signin/op", { csrfToken, json: "true" });
    const { url } = (await start.json()) as { url: string };
    const back = new URL((await op.authorize(url)).url);
    const forged = await encode({
      token: { value: back.searchParams.get("state") ?? "", provider: "op" },
      secret: "an-attacker-secret-of-thirty-two-chars",
      salt: "next-auth.state",
    });
    const target = new ImplClient(origin, "tessera");
    for (const [name, value] of source.jar) target.jar.set(name, value);
    target.jar.set("next-auth.state", forged);
    const callback = await target.get(back.pathname + back.search);
    expect(callback.headers.get("location")).toBe(`${origin}/api/auth/error?error=OAuthCallback`);
  });
});

describe("errors answered with v4's names and redirects", () => {
  /** Status and redirect of the same request to both, with the origin made relative. */
  async function both(request: (client: ImplClient) => Promise<Response>) {
    const answers: Record<string, { status: number; location: string | null }> = {};
    for (const client of Object.values(clients())) {
      const response = await request(client);
      answers[client.impl] = {
        status: response.status,
        location: response.headers.get("location")?.replace(origin, "") ?? null,
      };
    }
    return answers as Record<Impl, { status: number; location: string | null }>;
  }

  it("a sign-in post without the CSRF token (login CSRF) goes to /signin?csrf=true", async () => {
    const { v4, tessera } = await both((c) =>
      c.postForm("/api/auth/signin/op", { callbackUrl: "/x" }),
    );
    expect(v4).toEqual({ status: 302, location: "/api/auth/signin?csrf=true" });
    expect(tessera).toEqual(v4);
  });

  it("a sign-out post without the CSRF token (logout CSRF) goes to /signout?csrf=true", async () => {
    const { v4, tessera } = await both((c) =>
      c.postForm("/api/auth/signout", { callbackUrl: "/x" }),
    );
    expect(v4).toEqual({ status: 302, location: "/api/auth/signout?csrf=true" });
    expect(tessera).toEqual(v4);
  });

  it("an OAuth callback without its state cookie (forged callback) is error=OAuthCallback", async () => {
    const { v4, tessera } = await both((c) =>
      c.get("/api/auth/callback/op?code=forged&state=forged"),
    );
    expect(v4).toEqual({ status: 302, location: "/api/auth/error?error=OAuthCallback" });
    expect(tessera).toEqual(v4);
  });

  it("an error answered by the provider (the user refused consent) is error=Callback", async () => {
    const { v4, tessera } = await both((c) => c.get("/api/auth/callback/op?error=access_denied"));
    expect(v4).toEqual({ status: 302, location: "/api/auth/error?error=Callback" });
    expect(tessera).toEqual(v4);
  });

  it("the error page sends sign-in errors on to the sign-in page and shows the others", async () => {
    const signin = await both((c) => c.get("/api/auth/error?error=CredentialsSignin"));
    expect(signin.v4).toEqual({
      status: 302,
      location: "/api/auth/signin?error=CredentialsSignin",
    });
    expect(signin.tessera).toEqual(signin.v4);
    const denied = await both((c) => c.get("/api/auth/error?error=AccessDenied"));
    expect(denied.v4).toEqual({ status: 403, location: null });
    expect(denied.tessera).toEqual(denied.v4);
  });

  it("a wrong password posted without json goes where v4 sends it", async () => {
    const answers = await both(async (c) => {
      const csrfToken = await c.csrfToken("/api/auth");
      return c.postForm("/api/auth/callback/credentials", {
        csrfToken,
        username: "ada",
        password: "no",
      });
    });
    expect(answers.v4).toEqual({
      status: 302,
      location: "/api/auth/error?error=CredentialsSignin&provider=credentials",
    });
    expect(answers.tessera).toEqual(answers.v4);
  });

  it("a hostile callbackUrl (open redirect) is replaced by the site's own URL", async () => {
    const answers = await both(async (c) => {
      const csrfToken = await c.csrfToken("/api/auth");
      return c.postForm("/api/auth/signout", { csrfToken, callbackUrl: "https://evil.example/x" });
    });
    expect(answers.v4.location).toBe("");
    expect(answers.tessera).toEqual(answers.v4);
  });

  it("a malformed session cookie reads as signed out and is cleared, never a 500", async () => {
    for (const client of Object.values(clients())) {
      const response = await client.get("/api/auth/session", {
        cookie: "next-auth.session-token=%%garbage",
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
      expect(client.lastSetCookies.find((c) => c.name === "next-auth.session-token")?.value).toBe(
        "",
      );
    }
  });

  it("v4's client error reports to /_log are accepted", async () => {
    const answers = await both((c) => c.postForm("/api/auth/_log", { level: "debug", code: "X" }));
    expect(answers.tessera).toEqual(answers.v4);
  });

  it("an unknown action is a 400 on both (the body is Tessera's JSON, v4's is text)", async () => {
    const answers = await both((c) => c.get("/api/auth/nope"));
    expect(answers.v4.status).toBe(400);
    expect(answers.tessera).toEqual(answers.v4);
  });
});

describe("getServerSession(req, res, options) and getToken({ req }) in API routes", () => {
  it("answer the same session and token for a v4 cookie and for a Tessera cookie", async () => {
    for (const from of ["v4", "tessera"] as const) {
      const source = clients()[from];
      await signIn(source);
      const answers: Record<
        string,
        { session: Record<string, unknown>; token: Record<string, unknown> }
      > = {};
      for (const impl of ["v4", "tessera"] as const) {
        const reader = new ImplClient(origin, impl);
        reader.jar.set("next-auth.session-token", source.jar.get("next-auth.session-token") ?? "");
        const session = (await (await reader.get("/api/server-session")).json()) as Record<
          string,
          unknown
        >;
        const token = (await (await reader.get("/api/token")).json()) as Record<string, unknown>;
        answers[impl] = { session, token };
      }
      expect(answers.tessera?.session, `cookie from ${from}`).toEqual({
        ...answers.v4?.session,
        expires: answers.tessera?.session.expires,
      });
      expect(answers.tessera?.session.user).toMatchObject({
        name: "ada",
        role: "admin",
        id: "user-1",
      });
      // v4 re-issues the cookie at every session read (a new jti and exp); Tessera once per
      // updateAge: the claims the app wrote are compared.
      const { iat: _a, exp: _b, jti: _c, ...tesseraClaims } = answers.tessera?.token ?? {};
      const { iat: _d, exp: _e, jti: _f, ...v4Claims } = answers.v4?.token ?? {};
      expect(tesseraClaims).toEqual(v4Claims);
      expect(answers.tessera?.token).toMatchObject({
        sub: "user-1",
        role: "admin",
        email: "ada@example.test",
      });
    }
  });

  it("answer null without a session", async () => {
    for (const impl of ["v4", "tessera"] as const) {
      const client = new ImplClient(origin, impl);
      expect(await (await client.get("/api/server-session")).json(), impl).toBeNull();
      expect(await (await client.get("/api/token")).json(), impl).toBeNull();
    }
  });
});
