/**
 * The example app (examples/fastify) compiled once with its own build (`tsc`: Fastify has no
 * build step of its own), served on 127.0.0.1 from its dist/, and driven over HTTP and in
 * Chromium against the real OpenID Provider fixture. Session cookies cross over with @auth/core
 * and with @tessera/express (an Express app in this process, same secret). Nothing is mocked.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchBrowser } from "../../../e2e/browser.js";
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
import { createAuthConfig, createApp as createExpressApp } from "../../express/test/app.js";
import { HttpClient } from "../../express/test/http-client.js";

const EXAMPLE = join(ROOT, "examples/fastify");
const SECRET = "fastify-example-secret-of-at-least-32-chars";
const AUTH = "/auth";
const OP_USER = { sub: "ada-op", email: "ada@op.example", email_verified: true, name: "Ada (OP)" };
const OP_CLIENT = { id: "fastify-app", secret: "fastify-app-secret" };

let origin = "";
let workDir = "";
let server: RunningServer | undefined;
let op: RunningOidcProvider;
let express: Server | undefined;
let expressOrigin = "";

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  op = await startOidcProvider({
    clients: [
      {
        client_id: OP_CLIENT.id,
        client_secret: OP_CLIENT.secret,
        redirect_uris: [`${origin}${AUTH}/callback/fixture-op`],
      },
    ],
    accounts: [OP_USER],
  });
  // The example consumes the packages' dist/, as an app installing them from npm does.
  await buildPackages(["packages/core", "packages/fastify"], ["packages/fastify/dist/index.js"]);
  // A private output directory: parallel runs must not share one.
  const artifacts = join(ROOT, "packages/fastify/test-artifacts");
  await mkdir(artifacts, { recursive: true });
  workDir = await mkdtemp(join(artifacts, "app-"));
  const build = await exec(
    process.execPath,
    [TSC_BIN, "-p", "tsconfig.json", "--outDir", workDir],
    EXAMPLE,
    appEnv(),
  );
  if (build.code !== 0) throw new Error(`the example's build failed:\n${build.output}`);
  server = await startServer(
    process.execPath,
    [join(workDir, "server.js")],
    EXAMPLE,
    appEnv({
      HOST: "127.0.0.1",
      PORT: String(port),
      NODE_ENV: "production",
      AUTH_SECRET: SECRET,
      AUTH_URL: origin,
      AUTH_FIXTURE_OP_ISSUER: op.issuer,
      AUTH_FIXTURE_OP_ID: OP_CLIENT.id,
      AUTH_FIXTURE_OP_SECRET: OP_CLIENT.secret,
    }),
    "Listening on",
  );
  // Another integration with the same secret, for the cookie crossing.
  const expressApp = createExpressApp(createAuthConfig({ secret: SECRET }));
  express = expressApp.listen(0, "127.0.0.1");
  await new Promise((resolve) => express?.once("listening", resolve));
  expressOrigin = `http://127.0.0.1:${(express.address() as AddressInfo).port}`;
}, 240_000);

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.log(`server log:\n${server?.output().slice(-4000)}`));
});

afterAll(async () => {
  await stopServer(server?.child);
  await op?.close();
  await new Promise((resolve) => (express ? express.close(resolve) : resolve(undefined)));
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function homeStatus(client: HttpClient): Promise<string | undefined> {
  const html = await (await client.get("/")).text();
  return /<p id="status">(.*?)<\/p>/.exec(html)?.[1];
}

/** Signs in at the credentials callback, as the example's form does. */
async function signInOverHttp(
  client: HttpClient,
  password = "lovelace",
  at = origin,
): Promise<Response> {
  const csrfToken = await client.csrfToken(AUTH);
  return client.postForm(
    `${AUTH}/callback/credentials`,
    { csrfToken, username: "ada", password, callbackUrl: "/protected" },
    { origin: at },
  );
}

describe("a Fastify app with @tessera/fastify, over HTTP", () => {
  it("redirects the protected page to sign-in and answers the protected API 401 while signed out", async () => {
    const client = new HttpClient(origin);
    expect(await homeStatus(client)).toBe("Not signed in");
    const page = await client.get("/protected");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`${AUTH}/signin?callbackUrl=%2Fprotected`);
    const api = await client.get("/api/protected");
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({ message: "Sign in to see this." });
  });

  it("signs in with credentials under the prefix; the server reads the session the callback shaped", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/protected`);
    const cookie = client.lastSetCookies.find((c) => c.name === "authjs.session-token");
    expect(cookie?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });

    const home = await (await client.get("/")).text();
    expect(home).toContain('<p id="status">Signed in as Ada Lovelace (ada@example.com)</p>');
    expect(home).toContain('<p id="greeting">Hello, Ada Lovelace</p>');
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Secret for ada@example.com");
    expect(await (await client.get("/api/protected")).json()).toMatchObject({
      session: { user: { email: "ada@example.com" }, greeting: "Hello, Ada Lovelace" },
    });
    expect(await (await client.get(`${AUTH}/session`)).json()).toMatchObject({
      user: { name: "Ada Lovelace" },
    });
  });

  it("answers a wrong password with CredentialsSignin and sets no session", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client, "wrong");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      `${origin}${AUTH}/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("refuses a sign-in POST without the CSRF token (login CSRF)", async () => {
    const client = new HttpClient(origin);
    await client.csrfToken(AUTH);
    const response = await client.postForm(
      `${AUTH}/callback/credentials`,
      { username: "ada", password: "lovelace" },
      { origin },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}${AUTH}/signin?error=MissingCSRF`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("refuses a sign-out POST without the CSRF token and keeps the session", async () => {
    const client = new HttpClient(origin);
    await signInOverHttp(client);
    const response = await client.postForm(`${AUTH}/signout`, { callbackUrl: "/" }, { origin });
    expect(response.headers.get("location")).toBe(`${origin}${AUTH}/signin?error=MissingCSRF`);
    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
  });

  it("accepts a session cookie written by @auth/core, and @auth/core reads the one it writes", async () => {
    const token = await authjsEncode({
      salt: "authjs.session-token",
      secret: SECRET,
      token: { sub: "1", name: "Ada Lovelace", email: "ada@example.com" },
    });
    const client = new HttpClient(origin);
    client.jar.set("authjs.session-token", token);
    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
    expect((await client.get("/protected")).status).toBe(200);

    const fresh = new HttpClient(origin);
    await signInOverHttp(fresh);
    const decoded = await authjsDecode({
      salt: "authjs.session-token",
      secret: SECRET,
      token: fresh.jar.get("authjs.session-token"),
    });
    expect(decoded).toMatchObject({ sub: "1", name: "Ada Lovelace", email: "ada@example.com" });
  });

  it("shares session cookies with @tessera/express both ways", async () => {
    const atExpress = new HttpClient(expressOrigin);
    await signInOverHttp(atExpress, "lovelace", expressOrigin);
    const expressCookie = atExpress.jar.get("authjs.session-token");
    expect(expressCookie).toBeTruthy();
    const here = new HttpClient(origin);
    here.jar.set("authjs.session-token", expressCookie ?? "");
    expect(await homeStatus(here)).toBe("Signed in as Ada Lovelace (ada@example.com)");

    const fromFastify = new HttpClient(origin);
    await signInOverHttp(fromFastify);
    const there = new HttpClient(expressOrigin);
    there.jar.set("authjs.session-token", fromFastify.jar.get("authjs.session-token") ?? "");
    expect(await homeStatus(there)).toBe("Signed in as Ada Lovelace (ada@example.com)");
  });

  it("signs out: the cookie is cleared and the protected page redirects again", async () => {
    const client = new HttpClient(origin);
    await signInOverHttp(client);
    const response = await client.postForm(
      `${AUTH}/signout`,
      { csrfToken: await client.csrfToken(AUTH), callbackUrl: "/" },
      { origin },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect(await homeStatus(client)).toBe("Not signed in");
    expect((await client.get("/protected")).status).toBe(302);
  });

  it("leaves the app's own JSON body parser working beside the plugin's", async () => {
    const client = new HttpClient(origin);
    const response = await client.fetch("/api/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ a: [1, 2] }),
    });
    expect(await response.json()).toEqual({ echo: { a: [1, 2] } });
  });

  it("answers hostile input without a 5xx or a stack trace", async () => {
    const cases: [string, RequestInit, Record<string, string>][] = [
      ["/", {}, { "authjs.session-token": "%E0%A4%A" }],
      ["/api/protected", {}, { "authjs.session-token": "a.b.c.d.e" }],
      [`${AUTH}/session`, {}, { "authjs.session-token": "x".repeat(5000) }],
      [`${AUTH}/unknown-action`, {}, {}],
      [`${AUTH}/signin/..%2F..%2Fetc`, {}, {}],
      [
        `${AUTH}/callback/credentials`,
        { method: "POST", headers: { "content-type": "application/json" }, body: "{" },
        {},
      ],
      [
        `${AUTH}/callback/credentials`,
        { method: "POST", headers: { "content-type": "text/plain" }, body: "x".repeat(2_000_000) },
        {},
      ],
      [`${AUTH}/signin?callbackUrl=https%3A%2F%2Fevil.example%2F`, {}, {}],
    ];
    for (const [path, init, cookies] of cases) {
      const client = new HttpClient(origin);
      for (const [name, value] of Object.entries(cookies)) client.jar.set(name, value);
      const response = await client.fetch(path, init);
      const body = await response.text();
      expect(response.status, path).toBeLessThan(500);
      expect(body).not.toMatch(/\bat .*\.(js|ts):\d+/);
      expect(body).not.toContain("evil.example");
    }
  });
});

describe("the Fastify example in Chromium", () => {
  it("signs in with the page's credentials form, reaches the protected page and signs out", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.textContent("#status")).toBe("Not signed in");
      await page.fill('#credentials input[name="username"]', "ada");
      await page.fill('#credentials input[name="password"]', "lovelace");
      await page.click("#credentials button");
      await page.waitForURL(`${origin}/protected`);
      expect(await page.textContent("#secret")).toBe("Secret for ada@example.com");

      await page.goto(`${origin}/`);
      expect(await page.textContent("#status")).toBe("Signed in as Ada Lovelace (ada@example.com)");
      await page.waitForSelector('body[data-ready="true"]');
      await page.click("#signout button");
      await page.waitForURL(`${origin}/`);
      expect(await page.textContent("#status")).toBe("Not signed in");
      const cookies = await browser.context.cookies(origin);
      expect(cookies.some((cookie) => cookie.name === "authjs.session-token")).toBe(false);
    } finally {
      await browser.close();
    }
  });

  it("signs in with the OpenID Provider and comes back signed in", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.click("#op button");
      // The provider signs Ada in and sends her back to the callbackUrl of the form.
      await page.waitForURL(`${origin}/`);
      expect(await page.textContent("#status")).toBe("Signed in as Ada (OP) (ada@op.example)");
    } finally {
      await browser.close();
    }
  });

  it("sends a signed-out visitor of the protected page to sign-in and back after signing in", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/protected`);
      await page.waitForURL(/\/auth\/signin\?callbackUrl=/);
      await page.fill('input[name="username"]', "ada");
      await page.fill('input[name="password"]', "lovelace");
      await page.click('form[action$="/callback/credentials"] button');
      await page.waitForURL(`${origin}/protected`);
      expect(await page.textContent("#secret")).toBe("Secret for ada@example.com");
    } finally {
      await browser.close();
    }
  });
});
