/**
 * The example app (examples/nuxt) built once with Nuxt's own build (`nuxi build`, node-server
 * preset), served by its `.output/server/index.mjs` on 127.0.0.1 and driven over HTTP and in
 * Chromium against the real OpenID Provider fixture: the module's server route at /api/auth,
 * getServerSession in an API route, useSession filled during SSR, the `auth` route middleware,
 * and the composable's signIn/signOut. Session cookies are exchanged with @auth/core and with
 * @tessera/express (a real Express server in this process). Nothing is mocked.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { join } from "node:path";
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt";
import Credentials from "@tessera/core/providers/credentials";
import { ExpressAuth } from "@tessera/express";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser } from "../../../e2e/browser.js";
import { buildPackages, exec, ROOT, TSC_BIN } from "../../core/test/fixtures/build.js";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../../core/test/fixtures/oidc-provider.js";
import { freePort } from "../../core/test/fixtures/ports.js";
import {
  appEnv,
  type RunningServer,
  startServer,
  stopServer,
} from "../../core/test/fixtures/processes.js";
import { HttpClient } from "../../express/test/http-client.js";

const EXAMPLE = join(ROOT, "examples/nuxt");
const NUXI_BIN = join(ROOT, "node_modules/@nuxt/cli/bin/nuxi.mjs");
const SECRET = "nuxt-example-secret-of-32+-characters";
const USER = { name: "Ada Lovelace", email: "ada@example.com" };
const PASSWORD = "correct horse battery staple";
const OP_USER = { sub: "ada-op", email: "ada@op.example", email_verified: true, name: "Ada (OP)" };
const OP_CLIENT = { id: "nuxt-app", secret: "nuxt-app-secret" };
const AUTH = "/api/auth";
const COOKIE = "authjs.session-token";

/** Runs the csrf action in-process through `serverActionRunner`, auto-imported in `server/`. */
const RUNNER_ROUTE = `export default defineEventHandler(async (event) => {
  const answer = await serverActionRunner(event)({ action: "csrf" });
  return answer.body;
});
`;

let appDir = "";
let origin = "";
let op: RunningOidcProvider | undefined;
let server: RunningServer | undefined;

beforeAll(async () => {
  await buildPackages(
    ["packages/core", "packages/nuxt"],
    ["packages/core/dist/client.js", "packages/nuxt/dist/index.js"],
  );
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  op = await startOidcProvider({
    clients: [
      {
        client_id: OP_CLIENT.id,
        client_secret: OP_CLIENT.secret,
        redirect_uris: [`${origin}${AUTH}/callback/op`],
      },
    ],
    accounts: [OP_USER],
  });

  // A private copy at the repository's top, so that it resolves the workspace's node_modules
  // and .nuxt/.output stay out of the source tree. Not below examples/nuxt: Vite's tsconfig
  // lookup would follow the example's own tsconfig.json to a .nuxt/ that the copy does not have.
  const artifacts = join(ROOT, "test-artifacts");
  await mkdir(artifacts, { recursive: true });
  appDir = await mkdtemp(join(artifacts, "nuxt-app-"));
  for (const entry of ["nuxt.config.ts", "package.json", "tsconfig.json", "app", "server"])
    await cp(join(EXAMPLE, entry), join(appDir, entry), { recursive: true });
  // A route of the test's own beside the example's: the module's auto-imported action runner.
  await writeFile(join(appDir, "server/api/runner-csrf.get.ts"), RUNNER_ROUTE);
  const build = await exec(process.execPath, [NUXI_BIN, "build"], appDir, appEnv());
  if (build.code !== 0) throw new Error(`nuxi build failed:\n${build.output.slice(-4000)}`);

  // AUTH_URL names the public origin, without a path: the base path stays /api/auth.
  server = await startServer(
    process.execPath,
    [".output/server/index.mjs"],
    appDir,
    appEnv({
      HOST: "127.0.0.1",
      PORT: String(port),
      AUTH_SECRET: SECRET,
      AUTH_URL: origin,
      AUTH_OP_ISSUER: op.issuer,
      AUTH_OP_ID: OP_CLIENT.id,
      AUTH_OP_SECRET: OP_CLIENT.secret,
    }),
    "Listening on",
  );
}, 300_000);

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.log(`server log:\n${server?.output().slice(-4000)}`));
});

afterAll(async () => {
  await stopServer(server?.child);
  await op?.close();
  if (appDir) await rm(appDir, { recursive: true, force: true });
});

/** `/signin → /protected` for a redirect to the sign-in page that comes back to /protected. */
function signInTarget(location: string | null): string {
  const url = new URL(location ?? "", origin);
  return `${url.pathname} → ${url.searchParams.get("callbackUrl")}`;
}

async function homeStatus(client: HttpClient): Promise<string | undefined> {
  const html = await (await client.get("/")).text();
  return /data-testid="status"[^>]*>(.*?)<\/p>/.exec(html)?.[1]?.replace(/<!--.*?-->/g, "");
}

function signInOverHttp(client: HttpClient, csrfToken: string, password = PASSWORD) {
  return client.postForm(`${AUTH}/callback/credentials`, {
    csrfToken,
    email: USER.email,
    password,
    callbackUrl: "/protected",
  });
}

describe("the built Nuxt app over HTTP", () => {
  it("type-checks its server code against the types Nuxt generated for the module", async () => {
    // server/auth.config.ts, and server/api/me.get.ts with the auto-imported getServerSession.
    const tsconfig = join(appDir, ".nuxt/tsconfig.server.json");
    const { code, output } = await exec(
      process.execPath,
      [TSC_BIN, "-p", tsconfig, "--noEmit"],
      ROOT,
    );
    expect(output).toBe("");
    expect(code).toBe(0);
  }, 120_000);

  it("serves every action at /api/auth from the module's server route", async () => {
    const client = new HttpClient(origin);
    const providers = await client.get(`${AUTH}/providers`);
    expect(providers.status).toBe(200);
    expect(await providers.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: `${origin}${AUTH}/signin/credentials`,
        callbackUrl: `${origin}${AUTH}/callback/credentials`,
      },
      op: {
        id: "op",
        name: "OpenID Provider",
        type: "oidc",
        signinUrl: `${origin}${AUTH}/signin/op`,
        callbackUrl: `${origin}${AUTH}/callback/op`,
      },
    });
    expect(await client.csrfToken(AUTH)).toMatch(/^[0-9a-f]{64}$/);
    expect(await (await client.get(`${AUTH}/session`)).json()).toBeNull();
    expect((await client.get(`${AUTH}/signin`)).status).toBe(200);
  });

  it("redirects a signed-out visitor from the auth-middleware page with a real 302", async () => {
    const client = new HttpClient(origin);
    expect(await homeStatus(client)).toBe("Not signed in");
    const response = await client.get("/protected");
    expect(response.status).toBe(302);
    expect(signInTarget(response.headers.get("location"))).toBe("/signin → /protected");
    const api = await client.get("/api/me");
    expect(api.status).toBe(401);
  });

  it("signs in with credentials; getServerSession, the SSR page and the middleware see it", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client, await client.csrfToken(AUTH));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/protected`);
    const cookie = client.lastSetCookies.find((c) => c.name === COOKIE);
    expect(cookie?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });

    expect(await homeStatus(client)).toBe(`Signed in as ${USER.name} (${USER.email})`);
    const me = await client.get("/api/me");
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual(USER);
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/data-testid="protected-user"[^>]*>Ada Lovelace</);
    expect(await (await client.get(`${AUTH}/session`)).json()).toMatchObject({ user: USER });
  });

  it("signs out: the cookie is cleared and the protected page redirects again", async () => {
    const client = new HttpClient(origin);
    await signInOverHttp(client, await client.csrfToken(AUTH));
    const response = await client.postForm(`${AUTH}/signout`, {
      csrfToken: await client.csrfToken(AUTH),
      callbackUrl: "/",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/`);
    expect(client.jar.has(COOKIE)).toBe(false);
    expect(await homeStatus(client)).toBe("Not signed in");
    expect((await client.get("/protected")).status).toBe(302);
  });

  it("refuses a credentials post without the CSRF token (login CSRF)", async () => {
    const client = new HttpClient(origin);
    const response = await client.postForm(`${AUTH}/callback/credentials`, {
      email: USER.email,
      password: PASSWORD,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}${AUTH}/signin?error=MissingCSRF`);
    expect(client.jar.has(COOKIE)).toBe(false);
    // A forged token with a cookie of the attacker's own is refused the same way.
    await client.csrfToken(AUTH);
    const forged = await signInOverHttp(client, "0".repeat(64));
    expect(forged.headers.get("location")).toBe(`${origin}${AUTH}/signin?error=MissingCSRF`);
    expect(client.jar.has(COOKIE)).toBe(false);
    // Sign-out without the token leaves the session alone (logout CSRF).
    await signInOverHttp(client, await client.csrfToken(AUTH));
    await client.postForm(`${AUTH}/signout`, { callbackUrl: "/" });
    expect(await (await client.get(`${AUTH}/session`)).json()).toMatchObject({ user: USER });
  });

  it("refuses a wrong password with CredentialsSignin and no session", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client, await client.csrfToken(AUTH), "wrong");
    expect(response.headers.get("location")).toBe(
      `${origin}${AUTH}/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(client.jar.has(COOKIE)).toBe(false);
  });

  it("accepts a session cookie written by @auth/core, and writes one @auth/core reads", async () => {
    const client = new HttpClient(origin);
    const token = await authjsEncode({
      token: { name: "Grace Hopper", email: "grace@example.com", sub: "grace" },
      secret: SECRET,
      salt: COOKIE,
    });
    client.jar.set(COOKIE, token);
    expect(await (await client.get(`${AUTH}/session`)).json()).toMatchObject({
      user: { name: "Grace Hopper", email: "grace@example.com" },
    });
    expect(await homeStatus(client)).toBe("Signed in as Grace Hopper (grace@example.com)");
    expect(await (await client.get("/api/me")).json()).toEqual({
      name: "Grace Hopper",
      email: "grace@example.com",
    });

    const own = new HttpClient(origin);
    await signInOverHttp(own, await own.csrfToken(AUTH));
    const decoded = await authjsDecode({
      token: own.jar.get(COOKIE),
      secret: SECRET,
      salt: COOKIE,
    });
    expect(decoded).toMatchObject({ name: USER.name, email: USER.email });
  });

  it("runs an action in-process with serverActionRunner(event) and sets its cookie on the response", async () => {
    const response = await fetch(`${origin}/api/runner-csrf`);
    expect(await response.json()).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(response.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^authjs\.csrf-token=/),
    ]);
  });

  it("answers unknown actions under the prefix with 400, never a 500 or a stack trace", async () => {
    const client = new HttpClient(origin);
    for (const path of [`${AUTH}/nope`, `${AUTH}/__proto__`, `${AUTH}/session/../../x`]) {
      for (const method of ["GET", "POST"]) {
        const response = await client.fetch(path, { method });
        expect(response.status, `${method} ${path}`).toBeLessThan(500);
        expect(await response.text()).not.toMatch(/\bat .*\.(m?js|ts):\d+/);
      }
    }
    expect((await client.fetch(`${AUTH}/nope`, { method: "POST" })).status).toBe(400);
    // A malformed body on a POST is refused, not thrown.
    const garbage = await client.fetch(`${AUTH}/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "%%%&&&==csrfToken=%ZZ",
    });
    expect(garbage.status).toBeLessThan(500);
  });

  it("reads a tampered or garbage session cookie as signed out, without a 5xx", async () => {
    for (const value of ["garbage", "a.b.c.d.e", "%E0%A4%A", "x".repeat(5000)]) {
      const client = new HttpClient(origin);
      client.jar.set(COOKIE, value);
      const session = await client.get(`${AUTH}/session`);
      expect(session.status).toBe(200);
      expect(await session.json()).toBeNull();
      expect(await homeStatus(client)).toBe("Not signed in");
      expect((await client.get("/protected")).status).toBe(302);
      expect((await client.get("/api/me")).status).toBe(401);
    }
  });

  it("never redirects a sign-in to a foreign site (open redirect)", async () => {
    const client = new HttpClient(origin);
    const response = await client.postForm(`${AUTH}/callback/credentials`, {
      csrfToken: await client.csrfToken(AUTH),
      email: USER.email,
      password: PASSWORD,
      callbackUrl: "https://evil.example/phish",
    });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location") ?? "").origin).toBe(origin);
  });
});

describe("configuration", () => {
  it("takes the secret from runtimeConfig (NUXT_TESSERA_SECRET) when AUTH_SECRET is unset", async () => {
    const port = await freePort();
    const second = await startServer(
      process.execPath,
      [".output/server/index.mjs"],
      appDir,
      appEnv({
        HOST: "127.0.0.1",
        PORT: String(port),
        NUXT_TESSERA_SECRET: `${SECRET}-runtime`,
        AUTH_URL: `http://127.0.0.1:${port}`,
      }),
      "Listening on",
    );
    try {
      const client = new HttpClient(`http://127.0.0.1:${port}`);
      await signInOverHttp(client, await client.csrfToken(AUTH));
      const token = client.jar.get(COOKIE);
      expect(
        await authjsDecode({ token, secret: `${SECRET}-runtime`, salt: COOKIE }),
      ).toMatchObject({ email: USER.email });
      expect(await (await client.get("/api/me")).json()).toEqual(USER);
    } finally {
      await stopServer(second.child);
    }
  });

  it("stops the build with the fix when server/auth.config.ts is missing", async () => {
    const bare = await mkdtemp(join(ROOT, "test-artifacts", "nuxt-bare-"));
    try {
      for (const entry of ["nuxt.config.ts", "package.json", "app"])
        await cp(join(EXAMPLE, entry), join(bare, entry), { recursive: true });
      const { code, output } = await exec(process.execPath, [NUXI_BIN, "prepare"], bare, appEnv());
      expect(code).not.toBe(0);
      expect(output).toContain("Create server/auth.config.ts");
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("session cookies shared with @tessera/express", () => {
  let expressServer: Server | undefined;
  let expressOrigin = "";
  beforeAll(async () => {
    // The same secret and user as the Nuxt app's config; Express serves the same actions at
    // the same base path, so the cookie names and the JWT salt are the same.
    const app = express();
    app.set("trust proxy", false);
    app.use(
      AUTH,
      ExpressAuth({
        secret: SECRET,
        trustHost: true,
        providers: [
          Credentials({
            credentials: { email: {}, password: {} },
            authorize: ({ email, password }) =>
              email === USER.email && password === PASSWORD ? { id: "1", ...USER } : null,
          }),
        ],
      }),
    );
    const port = await freePort();
    expressOrigin = `http://127.0.0.1:${port}`;
    await new Promise<void>((resolve) => {
      expressServer = app.listen(port, "127.0.0.1", () => resolve());
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => expressServer?.close(resolve));
  });

  it("reads a session cookie written by @tessera/express, and Express reads Nuxt's", async () => {
    const viaExpress = new HttpClient(expressOrigin);
    await signInOverHttp(viaExpress, await viaExpress.csrfToken(AUTH));
    const expressCookie = viaExpress.jar.get(COOKIE);
    expect(expressCookie).toBeTruthy();
    const nuxt = new HttpClient(origin);
    nuxt.jar.set(COOKIE, expressCookie ?? "");
    expect(await homeStatus(nuxt)).toBe(`Signed in as ${USER.name} (${USER.email})`);
    expect(await (await nuxt.get("/api/me")).json()).toEqual(USER);

    const viaNuxt = new HttpClient(origin);
    await signInOverHttp(viaNuxt, await viaNuxt.csrfToken(AUTH));
    const other = new HttpClient(expressOrigin);
    other.jar.set(COOKIE, viaNuxt.jar.get(COOKIE) ?? "");
    expect(await (await other.get(`${AUTH}/session`)).json()).toMatchObject({ user: USER });
  });
});

describe("the built Nuxt app in Chromium", () => {
  let browser: LaunchedBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    await browser.context.clearCookies();
  });

  it("guards /protected, signs in with useSession().signIn (refusal first) and out with signOut", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/protected`);
    expect(signInTarget(page.url())).toBe("/signin → /protected");
    await page.waitForSelector("main[data-ready]");

    await page.getByLabel("E-mail").fill(USER.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect
      .poll(() => page.getByTestId("error").textContent())
      .toBe("Sign-in refused: CredentialsSignin");
    expect((await browser.context.cookies()).map((c) => c.name)).not.toContain(COOKIE);

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${origin}/protected`);
    await expect.poll(() => page.getByTestId("protected-user").textContent()).toBe(USER.name);

    await page.goto(`${origin}/`);
    await page.waitForSelector("main[data-ready]");
    expect(await page.getByTestId("status").textContent()).toBe(
      `Signed in as ${USER.name} (${USER.email})`,
    );
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => page.getByTestId("status").textContent()).toBe("Not signed in");
    expect((await browser.context.cookies()).map((c) => c.name)).not.toContain(COOKIE);
    // Client-side navigation: the middleware runs in the browser this time.
    await page.getByRole("link", { name: "Protected page" }).click();
    await page.waitForURL((url) => signInTarget(url.href) === "/signin → /protected");
    await page.close();
  });

  it("signs in through the OpenID Provider with signIn('op') and back to the app", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/signin`);
    await page.waitForSelector("main[data-ready]");
    await page.getByRole("button", { name: "Sign in with the OpenID Provider" }).click();
    await page.waitForURL(`${origin}/`);
    await expect
      .poll(() => page.getByTestId("status").textContent())
      .toBe(`Signed in as ${OP_USER.name} (${OP_USER.email})`);
    await page.close();
  });
});
