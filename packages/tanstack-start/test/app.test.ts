/**
 * The example app (examples/tanstack-start) built once with TanStack Start's own build
 * (`vite build`), served by `srvx --prod` as the template's start script does, on 127.0.0.1, and
 * driven over HTTP and in Chromium against the real OpenID Provider fixture: the auth server
 * route at /api/auth, `getSession` in a server function used by a loader and by the protected
 * route's `beforeLoad`, and `@tessera/core/client`'s signIn/signOut. Session cookies cross over
 * with `@auth/core` and `@tessera/solid-start` in both directions. Nothing is mocked.
 */
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { Auth as AuthjsAuth } from "@auth/core";
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt";
import AuthjsCredentials from "@auth/core/providers/credentials";
import Credentials from "@tessera/core/providers/credentials";
import { SolidAuth, getSession as solidGetSession } from "@tessera/solid-start";
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
import { HttpClient, parseSetCookie } from "../../express/test/http-client.js";

const EXAMPLE = join(ROOT, "examples/tanstack-start");
const VITE_BIN = join(ROOT, "node_modules/vite/bin/vite.js");
const SRVX_BIN = join(ROOT, "node_modules/srvx/bin/srvx.mjs");
const SECRET = "tanstack-start-example-secret-of-32+-chars";
const USER = { name: "Ada Lovelace", email: "ada@example.com" };
const PASSWORD = "correct horse battery staple";
const OP_USER = { sub: "ada-op", email: "ada@op.example", email_verified: true, name: "Ada (OP)" };
const OP_CLIENT = { id: "tanstack-start-app", secret: "tanstack-start-app-secret" };
const AUTH = "/api/auth";
const SESSION_COOKIE = "authjs.session-token";

let appDir = "";
let origin = "";
let op: RunningOidcProvider | undefined;
let server: RunningServer | undefined;

beforeAll(async () => {
  // The app resolves @tessera/* through their package exports, as an installed app does.
  await buildPackages(
    ["packages/core", "packages/tanstack-start"],
    ["packages/core/dist/client.js", "packages/tanstack-start/dist/index.js"],
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

  // A private copy inside the example, so that it resolves the root's node_modules and the
  // generated route tree and dist/ stay out of the source tree.
  const artifacts = join(EXAMPLE, "test-artifacts");
  await mkdir(artifacts, { recursive: true });
  appDir = await mkdtemp(join(artifacts, "app-"));
  for (const entry of ["package.json", "tsconfig.json", "vite.config.ts", "src"])
    await cp(join(EXAMPLE, entry), join(appDir, entry), { recursive: true });
  const build = await exec(process.execPath, [VITE_BIN, "build"], appDir, appEnv());
  if (build.code !== 0) throw new Error(`vite build failed:\n${build.output.slice(-4000)}`);

  // AUTH_URL names the public origin, without a path: the base path stays /api/auth.
  server = await startServer(
    process.execPath,
    [SRVX_BIN, "--prod", "-s", "../client", "dist/server/server.js"],
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
}, 600_000);

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.log(`server log:\n${server?.output().slice(-4000)}`));
});

afterAll(async () => {
  await stopServer(server?.child);
  await op?.close();
  if (appDir) await rm(appDir, { recursive: true, force: true });
});

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

/** A client signed in with the demo user through the app's credentials callback. */
async function signedInClient(): Promise<HttpClient> {
  const client = new HttpClient(origin);
  const response = await signInOverHttp(client, await client.csrfToken(AUTH));
  expect(response.status).toBe(302);
  expect(client.jar.has(SESSION_COOKIE)).toBe(true);
  return client;
}

describe("the built TanStack Start app over HTTP", () => {
  it("type-checks (vite only strips types) against the published declarations", async () => {
    const { code, output } = await exec(process.execPath, [TSC_BIN, "-p", appDir], ROOT);
    expect(output).toBe("");
    expect(code).toBe(0);
  }, 120_000);

  it("serves every action from the server route at /api/auth without basePath in the config", async () => {
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
    const session = await client.get(`${AUTH}/session`);
    expect(await session.json()).toBeNull();
    expect(session.headers.get("cache-control")).toBe("private, no-cache, no-store");
    expect((await client.get(`${AUTH}/signin`)).status).toBe(200);
  });

  it("redirects a signed-out visitor from the protected route (beforeLoad) on the server", async () => {
    const client = new HttpClient(origin);
    expect(await homeStatus(client)).toBe("Not signed in");
    const response = await client.get("/protected");
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("/signin?callbackUrl=%2Fprotected");
  });

  it("signs in with credentials; getSession in the server function and the protected route see it", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client, await client.csrfToken(AUTH));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/protected`);
    const cookie = client.lastSetCookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });

    expect(await homeStatus(client)).toBe(`Signed in as ${USER.name} (${USER.email})`);
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/data-testid="protected-user"[^>]*>Ada Lovelace</);
    expect(await (await client.get(`${AUTH}/session`)).json()).toMatchObject({ user: USER });
  });

  it("signs out: the cookie is cleared and the protected route redirects again", async () => {
    const client = await signedInClient();
    const response = await client.postForm(`${AUTH}/signout`, {
      csrfToken: await client.csrfToken(AUTH),
      callbackUrl: "/",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/`);
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
    expect(await homeStatus(client)).toBe("Not signed in");
    expect((await client.get("/protected")).status).toBe(307);
  });

  it("refuses a credentials post without the CSRF token (login CSRF)", async () => {
    const client = new HttpClient(origin);
    const response = await client.postForm(`${AUTH}/callback/credentials`, {
      email: USER.email,
      password: PASSWORD,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}${AUTH}/signin?error=MissingCSRF`);
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
    // A forged token with a cookie of the attacker's own is refused the same way.
    await client.csrfToken(AUTH);
    const forged = await signInOverHttp(client, "0".repeat(64));
    expect(forged.headers.get("location")).toBe(`${origin}${AUTH}/signin?error=MissingCSRF`);
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
  });

  it("refuses a sign-out post without the CSRF token (logout CSRF): the session stays", async () => {
    const client = await signedInClient();
    const response = await client.postForm(`${AUTH}/signout`, { callbackUrl: "/" });
    expect(response.headers.get("location")).toBe(`${origin}${AUTH}/signin?error=MissingCSRF`);
    expect(client.jar.has(SESSION_COOKIE)).toBe(true);
    expect(await homeStatus(client)).toBe(`Signed in as ${USER.name} (${USER.email})`);
  });

  it("refuses a wrong password with CredentialsSignin and no session", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client, await client.csrfToken(AUTH), "wrong");
    expect(response.headers.get("location")).toBe(
      `${origin}${AUTH}/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
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
  });

  it("reads a tampered or garbage session cookie as signed out and clears it, without a 5xx", async () => {
    for (const value of ["garbage", "a.b.c.d.e", "%E0%A4%A", "x".repeat(5000)]) {
      const client = new HttpClient(origin);
      client.jar.set(SESSION_COOKIE, value);
      const session = await client.get(`${AUTH}/session`);
      expect(session.status).toBe(200);
      expect(await session.json()).toBeNull();
      client.jar.set(SESSION_COOKIE, value);
      expect(await homeStatus(client)).toBe("Not signed in");
      // getSession() in the loader's server function put the core's clearing cookie on the page.
      expect(client.jar.has(SESSION_COOKIE)).toBe(false);
      client.jar.set(SESSION_COOKIE, value);
      expect((await client.get("/protected")).status).toBe(307);
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

describe("session cookies shared with @auth/core and @tessera/solid-start", () => {
  /** A session cookie the app reads: its /session, the loader's server function, beforeLoad. */
  async function expectAppReads(token: string, user: { name: string; email: string }) {
    const client = new HttpClient(origin);
    client.jar.set(SESSION_COOKIE, token);
    expect(await (await client.get(`${AUTH}/session`)).json()).toMatchObject({ user });
    expect(await homeStatus(client)).toBe(`Signed in as ${user.name} (${user.email})`);
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(user.name);
  }

  /** The same site as another framework sees it: SolidStart's integration, same secret. */
  const solidConfig = {
    secret: SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: ({ email }) => ({ id: "2", name: "Grace Hopper", email: String(email) }),
      }),
    ],
  };

  it("reads a session cookie written by @auth/core", async () => {
    const token = await authjsEncode({
      token: { name: "Grace Hopper", email: "grace@example.com", sub: "grace" },
      secret: SECRET,
      salt: SESSION_COOKIE,
    });
    await expectAppReads(token, { name: "Grace Hopper", email: "grace@example.com" });
  });

  it("writes a session cookie that @auth/core decodes and its session action answers", async () => {
    const client = await signedInClient();
    const token = client.jar.get(SESSION_COOKIE) ?? "";
    const decoded = await authjsDecode({ token, secret: SECRET, salt: SESSION_COOKIE });
    expect(decoded).toMatchObject({ name: USER.name, email: USER.email, sub: "1" });

    const response = await AuthjsAuth(
      new Request(`${origin}${AUTH}/session`, {
        headers: { cookie: `${SESSION_COOKIE}=${token}` },
      }),
      {
        secret: SECRET,
        trustHost: true,
        basePath: AUTH,
        providers: [AuthjsCredentials({ authorize: () => null })],
      },
    );
    expect(await response.json()).toMatchObject({ user: USER });
  });

  it("reads a session cookie written by @tessera/solid-start, which reads the app's", async () => {
    // SolidStart's catch-all route, given the credentials post a browser makes.
    const { GET, POST } = SolidAuth(solidConfig);
    const csrf = await GET({ request: new Request(`${origin}${AUTH}/csrf`) });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = parseSetCookie(csrf.headers.getSetCookie()[0] ?? "");
    const signedIn = await POST({
      request: new Request(`${origin}${AUTH}/callback/credentials`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: `${csrfCookie.name}=${csrfCookie.value}`,
        },
        body: new URLSearchParams({ csrfToken, email: "grace@example.com", password: "x" }),
      }),
    });
    const written = signedIn.headers
      .getSetCookie()
      .map(parseSetCookie)
      .find((c) => c.name === SESSION_COOKIE);
    expect(written?.value).toBeTruthy();
    await expectAppReads(written?.value ?? "", {
      name: "Grace Hopper",
      email: "grace@example.com",
    });

    // And the other way round: the app's cookie, read by SolidStart's getSession.
    const client = await signedInClient();
    const session = await solidGetSession(
      new Request(`${origin}/`, {
        headers: { cookie: `${SESSION_COOKIE}=${client.jar.get(SESSION_COOKIE)}` },
      }),
      solidConfig,
    );
    expect(session?.user).toMatchObject(USER);
  });
});

describe("the built TanStack Start app in Chromium", () => {
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

  it("guards /protected, signs in with the client signIn (refusal first) and out with signOut", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/protected`);
    expect(page.url()).toBe(`${origin}/signin?callbackUrl=%2Fprotected`);
    await page.waitForSelector("main[data-ready]");

    await page.getByLabel("E-mail").fill(USER.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect
      .poll(() => page.getByTestId("error").textContent())
      .toBe("Sign-in refused: CredentialsSignin");
    expect((await browser.context.cookies()).map((c) => c.name)).not.toContain(SESSION_COOKIE);

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${origin}/protected`);
    expect(await page.getByTestId("protected-user").textContent()).toBe(USER.name);

    await page.goto(`${origin}/`);
    expect(await page.getByTestId("status").textContent()).toBe(
      `Signed in as ${USER.name} (${USER.email})`,
    );
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => page.getByTestId("status").textContent()).toBe("Not signed in");
    expect((await browser.context.cookies()).map((c) => c.name)).not.toContain(SESSION_COOKIE);
    await page.goto(`${origin}/protected`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await page.close();
  });

  it("redirects a client-side navigation to /protected when signed out (beforeLoad in the browser)", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForSelector("main[data-ready]");
    // Marks the document: a full page load would lose the mark, a client-side navigation keeps it.
    await page.evaluate(() => {
      document.documentElement.dataset.loaded = "once";
    });
    await page.getByRole("link", { name: "Protected page" }).click();
    await page.waitForURL(`${origin}/signin?callbackUrl=%2Fprotected`);
    // The router navigated (the server function answered over RPC), the page never reloaded.
    expect(await page.evaluate(() => document.documentElement.dataset.loaded)).toBe("once");
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
