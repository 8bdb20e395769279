/**
 * `TanStackAuth` in-process, outside a built app: the base path it gives the core, `getSession`
 * with an explicit request (cookies from `@auth/core`, garbage, none), and the errors that name
 * their fix. The built app with TanStack Start's request context: app.test.ts.
 */
import { encode as authjsEncode } from "@auth/core/jwt";
import { AuthError } from "@tessera/core/errors";
import Credentials from "@tessera/core/providers/credentials";
import { describe, expect, it } from "vitest";
import { TanStackAuth } from "../src/index.js";

const SECRET = "tanstack-start-unit-secret-of-32+-chars";
const providers = [Credentials({ credentials: { email: {} }, authorize: () => null })];
const ORIGIN = "http://127.0.0.1:3000";

function requestWithCookie(cookie?: string): Request {
  return new Request(`${ORIGIN}/`, { headers: cookie ? { cookie } : {} });
}

describe("TanStackAuth", () => {
  it("answers under /api/auth without basePath, and under the configured basePath", async () => {
    const { basePath, handlers } = TanStackAuth({ secret: SECRET, trustHost: true, providers });
    expect(basePath).toBe("/api/auth");
    const csrf = await handlers.GET({ request: new Request(`${ORIGIN}/api/auth/csrf`) });
    expect(csrf.status).toBe(200);
    expect(await csrf.json()).toMatchObject({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const elsewhere = TanStackAuth({
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers,
    });
    expect(elsewhere.basePath).toBe("/auth");
    const session = await elsewhere.handlers.GET({
      request: new Request(`${ORIGIN}/auth/session`),
    });
    expect(await session.json()).toBeNull();
  });

  it("reads the session of an explicit request: @auth/core's cookie, none, garbage", async () => {
    const { getSession } = TanStackAuth({ secret: SECRET, providers });
    const token = await authjsEncode({
      token: { name: "Grace Hopper", email: "grace@example.com", sub: "grace" },
      secret: SECRET,
      salt: "authjs.session-token",
    });
    const session = await getSession(requestWithCookie(`authjs.session-token=${token}`));
    expect(session?.user).toMatchObject({ name: "Grace Hopper", email: "grace@example.com" });
    expect(await getSession(requestWithCookie())).toBeNull();
    // A tampered cookie is a signed-out visitor, never an exception.
    expect(await getSession(requestWithCookie("authjs.session-token=a.b.c.d.e"))).toBeNull();
  });

  it("names the fix when getSession() runs outside a TanStack Start request", async () => {
    const { getSession } = TanStackAuth({ secret: SECRET, providers });
    const error = await getSession().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toContain("getSession(request)");
  });

  it("throws an AuthError naming AUTH_SECRET when the config has no secret", async () => {
    const saved = process.env.AUTH_SECRET;
    delete process.env.AUTH_SECRET;
    try {
      const { getSession } = TanStackAuth({ providers });
      const error = await getSession(requestWithCookie()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AuthError);
      expect((error as Error).message).toContain("AUTH_SECRET");
    } finally {
      if (saved !== undefined) process.env.AUTH_SECRET = saved;
    }
  });
});
