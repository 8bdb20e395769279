/**
 * Sessions and rate limits through the Next.js route handlers: the sessions actions answer under
 * /api/auth, and the client IP comes only from the app's `clientIp` option (Next.js gives none
 * it can vouch for), never from a header the client writes.
 */
import { randomUUID } from "node:crypto";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import NextAuth, { type NextAuthConfig } from "@tessera/next";
import { NextRequest } from "next/server.js";
import { describe, expect, it } from "vitest";
import { CookieJar, DEMO_PASSWORD, DEMO_USER, demoConfig } from "./helpers.js";

const ORIGIN = "http://localhost:3000";

async function post(
  handlers: ReturnType<typeof NextAuth>["handlers"],
  jar: CookieJar,
  password: string,
  headers: Record<string, string>,
  email = DEMO_USER.email,
): Promise<Response> {
  const csrf = await handlers.GET(
    new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: jar.headers(headers) }),
  );
  jar.store(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await handlers.POST(
    new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, {
      method: "POST",
      headers: jar.headers({ ...headers, "content-type": "application/x-www-form-urlencoded" }),
      body: new URLSearchParams({ csrfToken, email, password }),
    }),
  );
  jar.store(response);
  return response;
}

async function listedIps(handlers: ReturnType<typeof NextAuth>["handlers"], jar: CookieJar) {
  const response = await handlers.GET(
    new NextRequest(`${ORIGIN}/api/auth/sessions`, { headers: jar.headers() }),
  );
  return ((await response.json()) as { ip: string | null }[]).map((s) => s.ip);
}

function config(overrides: Partial<NextAuthConfig> = {}): NextAuthConfig {
  return demoConfig({ adapter: MemoryAdapter(createMemoryStore()), ...overrides });
}

describe("sessions and rate limits in the Next.js route handlers", () => {
  it("records the address the app's clientIp option names, and none from client-written headers", async () => {
    const trusted = NextAuth(
      config({ clientIp: (request) => request.headers.get("x-real-ip") ?? undefined }),
    );
    const jar = new CookieJar();
    await post(trusted.handlers, jar, DEMO_PASSWORD, { "x-real-ip": "198.51.100.4" });
    expect(await listedIps(trusted.handlers, jar)).toEqual(["198.51.100.4"]);

    const plain = NextAuth(config());
    const other = new CookieJar();
    await post(plain.handlers, other, DEMO_PASSWORD, { "x-forwarded-for": "203.0.113.9" });
    expect(await listedIps(plain.handlers, other)).toEqual([null]);
  });

  it("limits attempts per client IP through clientIp, answering with error=RateLimited", async () => {
    const { handlers } = NextAuth(
      config({
        rateLimit: { max: 100, maxPerIp: 2 },
        clientIp: (request) => request.headers.get("x-real-ip") ?? undefined,
      }),
    );
    const from = { "x-real-ip": "198.51.100.5" };
    const locations = [];
    for (let i = 0; i < 3; i++)
      locations.push(
        (await post(handlers, new CookieJar(), "wrong", from)).headers.get("location"),
      );
    expect(locations.map((l) => new URL(l ?? "").searchParams.get("error"))).toEqual([
      "CredentialsSignin",
      "CredentialsSignin",
      "RateLimited",
    ]);
  });

  it("a lazy config still counts wrong passwords across requests", async () => {
    // NextAuth((request) => …) builds a new config object for every request.
    const { handlers } = NextAuth(() => config());
    const victim = `lazy-${randomUUID()}@example.com`;
    const errors = [];
    for (let i = 0; i < 11; i++) {
      const response = await post(handlers, new CookieJar(), `guess-${i}`, {}, victim);
      errors.push(new URL(response.headers.get("location") ?? "").searchParams.get("error"));
    }
    expect(errors.slice(0, 10)).toEqual(Array(10).fill("CredentialsSignin"));
    expect(errors[10]).toBe("RateLimited");
  });
});
