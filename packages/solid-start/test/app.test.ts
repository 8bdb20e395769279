/**
 * The example app (examples/solid-start) built once with SolidStart 1.x's own tooling
 * (`vinxi build`, node-server preset), served by its `.output/server/index.mjs` on 127.0.0.1 and
 * driven over HTTP and in Chromium against the real OpenID Provider fixture: the catch-all route
 * at the default /api/auth (no basePath set), getSession in "use server" queries, the
 * protected-route pattern (query + redirect + createAsync with deferStream), and the
 * `@tessera/solid-start/client` signIn/signOut. Nothing is mocked.
 */
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { encode as authjsEncode } from "@auth/core/jwt";
import { build } from "esbuild";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser } from "../../../e2e/browser.js";
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

const EXAMPLE = join(ROOT, "examples/solid-start");
const VINXI_BIN = join(ROOT, "node_modules/vinxi/bin/cli.mjs");
const TSC_BIN = join(ROOT, "node_modules/typescript/bin/tsc");
const SECRET = "solid-start-example-secret-of-32+-chars";
const USER = { name: "Ada Lovelace", email: "ada@example.com" };
const PASSWORD = "correct horse battery staple";
const OP_USER = { sub: "ada-op", email: "ada@op.example", email_verified: true, name: "Ada (OP)" };
const OP_CLIENT = { id: "solid-start-app", secret: "solid-start-app-secret" };
const AUTH = "/api/auth";

let appDir = "";
let origin = "";
let op: RunningOidcProvider | undefined;
let server: RunningServer | undefined;

beforeAll(async () => {
  await buildPackages(
    ["packages/core", "packages/solid-start"],
    ["packages/core/dist/client.js", "packages/solid-start/dist/client.js"],
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

  // A private copy inside the example, so that it resolves the example's own node_modules
  // (@solidjs/router 0.15) and vinxi's .vinxi/.output stay out of the source tree.
  const artifacts = join(EXAMPLE, "test-artifacts");
  await mkdir(artifacts, { recursive: true });
  appDir = await mkdtemp(join(artifacts, "app-"));
  for (const entry of ["app.config.ts", "package.json", "tsconfig.json", "src"])
    await cp(join(EXAMPLE, entry), join(appDir, entry), { recursive: true });
  const build = await exec(process.execPath, [VINXI_BIN, "build"], appDir, appEnv());
  if (build.code !== 0) throw new Error(`vinxi build failed:\n${build.output.slice(-4000)}`);

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

describe("the built SolidStart app over HTTP", () => {
  it("type-checks (vinxi only strips types) against the published declarations", async () => {
    const { code, output } = await exec(process.execPath, [TSC_BIN, "-p", appDir], ROOT);
    expect(output).toBe("");
    expect(code).toBe(0);
  }, 120_000);

  it("serves every action at the default /api/auth without basePath in the config", async () => {
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

  it("redirects a signed-out visitor from the protected route with a real 302", async () => {
    const client = new HttpClient(origin);
    expect(await homeStatus(client)).toBe("Not signed in");
    const response = await client.get("/protected");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/signin?callbackUrl=%2Fprotected");
  });

  it("signs in with credentials; getSession on the server and the protected route see it", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client, await client.csrfToken(AUTH));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/protected`);
    const cookie = client.lastSetCookies.find((c) => c.name === "authjs.session-token");
    expect(cookie?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });

    expect(await homeStatus(client)).toBe(`Signed in as ${USER.name} (${USER.email})`);
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/data-testid="protected-user"[^>]*>Ada Lovelace</);
    expect(await (await client.get(`${AUTH}/session`)).json()).toMatchObject({ user: USER });
  });

  it("signs out: the cookie is cleared and the protected route redirects again", async () => {
    const client = new HttpClient(origin);
    await signInOverHttp(client, await client.csrfToken(AUTH));
    const response = await client.postForm(`${AUTH}/signout`, {
      csrfToken: await client.csrfToken(AUTH),
      callbackUrl: "/",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
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
    expect(client.jar.has("authjs.session-token")).toBe(false);
    // A forged token with a cookie of the attacker's own is refused the same way.
    await client.csrfToken(AUTH);
    const forged = await signInOverHttp(client, "0".repeat(64));
    expect(forged.headers.get("location")).toBe(`${origin}${AUTH}/signin?error=MissingCSRF`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("refuses a wrong password with CredentialsSignin and no session", async () => {
    const client = new HttpClient(origin);
    const response = await signInOverHttp(client, await client.csrfToken(AUTH), "wrong");
    expect(response.headers.get("location")).toBe(
      `${origin}${AUTH}/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("accepts a session cookie written by @auth/core: same cookie, same user", async () => {
    const client = new HttpClient(origin);
    const token = await authjsEncode({
      token: { name: "Grace Hopper", email: "grace@example.com", sub: "grace" },
      secret: SECRET,
      salt: "authjs.session-token",
    });
    client.jar.set("authjs.session-token", token);
    expect(await (await client.get(`${AUTH}/session`)).json()).toMatchObject({
      user: { name: "Grace Hopper", email: "grace@example.com" },
    });
    expect(await homeStatus(client)).toBe("Signed in as Grace Hopper (grace@example.com)");
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/data-testid="protected-user"[^>]*>Grace Hopper</);
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

  it("reads a tampered or garbage session cookie as signed out, without a 5xx", async () => {
    for (const value of ["garbage", "a.b.c.d.e", "%E0%A4%A", "x".repeat(5000)]) {
      const client = new HttpClient(origin);
      client.jar.set("authjs.session-token", value);
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
      csrfToken: await client.csrfToken(AUTH),
      email: USER.email,
      password: PASSWORD,
      callbackUrl: "https://evil.example/phish",
    });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location") ?? "").origin).toBe(origin);
  });
});

describe("the built SolidStart app in Chromium", () => {
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

  async function openSignIn(path = "/signin") {
    const page = await browser.newPage();
    await page.goto(`${origin}${path}`);
    await page.waitForSelector("main[data-ready]");
    return page;
  }

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
    expect((await browser.context.cookies()).map((c) => c.name)).not.toContain(
      "authjs.session-token",
    );

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
    expect((await browser.context.cookies()).map((c) => c.name)).not.toContain(
      "authjs.session-token",
    );
    await page.goto(`${origin}/protected`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await page.close();
  });

  it("signs in through the OpenID Provider with signIn('op') and back to the app", async () => {
    const page = await openSignIn();
    await page.getByRole("button", { name: "Sign in with the OpenID Provider" }).click();
    await page.waitForURL(`${origin}/`);
    await expect
      .poll(() => page.getByTestId("status").textContent())
      .toBe(`Signed in as ${OP_USER.name} (${OP_USER.email})`);
    await page.close();
  });
});

/** `specifier` as one ES module for the browser, resolved as the package's own code would. */
async function bundleForBrowser(specifier: string): Promise<string> {
  const bundled = await build({
    stdin: {
      contents: `export * from "${specifier}";`,
      resolveDir: join(ROOT, "packages/solid-start"),
    },
    bundle: true,
    format: "esm",
    write: false,
    conditions: ["tessera-source"],
    logLevel: "silent",
  });
  return bundled.outputFiles[0]?.text ?? "";
}

/** The two client modules as a page sees them (set by `pageWithClients`). */
interface ClientsWindow {
  clients: {
    original: typeof import("@auth/solid-start/client");
    tessera: typeof import("../src/client.js");
  };
}

describe("@tessera/solid-start/client next to @auth/solid-start/client in Chromium", () => {
  let browser: LaunchedBrowser;
  /** The original client module (no imports) and Tessera's, bundled for the browser. */
  let originalClient = "";
  let tesseraClient = "";
  beforeAll(async () => {
    [originalClient = "", tesseraClient = ""] = await Promise.all(
      ["@auth/solid-start/client", "@tessera/solid-start/client"].map(bundleForBrowser),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A page of the app that can import both clients (as `/__clients/{original,tessera}.js`). */
  async function pageWithClients() {
    await browser.context.clearCookies();
    const page = await browser.newPage();
    await page.route(`${origin}/__clients/*.js`, (route) =>
      route.fulfill({
        contentType: "text/javascript",
        body: route.request().url().endsWith("/original.js") ? originalClient : tesseraClient,
      }),
    );
    await page.goto(`${origin}/signin`);
    await page.waitForSelector("main[data-ready]");
    await page.addScriptTag({
      type: "module",
      content:
        'import * as original from "/__clients/original.js";' +
        'import * as tessera from "/__clients/tessera.js";' +
        "Object.assign(window, { clients: { original, tessera } });",
    });
    await page.waitForFunction(() => "clients" in window);
    return page;
  }

  it("runs the original client against Tessera's /api/auth, and honours signOut's redirect: false", async () => {
    const page = await pageWithClients();
    // The original client signs in against Tessera unchanged: same endpoints, same answers.
    const signedIn = await page.evaluate(
      async (user) => {
        const { signIn } = (window as unknown as ClientsWindow).clients.original;
        return signIn("credentials", { ...user, redirect: false });
      },
      { email: USER.email, password: PASSWORD },
    );
    expect(signedIn).toMatchObject({ ok: true, error: undefined });
    expect((await browser.context.cookies()).map((c) => c.name)).toContain("authjs.session-token");

    // Tessera's signOut({ redirect: false }) stays on the page and answers where it would go.
    const result = await page.evaluate(async () => {
      const { signOut } = (window as unknown as ClientsWindow).clients.tessera;
      return signOut({ redirect: false, redirectTo: "/bye" });
    });
    expect(result).toEqual({ url: `${origin}/bye` });
    expect(new URL(page.url()).pathname).toBe("/signin");
    expect((await browser.context.cookies()).map((c) => c.name)).not.toContain(
      "authjs.session-token",
    );

    // The original's navigates whatever `redirect` says.
    await page.evaluate(
      async (user) => {
        const { signIn } = (window as unknown as ClientsWindow).clients.original;
        await signIn("credentials", { ...user, redirect: false });
      },
      { email: USER.email, password: PASSWORD },
    );
    const navigated = page.waitForURL(`${origin}/bye`);
    void page
      .evaluate(async () => {
        const { signOut } = (window as unknown as ClientsWindow).clients.original;
        // @ts-expect-error: the original's types do not even admit `redirect: false` here
        await signOut({ redirect: false, callbackUrl: "/bye" });
      })
      .catch(() => {});
    await navigated;
    await page.close();
  });

  it("continues an OIDC sign-in at the provider even with redirect: false (the original stays put)", async () => {
    const page = await pageWithClients();
    const original = await page.evaluate(async () => {
      const { signIn } = (window as unknown as ClientsWindow).clients.original;
      return signIn("op", { redirect: false, redirectTo: "/" });
    });
    // The original resolves with the provider's URL and leaves the user on the page, signed out.
    expect(new URL(original.url ?? "").origin).toBe(op?.issuer);
    expect(new URL(page.url()).pathname).toBe("/signin");

    const navigated = page.waitForURL(`${origin}/`);
    void page
      .evaluate(async () => {
        const { signIn } = (window as unknown as ClientsWindow).clients.tessera;
        await signIn("op", { redirect: false, redirectTo: "/" });
      })
      .catch(() => {});
    await navigated;
    await expect
      .poll(() => page.getByTestId("status").textContent())
      .toBe(`Signed in as ${OP_USER.name} (${OP_USER.email})`);
    await page.close();
  });
});
