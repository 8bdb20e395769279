/**
 * `withAuth` and the default export of `@tessera/next-auth/middleware`, side by side with
 * next-auth@4.24.15's `next-auth/middleware` on the same `NextRequest`s: the same redirects, the
 * same pass-throughs, the same token handed to a wrapped middleware.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NextRequest, NextResponse } from "next/server.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encode } from "../src/jwt.js";
import tesseraDefault, {
  type NextAuthMiddlewareOptions,
  type NextRequestWithAuth,
  withAuth,
} from "../src/middleware.js";

const require = createRequire(import.meta.url);
const v4 = require("next-auth/middleware") as {
  default: (...args: unknown[]) => unknown;
  withAuth: (...args: unknown[]) => unknown;
};

const secret = "middleware-secret-of-thirty-two-chars";

beforeEach(() => {
  process.env.NEXTAUTH_SECRET = secret;
});
afterEach(() => {
  delete process.env.NEXTAUTH_SECRET;
  delete process.env.NEXTAUTH_URL;
});

function request(path: string, cookie?: string): NextRequest {
  return new NextRequest(`http://app.test${path}`, cookie ? { headers: { cookie } } : {});
}

/** What a middleware answered: nothing (go on), or its status and redirect. */
async function outcome(
  result: unknown,
): Promise<{ status: number; location: string | null } | null> {
  const response = (await result) as Response | undefined | null;
  if (!response) return null;
  return { status: response.status, location: response.headers.get("location") };
}

async function sessionCookie(claims: Record<string, unknown> = { sub: "1", role: "user" }) {
  return `next-auth.session-token=${await encode({ token: claims, secret })}`;
}

describe("the default export (the one-liner)", () => {
  it("redirects a signed-out request to the sign-in page with its callbackUrl, as v4 does", async () => {
    const req = () => request("/dashboard?tab=2");
    const mine = await outcome(tesseraDefault(req()));
    expect(mine).toEqual(await outcome(v4.default(req())));
    expect(mine).toEqual({
      status: 307,
      location: "http://app.test/api/auth/signin?callbackUrl=%2Fdashboard%3Ftab%3D2",
    });
  });

  it("lets a request with a session cookie through", async () => {
    const cookie = await sessionCookie();
    expect(await outcome(tesseraDefault(request("/dashboard", cookie)))).toBeNull();
    expect(await outcome(v4.default(request("/dashboard", cookie)))).toBeNull();
  });

  it("redirects a forged or malformed cookie like no cookie (never throws)", async () => {
    for (const cookie of [
      "next-auth.session-token=forged.jwe.value.x.y",
      "next-auth.session-token=%%",
    ]) {
      const mine = await outcome(tesseraDefault(request("/dashboard", cookie)));
      expect(mine).toEqual(await outcome(v4.default(request("/dashboard", cookie))));
      expect(mine?.status).toBe(307);
    }
  });

  it("leaves the auth routes, Next.js assets and the favicon alone", async () => {
    for (const path of ["/api/auth/signin", "/_next/static/app.js", "/favicon.ico"]) {
      expect(await outcome(tesseraDefault(request(path))), path).toBeNull();
      expect(await outcome(v4.default(request(path))), path).toBeNull();
    }
  });

  it("sends to the error page with error=Configuration when no secret is set", async () => {
    delete process.env.NEXTAUTH_SECRET;
    const mine = await outcome(tesseraDefault(request("/dashboard")));
    expect(mine).toEqual({
      status: 307,
      location: "http://app.test/api/auth/error?error=Configuration",
    });
  });
});

describe("withAuth(middleware, options)", () => {
  const options: NextAuthMiddlewareOptions = {
    pages: { signIn: "/login" },
    callbacks: { authorized: ({ token }) => token?.role === "admin" },
  };

  it("decides with the authorized callback and redirects to pages.signIn", async () => {
    const user = await sessionCookie({ sub: "1", role: "user" });
    const admin = await sessionCookie({ sub: "2", role: "admin" });
    for (const cookie of [undefined, user, admin]) {
      const mine = await outcome(
        (withAuth(options) as (r: NextRequest) => unknown)(request("/admin", cookie)),
      );
      const theirs = await outcome(
        (v4.withAuth(options) as (r: NextRequest) => unknown)(request("/admin", cookie)),
      );
      expect(mine).toEqual(theirs);
    }
    const denied = await outcome(
      (withAuth(options) as (r: NextRequest) => unknown)(request("/admin", user)),
    );
    expect(denied?.location).toBe("http://app.test/login?callbackUrl=%2Fadmin");
    // The sign-in page itself is never protected (no redirect loop).
    expect(
      await outcome((withAuth(options) as (r: NextRequest) => unknown)(request("/login"))),
    ).toBeNull();
  });

  it("hands the token to the wrapped middleware on req.nextauth.token", async () => {
    const seen: unknown[] = [];
    const inner = (req: NextRequestWithAuth) => {
      seen.push(req.nextauth.token?.role);
      return NextResponse.rewrite(new URL("/inside", req.url));
    };
    const cookie = await sessionCookie({ sub: "2", role: "admin" });
    const mine = withAuth(inner, options);
    const response = (await mine(
      request("/admin", cookie) as NextRequestWithAuth,
      {} as never,
    )) as Response;
    expect(response.headers.get("x-middleware-rewrite")).toBe("http://app.test/inside");
    const theirs = v4.withAuth(inner, options) as (r: NextRequest, e: unknown) => Promise<unknown>;
    await theirs(request("/admin", cookie), {});
    expect(seen).toEqual(["admin", "admin"]);
  });

  it("denies when the authorized callback throws (fail closed)", async () => {
    const throwing = withAuth({
      callbacks: {
        authorized: () => {
          throw new Error("database down");
        },
      },
    }) as (r: NextRequest) => unknown;
    const result = await outcome(throwing(request("/dashboard", await sessionCookie())));
    expect(result?.status).toBe(307);
  });
});

describe("the one-liner on Next.js 16", () => {
  /**
   * Next.js's own check of a middleware or proxy file (the static look at its exports that
   * `next build` runs), on a file holding `source`.
   */
  async function nextAccepts(
    fileName: "middleware" | "proxy",
    source: string,
  ): Promise<true | string> {
    // Next.js parses with its SWC bindings, which `next build` loads first; unloaded, the check
    // sees no syntax tree and passes every file.
    const swc = require("next/dist/build/swc/index.js") as { loadBindings: () => Promise<unknown> };
    await swc.loadBindings();
    const { getPageStaticInfo } = require("next/dist/build/analysis/get-page-static-info.js") as {
      getPageStaticInfo: (params: Record<string, unknown>) => Promise<unknown>;
    };
    const dir = await mkdtemp(join(tmpdir(), "next-auth-one-liner-"));
    const pageFilePath = join(dir, `${fileName}.ts`);
    await writeFile(pageFilePath, source);
    try {
      await getPageStaticInfo({ pageFilePath, nextConfig: {}, isDev: false, page: `/${fileName}` });
      return true;
    } catch (error) {
      return (error as Error).message.split("\n")[0] ?? "";
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  const matcher = 'export const config = { matcher: ["/dashboard/:path*"] };\n';

  it("refuses v4's documented `export { default } from` whatever the package", async () => {
    const refusal = await nextAccepts(
      "middleware",
      `export { default } from "next-auth/middleware";\n${matcher}`,
    );
    expect(refusal).toMatch(/must export a function/);
  });

  it("accepts Tessera's one-liners in proxy.ts and middleware.ts, and withAuth as a default export", async () => {
    expect(
      await nextAccepts(
        "proxy",
        `export { proxy } from "@tessera/next-auth/middleware";\n${matcher}`,
      ),
    ).toBe(true);
    expect(
      await nextAccepts(
        "middleware",
        `export { middleware } from "@tessera/next-auth/middleware";\n${matcher}`,
      ),
    ).toBe(true);
    expect(
      await nextAccepts(
        "middleware",
        `import { withAuth } from "@tessera/next-auth/middleware";\nexport default withAuth({});\n${matcher}`,
      ),
    ).toBe(true);
  });

  it("the named one-liner exports are the same middleware as the default export", async () => {
    const module = await import("../src/middleware.js");
    expect(module.proxy).toBe(module.default);
    expect(module.middleware).toBe(module.default);
    const redirected = await outcome(module.proxy(request("/dashboard")));
    expect(redirected?.status).toBe(307);
  });
});
