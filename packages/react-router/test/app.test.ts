/**
 * The example app (examples/react-router) built once with React Router's own build
 * (`react-router build`), served by `react-router-serve` on 127.0.0.1 and driven over HTTP and in
 * Chromium against the real OpenID Provider fixture: the resource route at /auth, getSession and
 * getCsrfToken in loaders, requireSession's redirect, the plain form posting to the resource route
 * and `@tessera/react-router/client`'s signIn/signOut. Session cookies are exchanged with
 * `@auth/core` and with another Tessera integration (`@tessera/hono`, run in-process). Nothing is
 * mocked.
 */
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt";
import Credentials from "@tessera/core/providers/credentials";
import { authHandler, getAuthUser, initAuthConfig } from "@tessera/hono";
import { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
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

const EXAMPLE = join(ROOT, "examples/react-router");
const CLI_BIN = join(ROOT, "node_modules/@react-router/dev/bin.js");
const SERVE_BIN = join(ROOT, "node_modules/@react-router/serve/bin.js");
const SECRET = "react-router-example-secret-of-32+-chars";
const USER = { name: "Ada Lovelace", email: "ada@example.com" };
const PASSWORD = "correct horse battery staple";
const OP_USER = { sub: "ada-op", email: "ada@op.example", email_verified: true, name: "Ada (OP)" };
const OP_CLIENT = { id: "react-router-app", secret: "react-router-app-secret" };
const AUTH = "/auth";
const SESSION_COOKIE = "authjs.session-token";

let appDir = "";
let origin = "";
let op: RunningOidcProvider | undefined;
let server: RunningServer | undefined;

beforeAll(async () => {
  await buildPackages(
    ["packages/core", "packages/react-router"],
    ["packages/core/dist/client.js", "packages/react-router/dist/client.js"],
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

  // A private copy inside the example, so that it resolves the repository's node_modules and the
  // build/ and .react-router/ outputs stay out of the source tree.
  const artifacts = join(EXAMPLE, "test-artifacts");
  await mkdir(artifacts, { recursive: true });
  appDir = await mkdtemp(join(artifacts, "app-"));
  for (const entry of [
    "app",
    "package.json",
    "react-router.config.ts",
    "tsconfig.json",
    "vite.config.ts",
  ])
    await cp(join(EXAMPLE, entry), join(appDir, entry), { recursive: true });
  const build = await exec(process.execPath, [CLI_BIN, "build"], appDir, appEnv());
  if (build.code !== 0) throw new Error(`react-router build failed:\n${build.output.slice(-4000)}`);

  // AUTH_URL names the public origin, without a path: the base path stays /auth.
  server = await startServer(
    process.execPath,
    [SERVE_BIN, "./build/server/index.js"],
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
    "[react-router-serve]",
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

async function homeStatus(client: HttpClient): Promise<string | undefined> {
  const html = await (await client.get("/")).text();
  return /data-testid="status"[^>]*>(.*?)<\/p>/.exec(html)?.[1]?.replace(/<!--.*?-->/g, "");
}

/** The token the sign-in page's loader put in its form (its cookie lands in the jar). */
async function formCsrfToken(client: HttpClient): Promise<string> {
  const html = await (await client.get("/signin")).text();
  return /name="csrfToken" value="([0-9a-f]{64})"/.exec(html)?.[1] ?? "";
}

function signInOverHttp(client: HttpClient, csrfToken: string, password = PASSWORD) {
  return client.postForm(`${AUTH}/callback/credentials`, {
    csrfToken,
    email: USER.email,
    password,
    callbackUrl: "/protected",
  });
}

/**
 * Another Tessera integration on the same secret: a Hono app (`@tessera/hono`), called
 * in-process, that signs Grace in with credentials and answers `/me` with `getAuthUser`.
 */
function honoApp(): Hono {
  const app = new Hono();
  app.use(
    "*",
    initAuthConfig(() => ({
      secret: SECRET,
      trustHost: true,
      providers: [
        Credentials({
          credentials: { email: {} },
          authorize: ({ email }) =>
            email === "grace@example.com" ? { id: "grace", name: "Grace Hopper", email } : null,
        }),
      ],
    })),
  );
  app.use("/api/auth/*", authHandler());
  app.get("/me", async (c) => c.json((await getAuthUser(c))?.session ?? null));
  return app;
}

describe("the built React Router app over HTTP", () => {
  it("type-checks (react-router typegen, then tsc) against the published declarations", async () => {
    const typegen = await exec(process.execPath, [CLI_BIN, "typegen"], appDir, appEnv());
    expect(typegen.code, typegen.output).toBe(0);
    const { code, output } = await exec(process.execPath, [TSC_BIN, "-p", appDir], ROOT);
    expect(output).toBe("");
    expect(code).toBe(0);
  }, 120_000);

  it("serves every action from the resource route at /auth", async () => {
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
    expect(session.headers.get("cache-control")).toBe("private, no-cache, no-store");
    expect(await session.json()).toBeNull();
    // pages.signIn is the app's page: the built-in one redirects there.
    const signin = await client.get(`${AUTH}/signin`);
    expect(signin.status).toBe(302);
    expect(new URL(signin.headers.get("location") ?? "", origin).pathname).toBe("/signin");
  });

  it("redirects a signed-out visitor from the protected route (requireSession) with a real 302", async () => {
    const client = new HttpClient(origin);
    expect(await homeStatus(client)).toBe("Not signed in");
    const response = await client.get("/protected?tab=1");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/signin?callbackUrl=%2Fprotected%3Ftab%3D1");
  });

  it("signs in with the plain form's post; getSession and requireSession see the session", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client, await formCsrfToken(client));
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

  it("re-issues a day-old session cookie from a loader's getSession (rolling expiry)", async () => {
    // A token issued two days ago (past the default updateAge of a day) by @auth/core.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() - 2 * 86_400_000);
    const old = await authjsEncode({
      token: { name: USER.name, email: USER.email, sub: "1" },
      secret: SECRET,
      salt: SESSION_COOKIE,
    });
    vi.useRealTimers();
    const client = new HttpClient(origin);
    client.jar.set(SESSION_COOKIE, old);
    expect(await homeStatus(client)).toBe(`Signed in as ${USER.name} (${USER.email})`);
    const refreshed = client.lastSetCookies.find((c) => c.name === SESSION_COOKIE);
    expect(refreshed?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });
    const decoded = await authjsDecode({
      token: refreshed?.value ?? "",
      secret: SECRET,
      salt: SESSION_COOKIE,
    });
    expect(decoded?.iat).toBeGreaterThan(Date.now() / 1000 - 60);
    // A fresh cookie is not re-issued on every page.
    await client.get("/");
    expect(client.lastSetCookies.map((c) => c.name)).not.toContain(SESSION_COOKIE);
  });

  it("signs out: the cookie is cleared and the protected route redirects again", async () => {
    const client = new HttpClient(origin);
    await signInOverHttp(client, await formCsrfToken(client));
    const response = await client.postForm(`${AUTH}/signout`, {
      csrfToken: await client.csrfToken(AUTH),
      callbackUrl: "/",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/`);
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
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
    expect(response.headers.get("location")).toBe(`${origin}/signin?error=MissingCSRF`);
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
    // A forged token with a cookie of the attacker's own is refused the same way.
    await formCsrfToken(client);
    const forged = await signInOverHttp(client, "0".repeat(64));
    expect(forged.headers.get("location")).toBe(`${origin}/signin?error=MissingCSRF`);
    // So is a sign-out posted from a foreign page.
    const signOut = await client.postForm(`${AUTH}/signout`, { callbackUrl: "/" });
    expect(signOut.headers.get("location")).toBe(`${origin}/signin?error=MissingCSRF`);
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
  });

  it("refuses a wrong password with CredentialsSignin on the app's page and no session", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client, await formCsrfToken(client), "wrong");
    expect(response.headers.get("location")).toBe(
      `${origin}/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
  });

  it("reads a session cookie written by @auth/core: same cookie, same user", async () => {
    const client = new HttpClient(origin);
    const token = await authjsEncode({
      token: { name: "Grace Hopper", email: "grace@example.com", sub: "grace" },
      secret: SECRET,
      salt: SESSION_COOKIE,
    });
    client.jar.set(SESSION_COOKIE, token);
    expect(await (await client.get(`${AUTH}/session`)).json()).toMatchObject({
      user: { name: "Grace Hopper", email: "grace@example.com" },
    });
    expect(await homeStatus(client)).toBe("Signed in as Grace Hopper (grace@example.com)");
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/data-testid="protected-user"[^>]*>Grace Hopper</);
  });

  it("writes a session cookie that @auth/core and @tessera/hono read", async () => {
    const client = new HttpClient(origin);
    await signInOverHttp(client, await formCsrfToken(client));
    const token = client.jar.get(SESSION_COOKIE) ?? "";
    const decoded = await authjsDecode({ token, secret: SECRET, salt: SESSION_COOKIE });
    expect(decoded).toMatchObject({ name: USER.name, email: USER.email, sub: "1" });

    const me = await honoApp().request("http://127.0.0.1/me", {
      headers: { cookie: `${SESSION_COOKIE}=${token}` },
    });
    expect(await me.json()).toMatchObject({ user: USER });
  });

  it("reads a session cookie that @tessera/hono wrote at its own sign-in", async () => {
    const hono = honoApp();
    const csrf = await hono.request("http://127.0.0.1/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = csrf.headers.getSetCookie().map(parseSetCookie)[0];
    const signedIn = await hono.request("http://127.0.0.1/api/auth/callback/credentials", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: `${csrfCookie?.name}=${csrfCookie?.value}`,
      },
      body: new URLSearchParams({ csrfToken, email: "grace@example.com" }),
    });
    const written = signedIn.headers
      .getSetCookie()
      .map(parseSetCookie)
      .find((c) => c.name === SESSION_COOKIE);
    expect(written?.value).toBeTruthy();

    const client = new HttpClient(origin);
    client.jar.set(SESSION_COOKIE, written?.value ?? "");
    expect(await homeStatus(client)).toBe("Signed in as Grace Hopper (grace@example.com)");
    expect((await client.get("/protected")).status).toBe(200);
  });

  it("answers unknown actions under /auth with 400, never a 500 or a stack trace", async () => {
    const client = new HttpClient(origin);
    for (const path of [`${AUTH}/nope`, `${AUTH}/__proto__`, `${AUTH}/session/../../x`]) {
      for (const method of ["GET", "POST"]) {
        const response = await client.fetch(path, { method });
        expect(response.status, `${method} ${path}`).toBeLessThan(500);
        expect(await response.text()).not.toMatch(/\bat .*\.(m?js|ts):\d+/);
      }
    }
    expect((await client.fetch(`${AUTH}/nope`, { method: "POST" })).status).toBe(400);
    expect((await client.get(`${AUTH}/nope`)).status).toBe(400);
  });

  it("refuses a malformed body on the resource route without a 5xx", async () => {
    const client = new HttpClient(origin);
    const csrfToken = await formCsrfToken(client);
    for (const [type, body] of [
      ["application/x-www-form-urlencoded", `csrfToken=${csrfToken}&email=%E0%A4%A&password=%`],
      ["application/json", "{not json"],
      ["multipart/form-data; boundary=x", "--x\r\nbroken"],
    ] as const) {
      const response = await client.fetch(`${AUTH}/callback/credentials`, {
        method: "POST",
        headers: { "content-type": type },
        body,
      });
      expect(response.status, type).toBeLessThan(500);
      expect(await response.text()).not.toMatch(/\bat .*\.(m?js|ts):\d+/);
    }
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
  });

  it("reads a tampered or garbage session cookie as signed out, without a 5xx", async () => {
    for (const value of ["garbage", "a.b.c.d.e", "%E0%A4%A", "x".repeat(5000)]) {
      const client = new HttpClient(origin);
      client.jar.set(SESSION_COOKIE, value);
      const session = await client.get(`${AUTH}/session`);
      expect(session.status).toBe(200);
      expect(await session.json()).toBeNull();
      expect(await homeStatus(client)).toBe("Not signed in");
      expect((await client.get("/protected")).status).toBe(302);
    }
  });

  it("never redirects a sign-in to a foreign site (open redirect)", async () => {
    const client = new HttpClient(origin);
    const response = await client.postForm(`${AUTH}/callback/credentials`, {
      csrfToken: await formCsrfToken(client),
      email: USER.email,
      password: PASSWORD,
      callbackUrl: "https://evil.example/phish",
    });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location") ?? "").origin).toBe(origin);
    // The sign-in page drops a foreign callbackUrl instead of putting it in its form.
    const page = await client.get("/signin?callbackUrl=%2F%2Fevil.example");
    expect(await page.text()).not.toContain("evil.example");
  });
});

describe("the built React Router app in Chromium", () => {
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

  it("guards /protected, signs in with the plain form (refusal first) and out with signOut", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/protected`);
    expect(page.url()).toBe(`${origin}/signin?callbackUrl=%2Fprotected`);

    await page.getByLabel("E-mail").fill(USER.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${origin}/signin?error=CredentialsSignin&code=credentials`);
    expect(await page.getByTestId("error").textContent()).toBe(
      "Sign-in refused: CredentialsSignin",
    );
    expect((await browser.context.cookies()).map((c) => c.name)).not.toContain(SESSION_COOKIE);

    // The second attempt comes back to /protected through the callback-url cookie.
    await page.getByLabel("E-mail").fill(USER.email);
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

  it("redirects a client-side navigation (single fetch) and signs in with the client's signIn", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForSelector("[data-ready]");
    // The router fetches /protected.data: requireSession's redirect comes back as data.
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest()) documents.push(request.url());
    });
    await page.getByRole("link", { name: "Protected page" }).click();
    await page.waitForURL(`${origin}/signin?callbackUrl=%2Fprotected`);
    expect(documents).toEqual([]);

    await page.getByLabel("E-mail").fill(USER.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in without leaving the page" }).click();
    await expect
      .poll(() => page.getByTestId("error").textContent())
      .toBe("Sign-in refused: CredentialsSignin");
    expect(page.url()).toBe(`${origin}/signin?callbackUrl=%2Fprotected`);
    expect((await browser.context.cookies()).map((c) => c.name)).not.toContain(SESSION_COOKIE);

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in without leaving the page" }).click();
    await page.waitForURL(`${origin}/protected`);
    expect(await page.getByTestId("protected-user").textContent()).toBe(USER.name);
    await page.close();
  });

  it("signs in through the OpenID Provider with the client's signIn('op') and back to the app", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/signin`);
    await page.waitForSelector("[data-ready]");
    await page.getByRole("button", { name: "Sign in with the OpenID Provider" }).click();
    await page.waitForURL(`${origin}/`);
    await expect
      .poll(() => page.getByTestId("status").textContent())
      .toBe(`Signed in as ${OP_USER.name} (${OP_USER.email})`);
    await page.close();
  });
});
