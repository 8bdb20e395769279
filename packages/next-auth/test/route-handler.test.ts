/**
 * `NextAuth(options)` as an App Router route handler (`export { handler as GET, handler as
 * POST }`), fed the `NextRequest`s Next.js hands it: the same v4 answers the Pages Router
 * handler gives (which api-routes.test.ts compares with next-auth v4 itself), and a database
 * session carried over by its cookie.
 */
import { MemoryAdapter } from "@tessera/memory";
import { NextRequest } from "next/server.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSetCookie } from "../../express/test/http-client.js";
import NextAuth from "../src/index.js";
import CredentialsProvider from "../src/providers/credentials.js";
import type { NextAuthOptions } from "../src/types.js";

const secret = "route-handler-secret-of-thirty-two-chars";
const origin = "http://app.test";

const options: NextAuthOptions = {
  secret,
  providers: [
    CredentialsProvider({
      credentials: { username: {}, password: {} },
      authorize: async (fields) =>
        fields?.password === "right"
          ? { id: "u1", name: fields.username, email: "ada@app.test" }
          : null,
    }),
  ],
};
const handler = NextAuth(options);
const context = { params: Promise.resolve({ nextauth: [] as string[] }) };

beforeAll(() => {
  process.env.NEXTAUTH_URL = origin;
});
afterAll(() => {
  delete process.env.NEXTAUTH_URL;
});

/** A cookie jar for the handler's answers. */
class Jar {
  readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  store(response: Response): void {
    for (const cookie of response.headers.getSetCookie().map(parseSetCookie)) {
      if (cookie.value === "") this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }
}

async function get(path: string, jar = new Jar()): Promise<Response> {
  const response = await handler(
    new NextRequest(`${origin}${path}`, { headers: { cookie: jar.header() } }),
    context,
  );
  jar.store(response);
  return response;
}

async function post(path: string, form: Record<string, string>, jar: Jar): Promise<Response> {
  const response = await handler(
    new NextRequest(`${origin}${path}`, {
      method: "POST",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
    }),
    context,
  );
  jar.store(response);
  return response;
}

async function csrfToken(jar: Jar): Promise<string> {
  return ((await (await get("/api/auth/csrf", jar)).json()) as { csrfToken: string }).csrfToken;
}

describe("NextAuth(options) as an App Router route handler", () => {
  it("answers a signed-out session with {} and sets v4's CSRF cookie", async () => {
    const jar = new Jar();
    expect(await csrfToken(jar)).toMatch(/^[0-9a-f]{64}$/);
    expect(jar.cookies.has("next-auth.csrf-token")).toBe(true);
    const session = await get("/api/auth/session", jar);
    expect(session.status).toBe(200);
    expect(await session.json()).toEqual({});
  });

  it("signs in with credentials asked as v4's client asks (json=true) and reads the session", async () => {
    const jar = new Jar();
    const response = await post(
      "/api/auth/callback/credentials",
      {
        csrfToken: await csrfToken(jar),
        username: "ada",
        password: "right",
        callbackUrl: "/home",
        json: "true",
      },
      jar,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: `${origin}/home` });
    expect(jar.cookies.has("next-auth.session-token")).toBe(true);
    const session = (await (await get("/api/auth/session", jar)).json()) as { user?: unknown };
    expect(session.user).toEqual({ name: "ada", email: "ada@app.test" });
  });

  it("answers v4's redirects for a wrong password and a missing CSRF token", async () => {
    const jar = new Jar();
    const wrong = await post(
      "/api/auth/callback/credentials",
      { csrfToken: await csrfToken(jar), username: "ada", password: "wrong" },
      jar,
    );
    expect(wrong.headers.get("location")).toBe(
      `${origin}/api/auth/error?error=CredentialsSignin&provider=credentials`,
    );
    const forged = await post("/api/auth/signout", { callbackUrl: "/" }, new Jar());
    expect(forged.headers.get("location")).toBe(`${origin}/api/auth/signout?csrf=true`);
  });

  it("accepts v4's client error reports on /_log", async () => {
    const response = await post("/api/auth/_log", { level: "debug", code: "X" }, new Jar());
    expect(response.status).toBe(200);
  });

  it("answers a malformed body or cookie without a 500", async () => {
    const response = await handler(
      new NextRequest(`${origin}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: "next-auth.csrf-token=%%" },
        body: "{not json",
      }),
      context,
    );
    expect(response.status).toBeLessThan(500);
  });
});

describe("database sessions", () => {
  it("a database session cookie (the adapter's session token) carries over unchanged", async () => {
    const adapter = MemoryAdapter();
    const user = await adapter.createUser({
      id: "db-user",
      name: "Grace",
      email: "grace@app.test",
      emailVerified: null,
    });
    // What next-auth v4 stored at sign-in: a session row, its token in the cookie as it is.
    await adapter.createSession({
      sessionToken: "v4-session-token",
      userId: user.id,
      expires: new Date(Date.now() + 86_400_000),
    });
    const database = NextAuth({
      secret,
      adapter,
      session: { strategy: "database" },
      providers: [],
    });
    const response = await database(
      new NextRequest(`${origin}/api/auth/session`, {
        headers: { cookie: "next-auth.session-token=v4-session-token" },
      }),
      context,
    );
    expect(((await response.json()) as { user?: unknown }).user).toMatchObject({
      name: "Grace",
      email: "grace@app.test",
    });
  });
});
