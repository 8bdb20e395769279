/**
 * The later move from the v4 API to the v5 API (`@tessera/next`) without signing anyone out:
 * with `nextAuthV4Cookies: true`, a session cookie written by next-auth@4.24.15 (or by
 * `@tessera/next-auth`, the same format) is read, re-issued as a v5 cookie at once, and cleared.
 */
import { createRequire } from "node:module";
import { decode as decodeV5 } from "@tessera/core/jwt";
import Credentials from "@tessera/core/providers/credentials";
import NextAuthV5, { type NextAuthConfig } from "@tessera/next";
import { NextRequest } from "next/server.js";
import { describe, expect, it } from "vitest";
import { parseSetCookie } from "../../express/test/http-client.js";
import { encode as tesseraV4Encode } from "../src/jwt.js";

const require = createRequire(import.meta.url);
const v4 = require("next-auth/jwt") as {
  encode: (params: {
    token: Record<string, unknown>;
    secret: string;
    maxAge?: number;
  }) => Promise<string>;
};

const secret = "upgrade-secret-of-at-least-thirty-two-chars";
const claims = {
  name: "Ada",
  email: "ada@example.test",
  picture: null,
  sub: "user-1",
  role: "admin",
};

function v5App(overrides: Partial<NextAuthConfig> = {}) {
  return NextAuthV5({
    secret,
    trustHost: true,
    providers: [Credentials({ authorize: () => null })],
    callbacks: {
      session: ({ session, token }) => ({
        ...session,
        user: { ...session.user, role: token.role },
      }),
    },
    ...overrides,
  });
}

async function readSession(app: ReturnType<typeof v5App>, cookie: string) {
  const response = await app.handlers.GET(
    new NextRequest("http://app.test/api/auth/session", { headers: { cookie } }),
  );
  const setCookies = response.headers.getSetCookie().map(parseSetCookie);
  return { body: (await response.json()) as Record<string, unknown> | null, setCookies };
}

describe("@tessera/next with nextAuthV4Cookies", () => {
  it("reads a next-auth v4 session cookie, re-issues it as a v5 cookie and clears the v4 one", async () => {
    const app = v5App({ nextAuthV4Cookies: true });
    const v4Cookie = await v4.encode({ token: claims, secret });
    const { body, setCookies } = await readSession(app, `next-auth.session-token=${v4Cookie}`);
    expect(body?.user).toEqual({
      name: "Ada",
      email: "ada@example.test",
      image: null,
      role: "admin",
    });

    const v5Cookie = setCookies.find((c) => c.name === "authjs.session-token");
    const cleared = setCookies.find((c) => c.name === "next-auth.session-token");
    expect(cleared?.value).toBe("");
    const reissued = await decodeV5({
      token: v5Cookie?.value,
      secret,
      salt: "authjs.session-token",
    });
    expect(reissued).toMatchObject({ ...claims, picture: null });

    // The next request carries only the v5 cookie: still the same session, nothing re-issued.
    const again = await readSession(app, `authjs.session-token=${v5Cookie?.value}`);
    expect(again.body?.user).toEqual(body?.user);
    expect(again.setCookies).toEqual([]);
  });

  it("reads a v4 cookie written by @tessera/next-auth and by v4 under NEXTAUTH_SECRET", async () => {
    process.env.NEXTAUTH_SECRET = "the-old-v4-secret-of-thirty-two-characters";
    try {
      const app = v5App({ nextAuthV4Cookies: true });
      const cookie = await tesseraV4Encode({ token: claims, secret: process.env.NEXTAUTH_SECRET });
      const { body } = await readSession(app, `__Secure-next-auth.session-token=${cookie}`);
      expect(body?.user).toMatchObject({ email: "ada@example.test" });
    } finally {
      delete process.env.NEXTAUTH_SECRET;
    }
  });

  it("prefers the v5 cookie when both are present", async () => {
    const app = v5App({ nextAuthV4Cookies: true });
    const v4Cookie = await v4.encode({ token: { ...claims, name: "Old" }, secret });
    const v5Cookie = (
      await readSession(app, `next-auth.session-token=${v4Cookie}`)
    ).setCookies.find((c) => c.name === "authjs.session-token");
    const stale = await v4.encode({ token: { ...claims, name: "Stale" }, secret });
    const { body } = await readSession(
      app,
      `authjs.session-token=${v5Cookie?.value}; next-auth.session-token=${stale}`,
    );
    expect(body?.user).toMatchObject({ name: "Old" });
  });

  it("ignores a forged or expired v4 cookie (no session, nothing issued)", async () => {
    const app = v5App({ nextAuthV4Cookies: true });
    const foreign = await v4.encode({
      token: claims,
      secret: "another-secret-of-thirty-two-characters",
    });
    const expired = await v4.encode({ token: claims, secret, maxAge: -60 });
    for (const value of [foreign, expired, "not.a.jwe", "%%"]) {
      const { body, setCookies } = await readSession(app, `next-auth.session-token=${value}`);
      expect(body).toBeNull();
      expect(setCookies.filter((c) => c.name === "authjs.session-token")).toEqual([]);
    }
  });

  it("sign-out clears the v4 cookie too, so it cannot sign the user back in", async () => {
    const app = v5App({ nextAuthV4Cookies: true });
    const v4Cookie = await v4.encode({ token: claims, secret });
    const csrf = await app.handlers.GET(new NextRequest("http://app.test/api/auth/csrf"));
    const csrfCookie = parseSetCookie(csrf.headers.getSetCookie()[0] ?? "");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const response = await app.handlers.POST(
      new NextRequest("http://app.test/api/auth/signout", {
        method: "POST",
        headers: {
          cookie: `${csrfCookie.name}=${csrfCookie.value}; next-auth.session-token=${v4Cookie}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ csrfToken, callbackUrl: "/" }),
      }),
    );
    const cleared = response.headers.getSetCookie().map(parseSetCookie);
    expect(cleared.find((c) => c.name === "next-auth.session-token")?.value).toBe("");
  });

  it("leaves v4 cookies alone without the option", async () => {
    const app = v5App();
    const v4Cookie = await v4.encode({ token: claims, secret });
    const { body, setCookies } = await readSession(app, `next-auth.session-token=${v4Cookie}`);
    expect(body).toBeNull();
    expect(setCookies).toEqual([]);
  });
});
