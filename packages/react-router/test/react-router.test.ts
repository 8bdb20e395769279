/**
 * `ReactRouterAuth`'s handlers called as React Router calls them (with the incoming `Request`),
 * in this process: where requireSession sends a signed-out visitor, the base path, and the errors
 * that name their fix. The built app's behaviour is in app.test.ts.
 */
import { skipCSRFCheck } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import { describe, expect, it } from "vitest";
import { ReactRouterAuth, type ReactRouterAuthConfig } from "../src/index.js";

const SECRET = "react-router-unit-secret-of-32+-chars!!";
const ORIGIN = "https://app.example";

function config(overrides: Partial<ReactRouterAuthConfig> = {}): ReactRouterAuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [Credentials({ credentials: {}, authorize: () => null })],
    ...overrides,
  };
}

/** What a thrown redirect says: status and location. */
async function thrownRedirect(promise: Promise<unknown>) {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(Response);
  const response = thrown as Response;
  return { status: response.status, location: response.headers.get("location"), response };
}

describe("requireSession", () => {
  it("throws a redirect to the built-in page at the base path with the requested path", async () => {
    const auth = ReactRouterAuth(config());
    const { status, location } = await thrownRedirect(
      auth.requireSession(new Request(`${ORIGIN}/orders/7?tab=items`)),
    );
    expect(status).toBe(302);
    expect(location).toBe("/auth/signin?callbackUrl=%2Forders%2F7%3Ftab%3Ditems");
  });

  it("sends to pages.signIn, or redirectTo, keeping their own query", async () => {
    const auth = ReactRouterAuth(config({ pages: { signIn: "/login?theme=dark" } }));
    const request = new Request(`${ORIGIN}/settings`);
    expect((await thrownRedirect(auth.requireSession(request))).location).toBe(
      "/login?theme=dark&callbackUrl=%2Fsettings",
    );
    const headers = new Headers({ "x-trace": "1" });
    const other = await thrownRedirect(
      auth.requireSession(request, { redirectTo: "/welcome", headers }),
    );
    expect(other.location).toBe("/welcome?callbackUrl=%2Fsettings");
    expect(other.response.headers.get("x-trace")).toBe("1");
  });

  it("puts only the path in callbackUrl, never the request's host (Host header poisoning)", async () => {
    const auth = ReactRouterAuth(config());
    const request = new Request("http://evil.example/admin", { headers: { host: "evil.example" } });
    const { location } = await thrownRedirect(auth.requireSession(request));
    expect(location).toBe("/auth/signin?callbackUrl=%2Fadmin");
  });
});

describe("the resource route", () => {
  it("serves the actions under the configured basePath", async () => {
    const auth = ReactRouterAuth(config({ basePath: "/api/auth/" }));
    expect(auth.basePath).toBe("/api/auth");
    const response = await auth.loader({ request: new Request(`${ORIGIN}/api/auth/providers`) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      credentials: { callbackUrl: `${ORIGIN}/api/auth/callback/credentials` },
    });
    const outside = await auth.loader({ request: new Request(`${ORIGIN}/auth/providers`) });
    expect(outside.status).toBe(400);
  });

  it("leaves the caller's config object as it was", () => {
    const options = config();
    const before = { ...options };
    void ReactRouterAuth(options).basePath;
    expect(options).toEqual(before);
  });
});

describe("errors that name their fix", () => {
  it("getSession throws an AuthError naming AUTH_SECRET when there is no secret", async () => {
    const previous = process.env.AUTH_SECRET;
    delete process.env.AUTH_SECRET;
    try {
      const auth = ReactRouterAuth(config({ secret: undefined }));
      await expect(auth.getSession(new Request(`${ORIGIN}/`))).rejects.toThrow(/AUTH_SECRET/);
    } finally {
      if (previous !== undefined) process.env.AUTH_SECRET = previous;
    }
  });

  it("getCsrfToken says that forms need no token when the config skips the check", async () => {
    const auth = ReactRouterAuth(config({ skipCSRFCheck }));
    await expect(auth.getCsrfToken(new Request(`${ORIGIN}/`), new Headers())).rejects.toThrow(
      /skipCSRFCheck/,
    );
  });

  it("getCsrfToken appends the double-submit cookie that the token belongs to", async () => {
    const auth = ReactRouterAuth(config());
    const headers = new Headers();
    const token = await auth.getCsrfToken(new Request(`${ORIGIN}/signin`), headers);
    const [cookie] = headers.getSetCookie();
    expect(cookie).toMatch(new RegExp(`^__Host-authjs\\.csrf-token=${token}%7C[0-9a-f]{64};`));
  });
});
