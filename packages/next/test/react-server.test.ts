/**
 * `@tessera/next/react` called on a server (no `window`), as next-auth's client is in
 * `getServerSideProps` or a route: the route handlers' URL comes from `NEXTAUTH_URL_INTERNAL`,
 * `AUTH_URL` or `NEXTAUTH_URL`, and `getSession({ req })` forwards the request's cookies. The
 * handlers are a real `Auth()` behind `node:http` on 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Auth, type AuthConfig } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { toRequest, writeResponse } from "../../../e2e/auth-server.js";
import { CookieJar, DEMO_PASSWORD, DEMO_USER, SECRET } from "./helpers.js";

let server: Server;
let origin = "";
const config: AuthConfig = {
  secret: SECRET,
  trustHost: true,
  basePath: "/api/auth",
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      authorize: ({ email, password }) =>
        email === DEMO_USER.email && password === DEMO_PASSWORD ? DEMO_USER : null,
    }),
  ],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => writeResponse(await Auth(await toRequest(req), config), res))();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A fresh copy of the module, reading the environment as it is now. */
async function loadReact(env: Record<string, string>) {
  for (const name of ["NEXTAUTH_URL_INTERNAL", "AUTH_URL", "NEXTAUTH_URL", "VERCEL_URL"])
    vi.stubEnv(name, env[name] ?? "");
  vi.resetModules();
  return import("@tessera/next/react");
}

/** Signs in over HTTP and returns the browser's cookies. */
async function signedInCookies(): Promise<string> {
  const jar = new CookieJar();
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  jar.store(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams({ csrfToken, email: DEMO_USER.email, password: DEMO_PASSWORD }),
    redirect: "manual",
  });
  jar.store(response);
  return jar.header();
}

describe("@tessera/next/react on a server", () => {
  it("reads the session from NEXTAUTH_URL_INTERNAL with the request's cookies", async () => {
    const react = await loadReact({
      NEXTAUTH_URL_INTERNAL: `${origin}/api/auth`,
      AUTH_URL: "http://127.0.0.1:1/api/auth",
      NEXTAUTH_URL: "https://public.example",
    });
    expect(react.__NEXTAUTH).toMatchObject({
      baseUrl: "http://127.0.0.1:1",
      basePath: "/api/auth",
      baseUrlServer: origin,
      basePathServer: "/api/auth",
      _lastSync: 0,
      _session: undefined,
    });
    const cookie = await signedInCookies();
    expect(await react.getSession({ req: { headers: { cookie } } })).toMatchObject({
      user: { name: DEMO_USER.name, email: DEMO_USER.email },
    });
    expect(await react.getSession({ req: { headers: new Headers({ cookie }) } })).toMatchObject({
      user: { email: DEMO_USER.email },
    });
    expect(await react.getSession()).toBeNull();
  });

  it("falls back to AUTH_URL, then NEXTAUTH_URL", async () => {
    const fromAuthUrl = await loadReact({ AUTH_URL: origin, NEXTAUTH_URL: "http://127.0.0.1:1" });
    expect(fromAuthUrl.__NEXTAUTH.baseUrlServer).toBe(origin);
    expect(await fromAuthUrl.getCsrfToken()).toMatch(/^[0-9a-f]{64}$/);

    const fromNextAuthUrl = await loadReact({ NEXTAUTH_URL: `${origin}/api/auth/` });
    expect(fromNextAuthUrl.__NEXTAUTH.basePathServer).toBe("/api/auth");
    expect(Object.keys((await fromNextAuthUrl.getProviders()) ?? {})).toEqual(["credentials"]);
  });

  it("logs and answers null when the handlers cannot be reached", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const react = await loadReact({});
    expect(react.__NEXTAUTH.baseUrlServer).toBe("http://localhost:3000");
    const unreachable = await loadReact({ AUTH_URL: "http://127.0.0.1:1" });
    expect(await unreachable.getSession()).toBeNull();
    expect(error).toHaveBeenCalled();
  });
});
