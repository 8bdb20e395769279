/**
 * The example app (examples/hono) built once with Vite (the React page, then the Hono server for
 * Node), served by @hono/node-server on 127.0.0.1, and driven over HTTP and in Chromium against
 * the real OpenID Provider fixture. The app sets no `basePath`, and `AUTH_URL` names no path:
 * the routes live at `/api/auth`, as `@hono/auth-js`'s README promises. Nothing is mocked.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { encode as authjsEncode } from "@auth/core/jwt";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchBrowser } from "../../../e2e/browser.js";
import { buildPackages, exec, ROOT } from "../../core/test/fixtures/build.js";
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

const EXAMPLE = join(ROOT, "examples/hono");
const VITE_BIN = join(
  dirname(createRequire(import.meta.url).resolve("vite/package.json")),
  "bin/vite.js",
);
const SECRET = "hono-example-secret-of-at-least-32-chars";
const AUTH = "/api/auth";
const OP_USER = { sub: "ada-op", email: "ada@op.example", email_verified: true, name: "Ada (OP)" };
const OP_CLIENT = { id: "hono-app", secret: "hono-app-secret" };

let workDir = "";
let origin = "";
let server: RunningServer | undefined;
let op: RunningOidcProvider;

/** Runs Vite in the example; throws with its output when it fails. */
async function vite(args: string[]): Promise<void> {
  const { code, output } = await exec(process.execPath, [VITE_BIN, ...args], EXAMPLE, appEnv());
  if (code !== 0) throw new Error(`vite ${args.join(" ")} failed (${code}):\n${output}`);
}

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
  await buildPackages(
    ["packages/core", "packages/next", "packages/hono"],
    ["packages/hono/dist/index.js", "packages/hono/dist/react.js"],
  );
  // A private output directory: parallel runs must not share one.
  const artifacts = join(ROOT, "packages/hono/test-artifacts");
  await mkdir(artifacts, { recursive: true });
  workDir = await mkdtemp(join(artifacts, "app-"));
  await vite(["build", "--outDir", join(workDir, "client")]);
  await vite(["build", "--ssr", "src/server.ts", "--outDir", join(workDir, "server")]);
  server = await startServer(
    process.execPath,
    [join(workDir, "server/server.js")],
    EXAMPLE,
    appEnv({
      HOST: "127.0.0.1",
      PORT: String(port),
      NODE_ENV: "production",
      AUTH_SECRET: SECRET,
      // The public origin, without a path: the base path stays Hono's /api/auth.
      AUTH_URL: origin,
      AUTH_FIXTURE_OP_ISSUER: op.issuer,
      AUTH_FIXTURE_OP_ID: OP_CLIENT.id,
      AUTH_FIXTURE_OP_SECRET: OP_CLIENT.secret,
    }),
    "Listening on",
  );
}, 240_000);

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.log(`server log:\n${server?.output().slice(-4000)}`));
});

afterAll(async () => {
  await stopServer(server?.child);
  await op?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function homeStatus(client: HttpClient): Promise<string | undefined> {
  const html = await (await client.get("/")).text();
  return /<p id="status">(.*?)<\/p>/.exec(html)?.[1];
}

/** Signs in at the credentials callback, as the built-in sign-in page's form does. */
async function signInOverHttp(client: HttpClient, password = "lovelace"): Promise<Response> {
  const csrfToken = await client.csrfToken(AUTH);
  return client.postForm(
    `${AUTH}/callback/credentials`,
    { csrfToken, username: "ada", password, callbackUrl: "/protected" },
    { origin },
  );
}

describe("a Hono app with @tessera/hono, over HTTP", () => {
  it("redirects the protected page to sign-in and refuses the protected API while signed out", async () => {
    const client = new HttpClient(origin);
    expect(await homeStatus(client)).toBe("Not signed in");
    const page = await client.get("/protected");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`${AUTH}/signin?callbackUrl=%2Fprotected`);
    const api = await client.get("/api/protected");
    expect(api.status).toBe(401);
    expect(await api.text()).toBe("Unauthorized");
  });

  it("signs in with credentials at /api/auth; the server reads the session the callback shaped", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/protected`);
    const cookie = client.lastSetCookies.find((c) => c.name === "authjs.session-token");
    expect(cookie?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });

    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
    expect(await (await client.get("/")).text()).toContain(
      '<p id="greeting">Hello, Ada Lovelace</p>',
    );
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Secret for ada@example.com");
    expect(await (await client.get("/api/protected")).json()).toMatchObject({
      session: { user: { email: "ada@example.com" }, greeting: "Hello, Ada Lovelace" },
      subject: "1",
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

  it("accepts a session cookie written by @auth/core", async () => {
    const token = await authjsEncode({
      salt: "authjs.session-token",
      secret: SECRET,
      token: { sub: "1", name: "Ada Lovelace", email: "ada@example.com" },
    });
    const client = new HttpClient(origin);
    client.jar.set("authjs.session-token", token);
    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
    expect((await client.get("/protected")).status).toBe(200);
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
      ["/assets/..%2F..%2Fpackage.json", {}, {}],
    ];
    for (const [path, init, cookies] of cases) {
      const client = new HttpClient(origin);
      for (const [name, value] of Object.entries(cookies)) client.jar.set(name, value);
      const response = await client.fetch(path, init);
      const body = await response.text();
      expect(response.status, path).toBeLessThan(500);
      expect(body).not.toMatch(/\bat .*\.(js|ts):\d+/);
    }
  });
});

describe("@tessera/hono/react in Chromium", () => {
  it("signs in with signIn('credentials'), shows CredentialsSignin for a wrong password, and signs out", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/client`);
      await page.waitForSelector("#status >> text=Not signed in");
      await page.fill('input[name="username"]', "ada");
      await page.fill('input[name="password"]', "wrong");
      await page.click("#signin");
      await page.waitForSelector("#error");
      expect(await page.textContent("#error")).toBe("Sign-in failed: CredentialsSignin");

      await page.fill('input[name="password"]', "lovelace");
      await page.click("#signin");
      // redirect: false — the SessionProvider reads the new session without leaving the page.
      await page.waitForSelector("#status >> text=Signed in as Ada Lovelace (ada@example.com)");
      expect(page.url()).toBe(`${origin}/client`);

      await page.goto(`${origin}/protected`);
      expect(await page.textContent("#secret")).toBe("Secret for ada@example.com");

      await page.goto(`${origin}/client`);
      await page.click("#signout");
      await page.waitForURL(`${origin}/`);
      expect(await page.textContent("#status")).toBe("Not signed in");
      const cookies = await browser.context.cookies(origin);
      expect(cookies.some((cookie) => cookie.name === "authjs.session-token")).toBe(false);
    } finally {
      await browser.close();
    }
  });

  it("signs in with the OpenID Provider through signIn('fixture-op') and comes back signed in", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/client`);
      await page.click("#op");
      // The provider signs Ada in and sends her back to the page signIn was called from.
      await page.waitForURL(`${origin}/client`);
      await page.waitForSelector("#status >> text=Signed in as Ada (OP) (ada@op.example)");
      await page.goto(`${origin}/`);
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
      await page.waitForURL(/\/api\/auth\/signin\?callbackUrl=/);
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
