/**
 * The public behaviours Auth.js v5's own test suite checks (packages/core/test at
 * next-auth@5.0.0-beta.32) where Tessera used to answer differently: each case sends the same
 * input through `@auth/core` (the devDependency) and Tessera and compares the answers. Where
 * Tessera differs on purpose, the case asserts both answers and names the entry of
 * docs/compatibility.md that gives the reason, so that a difference that changes fails here.
 */
import { Auth as AuthJs, createActionURL as authjsCreateActionURL } from "@auth/core";
import type { Adapter as AuthJsAdapter } from "@auth/core/adapters";
import AuthJsCredentials from "@auth/core/providers/credentials";
import { Auth, type AuthConfig, createActionURL, skipCSRFCheck } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import { MemoryAdapter } from "@tessera/memory";
import { describe, expect, it } from "vitest";
import {
  answerOf,
  both,
  CONFIGURATION_ERROR,
  common,
  type Handler,
  quiet,
  type Side,
} from "./authjs-suite-helpers.js";
import { ORIGIN } from "./helpers.js";
import { setCookies } from "./set-cookie.js";

/** A callback-url cookie under another name, with the default cookie's attributes. */
function customCookie(name: string) {
  return { name, options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure: false } };
}

describe("a malformed callbackUrl is refused before any callback sees it (assert-config.test.ts)", () => {
  /** Both sides with a `redirect` callback that records every URL it is asked about. */
  function recordingSides(cookieName?: string) {
    const seen: string[] = [];
    const callbacks = {
      redirect: ({ url, baseUrl }: { url: string; baseUrl: string }) => {
        seen.push(url);
        return url.startsWith(baseUrl) ? url : baseUrl;
      },
    };
    const cookies = cookieName ? { callbackUrl: customCookie(cookieName) } : undefined;
    const sides: Record<Side, Handler> = {
      authjs: (request) =>
        AuthJs(request, {
          ...common,
          cookies,
          callbacks,
          providers: [AuthJsCredentials({ authorize: () => null })],
        }),
      tessera: (request) =>
        Auth(request, {
          ...common,
          cookies,
          callbacks,
          providers: [Credentials({ authorize: () => null })],
        }),
    };
    return { sides, seen };
  }

  const VALUES = [
    "a",
    "non-relative",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
  ];

  it.each(VALUES)(
    "from the query (%s): Auth.js answers 500, Tessera 400, and the redirect callback never sees it (compatibility.md)",
    async (value) => {
      const { sides, seen } = recordingSides();
      const path = `/auth/signin?${new URLSearchParams({ callbackUrl: value })}`;
      const { authjs, tessera } = await both(sides, path);
      expect(authjs).toEqual({ status: 500, location: null, body: "(html)" });
      expect(tessera).toEqual({ status: 400, location: null, body: "Bad request." });
      expect(seen).not.toContain(value);
    },
  );

  it.each([
    ["the callback-url cookie", undefined],
    ["a custom callback-url cookie", "custom-name"],
  ] as const)(
    "from %s: Auth.js answers 500; Tessera ignores the value and never shows it to the redirect callback (compatibility.md)",
    async (_, cookieName) => {
      const name = cookieName ?? "authjs.callback-url";
      for (const value of VALUES) {
        const { sides, seen } = recordingSides(cookieName);
        const cookie = { cookie: `${name}=${encodeURIComponent(value)}` };
        const authjs = await answerOf(
          await sides.authjs(new Request(`${ORIGIN}/auth/signin`, { headers: cookie })),
        );
        expect(authjs).toEqual({ status: 500, location: null, body: "(html)" });
        const response = await sides.tessera(
          new Request(`${ORIGIN}/auth/signin`, { headers: cookie }),
        );
        expect(response.status).toBe(200);
        expect(seen).not.toContain(value);
        // A planted cookie is not refused (that would lock this browser out of every sign-in):
        // a sign-out goes home instead of to it.
        const signOut = await Auth(
          new Request(`${ORIGIN}/auth/signout`, { method: "POST", headers: cookie }),
          {
            ...common,
            skipCSRFCheck,
            providers: [],
            ...(cookieName && { cookies: { callbackUrl: customCookie(name) } }),
          },
        );
        expect(signOut.headers.get("location")).toBe(ORIGIN);
        expect(seen).not.toContain(value);
      }
    },
  );

  it("a path or an http(s) URL still reaches the redirect callback, in both", async () => {
    for (const value of ["/dashboard", `${ORIGIN}/dashboard`, "https://elsewhere.example/"]) {
      const { sides, seen } = recordingSides();
      const path = `/auth/signin?${new URLSearchParams({ callbackUrl: value })}`;
      const { authjs, tessera } = await both(sides, path);
      expect(authjs.status).toBe(200);
      expect(tessera.status).toBe(200);
      expect(seen).toContain(value);
    }
  });

  it("a session read that carries one is answered, where Auth.js answers 500 (compatibility.md)", async () => {
    const { sides } = recordingSides();
    const { authjs, tessera } = await both(sides, "/auth/session?callbackUrl=a", {
      headers: { cookie: "authjs.callback-url=a" },
    });
    expect(authjs).toEqual({ status: 500, location: null, body: CONFIGURATION_ERROR });
    expect(tessera).toEqual({ status: 200, location: null, body: null });
  });
});

describe("a database session read that extends the session (session.test.ts)", () => {
  it("stores and sets the new expiry in both; the answer reports it in Tessera, the stored one in Auth.js (compatibility.md)", async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const answers: Partial<Record<Side, { body: string; callback: string; stored: Date }>> = {};
    for (const side of ["authjs", "tessera"] as const) {
      const adapter = MemoryAdapter();
      const user = await adapter.createUser({
        id: "ada",
        name: "Ada",
        email: "ada@example.com",
        image: null,
        emailVerified: null,
      });
      // Stored to end in one day: with maxAge 30 days and updateAge 1 day, the read extends it.
      await adapter.createSession({
        sessionToken: "token-1",
        userId: user.id,
        expires: new Date(Date.now() + DAY),
      });
      let callbackExpires = "";
      const config = {
        ...common,
        adapter,
        providers: [],
        callbacks: {
          // Typed for both libraries' callbacks: their Session types differ.
          session: ({ session }: { session: { expires: string | Date } }) => {
            callbackExpires = new Date(session.expires).toISOString();
            return session as never;
          },
        },
      };
      const request = new Request(`${ORIGIN}/auth/session`, {
        headers: { cookie: "authjs.session-token=token-1" },
      });
      const before = Date.now();
      const response =
        side === "authjs"
          ? await AuthJs(request, { ...config, adapter: adapter as unknown as AuthJsAdapter })
          : await Auth(request, config as AuthConfig);
      const body = (await response.json()) as { expires: string };
      const stored = (await adapter.getSessionAndUser("token-1"))?.session.expires;
      const cookieExpires = setCookies(response).get("authjs.session-token")?.expires;
      // Both write the extension: store and cookie end in 30 days.
      expect(stored?.valueOf()).toBeGreaterThanOrEqual(before + 30 * DAY - 1000);
      expect(Math.abs((cookieExpires?.valueOf() ?? 0) - (stored?.valueOf() ?? 0))).toBeLessThan(
        1000,
      );
      answers[side] = { body: body.expires, callback: callbackExpires, stored: stored as Date };
    }
    const { authjs, tessera } = answers as Record<
      Side,
      { body: string; callback: string; stored: Date }
    >;
    // Auth.js: the expiry read before the extension (one day from now).
    expect(new Date(authjs.body).valueOf()).toBeLessThan(authjs.stored.valueOf() - 28 * DAY);
    expect(authjs.callback).toBe(authjs.body);
    // Tessera: the expiry the store and the cookie now hold.
    expect(tessera.body).toBe(tessera.stored.toISOString());
    expect(tessera.callback).toBe(tessera.body);
  });
});

describe("Credentials() without authorize (callback.test.ts)", () => {
  const sides: Record<Side, Handler> = {
    authjs: (request) =>
      AuthJs(request, {
        ...common,
        pages: { error: "/custom/error" },
        providers: [AuthJsCredentials as never],
      }),
    tessera: (request) =>
      Auth(request, {
        ...common,
        pages: { error: "/custom/error" },
        providers: [Credentials],
      }),
  };

  it("is a working provider whose sign-ins are refused, as in Auth.js", async () => {
    const { authjs, tessera } = await both(sides, "/auth/providers");
    expect(authjs.status).toBe(200);
    expect(tessera).toEqual(authjs);
    const post = () =>
      both(sides, "/auth/callback/credentials", {
        method: "POST",
        body: new URLSearchParams({ password: "anything" }),
      });
    // Without a CSRF token both refuse before authorize; the default authorize is never the cause.
    const refused = await post();
    expect(refused.tessera).toEqual(refused.authjs);
  });

  it("refuses every credential with CredentialsSignin in Tessera (the default authorize answers null)", async () => {
    const response = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        body: new URLSearchParams({ password: "anything" }),
      }),
      { ...common, skipCSRFCheck, providers: [Credentials()] },
    );
    expect(response.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`,
    );
  });

  it("a GET of its callback leads to the sign-in page, where Auth.js shows the custom error page with Configuration (compatibility.md)", async () => {
    const { authjs, tessera } = await both(sides, "/auth/callback/credentials");
    expect(authjs).toEqual({
      status: 302,
      location: `${ORIGIN}/custom/error?error=Configuration`,
      body: "",
    });
    expect(tessera).toEqual({ status: 302, location: `${ORIGIN}/auth/signin`, body: "" });
  });
});

describe("GET /csrf (csrf.test.ts)", () => {
  it("is never cached: Cache-Control, Expires and Pragma as in Auth.js", async () => {
    const headersOf = async (handle: Handler) => {
      const { headers } = await handle(new Request(`${ORIGIN}/auth/csrf`));
      return ["content-type", "cache-control", "expires", "pragma"].map((n) => headers.get(n));
    };
    const authjs = await headersOf((request) => AuthJs(request, { ...common, providers: [] }));
    expect(authjs).toEqual(["application/json", "private, no-cache, no-store", "0", "no-cache"]);
    expect(await headersOf((request) => Auth(request, { ...common, providers: [] }))).toEqual(
      authjs,
    );
  });
});

describe("createActionURL with AUTH_URL and basePath (env.test.ts)", () => {
  /** The URL and the warnings of both libraries for the same arguments. */
  function run(env: Record<string, string>, basePath: string | undefined) {
    const outcome = (create: typeof createActionURL) => {
      const warnings: string[] = [];
      const logger = { ...quiet, warn: (code: string) => void warnings.push(code) };
      const url = create("signout", "http:", new Headers({ host: "internal:3000" }), env, {
        basePath,
        logger,
      }).href;
      return { url, warnings };
    };
    return {
      authjs: outcome(authjsCreateActionURL as unknown as typeof createActionURL),
      tessera: outcome(createActionURL),
    };
  }

  it.each([
    [{ AUTH_URL: "http://localhost:3000/my-app/api/auth/" }, "/my-app/api/auth", true],
    [{ AUTH_URL: "https://sub.example.com/my-app" }, "/api/auth", true],
    [{ AUTH_URL: "http://localhost:3000/my-app/api/auth" }, "/my-app/api/auth", false],
    [{ AUTH_URL: "https://sub.example.com" }, "/api/auth", false],
    [{ AUTH_URL: "https://sub.example.com/api/auth" }, undefined, false],
    [{}, "/auth", false],
  ] as const)(
    "%j with basePath %s: same URL, env-url-basepath-mismatch: %s",
    (env, basePath, warns) => {
      const { authjs, tessera } = run(env, basePath);
      expect(authjs.warnings).toEqual(warns ? ["env-url-basepath-mismatch"] : []);
      expect(tessera).toEqual(authjs);
    },
  );
});

describe("OAuth providers without the endpoints they need (assert-config.test.ts)", () => {
  it.each([
    { type: "oidc", id: "provider-id", name: "" },
    { type: "oauth", id: "provider-id", name: "", authorization: { url: "http://a" } },
    {
      type: "oauth",
      id: "provider-id",
      name: "",
      authorization: "http://a",
      token: { url: "http://a" },
    },
    {
      type: "oauth",
      id: "provider-id",
      name: "",
      authorization: "http://a",
      token: "http://a",
      userinfo: { foo: "http://a" },
    },
  ])(
    "%j: 500 with the generic body and InvalidEndpoints in the log, as in Auth.js",
    async (provider) => {
      const logged: Record<Side, string[]> = { authjs: [], tessera: [] };
      const logger = (side: Side) => ({
        ...quiet,
        error: (e: Error) => void logged[side].push(e.name),
      });
      const sides: Record<Side, Handler> = {
        authjs: (request) =>
          AuthJs(request, { ...common, logger: logger("authjs"), providers: [provider as never] }),
        tessera: (request) =>
          Auth(request, { ...common, logger: logger("tessera"), providers: [provider as never] }),
      };
      const { authjs, tessera } = await both(sides, "/auth/providers");
      expect(authjs).toEqual({ status: 500, location: null, body: CONFIGURATION_ERROR });
      expect(tessera).toEqual(authjs);
      expect(logged.authjs).toEqual(["InvalidEndpoints"]);
      expect(logged.tessera).toEqual(["InvalidEndpoints"]);
    },
  );
});
