/**
 * The example app (examples/astro) built with `astro build` (server output, @astrojs/node) and
 * served on 127.0.0.1, driven over HTTP and in Chromium against the real OpenID Provider fixture.
 * A second build of the same app, with only its imports changed to `auth-astro` and
 * `@auth/core`, runs beside it: where Tessera claims to differ from auth-astro, the test shows
 * both answers. Nothing is mocked.
 */
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { encode } from "@auth/core/jwt";
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

const EXAMPLE = join(ROOT, "examples/astro");
const ASTRO_BIN = join(ROOT, "node_modules/astro/astro.js");
const SECRET = randomBytes(32).toString("base64url");
const OP_USER = { sub: "ada-op", email: "ada@op.example", email_verified: true, name: "Ada (OP)" };
const OP_CLIENT = { id: "astro-app", secret: "astro-app-secret" };
const AUTH = "/api/auth";

/**
 * The import diff that moves the app from auth-astro to Tessera, applied backwards: the original
 * build is the example with these specifiers replaced, and nothing else.
 */
const TO_ORIGINAL: [RegExp, string][] = [
  [/(["'])@tessera\/astro(?=["'/])/g, "$1auth-astro"],
  [/(["'])@tessera\/core\/providers\//g, "$1@auth/core/providers/"],
];

/** One built and running copy of the example. */
interface App {
  dir: string;
  origin: string;
  server?: RunningServer;
}

const tessera: App = { dir: "", origin: "" };
const original: App = { dir: "", origin: "" };
let op: RunningOidcProvider;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(astro|ts|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Copies the example into `parent` (optionally with the original's imports) and builds it. */
async function buildCopy(parent: string, toOriginal: boolean): Promise<string> {
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(join(parent, toOriginal ? "astro-original-" : "astro-"));
  await cp(EXAMPLE, dir, {
    recursive: true,
    filter: (source) => !/[\\/](dist|node_modules|\.astro)$/.test(source),
  });
  if (toOriginal)
    for (const file of await sourceFiles(dir)) {
      let text = await readFile(file, "utf8");
      for (const [pattern, replacement] of TO_ORIGINAL) text = text.replace(pattern, replacement);
      await writeFile(file, text);
    }
  // auth-astro reads AUTH_SECRET through import.meta.env, which the build may inline; Tessera
  // reads the environment when the server runs, so its build gets no secret.
  const env = appEnv({
    PUBLIC_HOSTNAME: "127.0.0.1",
    ...(toOriginal && { AUTH_SECRET: SECRET }),
  });
  const { code, output } = await exec(process.execPath, [ASTRO_BIN, "build"], dir, env);
  if (code !== 0) throw new Error(`astro build failed (${code}):\n${output.slice(-4000)}`);
  return dir;
}

/** The OpenID Provider's variables, named after the provider id `fixture-op`. */
function opEnv(): Record<string, string> {
  return {
    AUTH_FIXTURE_OP_ISSUER: op.issuer,
    AUTH_FIXTURE_OP_ID: OP_CLIENT.id,
    AUTH_FIXTURE_OP_SECRET: OP_CLIENT.secret,
  };
}

async function serve(app: App): Promise<void> {
  const port = new URL(app.origin).port;
  app.server = await startServer(
    process.execPath,
    ["dist/server/entry.mjs"],
    app.dir,
    appEnv({
      HOST: "127.0.0.1",
      PORT: port,
      AUTH_SECRET: SECRET,
      ...opEnv(),
    }),
    "Server listening on",
  );
}

beforeAll(async () => {
  tessera.origin = `http://127.0.0.1:${await freePort()}`;
  original.origin = `http://127.0.0.1:${await freePort()}`;
  op = await startOidcProvider({
    clients: [
      {
        client_id: OP_CLIENT.id,
        client_secret: OP_CLIENT.secret,
        redirect_uris: [tessera.origin, original.origin].map(
          (origin) => `${origin}${AUTH}/callback/fixture-op`,
        ),
      },
    ],
    accounts: [OP_USER],
  });
  await buildPackages(
    ["packages/core", "packages/astro"],
    ["packages/core/dist/index.js", "packages/astro/dist/index.js"],
  );
  // Tessera's copy resolves its dependencies from the root node_modules, as an installed app
  // does; auth-astro and the @auth/core it declares live in packages/astro/node_modules.
  [tessera.dir, original.dir] = await Promise.all([
    buildCopy(join(ROOT, "test-artifacts"), false),
    buildCopy(join(ROOT, "packages/astro/test-artifacts"), true),
  ]);
  await Promise.all([serve(tessera), serve(original)]);
}, 300_000);

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    console.log(`Tessera app log:\n${tessera.server?.output().slice(-3000)}`);
    console.log(`auth-astro app log:\n${original.server?.output().slice(-3000)}`);
  });
});

afterAll(async () => {
  await Promise.all([stopServer(tessera.server?.child), stopServer(original.server?.child)]);
  await op?.close();
  for (const { dir } of [tessera, original])
    if (dir) await rm(dir, { recursive: true, force: true });
});

/** Astro's `checkOrigin` refuses form posts from other sites: a browser sends its Origin. */
function sameOrigin(app: App = tessera): Record<string, string> {
  return { origin: app.origin };
}

async function signInWithCredentials(client: HttpClient, password = "lovelace") {
  const csrfToken = await client.csrfToken(AUTH);
  return client.postForm(
    `${AUTH}/callback/credentials`,
    { csrfToken, username: "ada", password, callbackUrl: "/protected" },
    sameOrigin(),
  );
}

async function statusLine(client: HttpClient, path = "/"): Promise<string | undefined> {
  const html = await (await client.get(path)).text();
  // Under astro dev, elements carry data-astro-source-* attributes too.
  return /<p id="status"[^>]*>\s*(.*?)\s*<\/p>/s.exec(html)?.[1];
}

/** A request with a Host header of the test's choosing (fetch sends the URL's). */
function getWithHost(origin: string, path: string, host: string) {
  const { hostname, port } = new URL(origin);
  return new Promise<{ status: number; location?: string; body: string }>((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, headers: { host } }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the Astro example app with @tessera/astro, over HTTP", () => {
  it("redirects the protected page to sign-in when signed out (Astro.redirect guard) and renders it when signed in", async () => {
    const client = new HttpClient(tessera.origin);
    const refused = await client.get("/protected");
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/signin?callbackUrl=%2Fprotected");

    const signedIn = await signInWithCredentials(client);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`${tessera.origin}/protected`);
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<p id="secret">Secret for ada@example.com</p>');
  });

  it("guards a section with getSession in Astro middleware", async () => {
    const client = new HttpClient(tessera.origin);
    const refused = await client.get("/account");
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/signin?callbackUrl=%2Faccount");
    await signInWithCredentials(client);
    const page = await client.get("/account");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<p id="account">Your account</p>');
  });

  it("reads the session on the server: getSession in pages and in an endpoint", async () => {
    const client = new HttpClient(tessera.origin);
    expect(await statusLine(client)).toBe("Not signed in");
    expect((await client.get("/api/me")).status).toBe(401);
    await signInWithCredentials(client);
    const session = client.lastSetCookies.find((cookie) => cookie.name === "authjs.session-token");
    expect(session?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });
    expect(await statusLine(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
    expect(await (await client.get("/api/me")).json()).toMatchObject({
      user: { name: "Ada Lovelace", email: "ada@example.com" },
    });
  });

  it("renders the Auth component's slot as a function of the session", async () => {
    const client = new HttpClient(tessera.origin);
    const read = async () =>
      /<p id="auth-component">(.*?)<\/p>/.exec(
        await (await client.get("/auth-component")).text(),
      )?.[1];
    expect(await read()).toBe("Hello, stranger");
    await signInWithCredentials(client);
    expect(await read()).toBe("Hello, Ada Lovelace");
  });

  it("answers a wrong password with CredentialsSignin and sets no session", async () => {
    const client = new HttpClient(tessera.origin);
    const response = await signInWithCredentials(client, "wrong");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      `${tessera.origin}${AUTH}/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("refuses a sign-in POST without the CSRF token, or with a forged one (login CSRF)", async () => {
    for (const csrfToken of [undefined, "0".repeat(64)]) {
      const client = new HttpClient(tessera.origin);
      await client.csrfToken(AUTH);
      const response = await client.postForm(
        `${AUTH}/callback/credentials`,
        { username: "ada", password: "lovelace", ...(csrfToken && { csrfToken }) },
        sameOrigin(),
      );
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(
        `${tessera.origin}${AUTH}/signin?error=MissingCSRF`,
      );
      expect(client.jar.has("authjs.session-token")).toBe(false);
    }
  });

  it("signs out: the session cookie is cleared and the protected page redirects again", async () => {
    const client = new HttpClient(tessera.origin);
    await signInWithCredentials(client);
    const response = await client.postForm(
      `${AUTH}/signout`,
      { csrfToken: await client.csrfToken(AUTH), callbackUrl: "/" },
      sameOrigin(),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${tessera.origin}/`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect((await client.get("/protected")).status).toBe(302);
  });

  it("accepts a session cookie written by @auth/core: nobody is signed out by the move", async () => {
    const token = await encode({
      token: { name: "Grace Hopper", email: "grace@example.com", sub: "42" },
      secret: SECRET,
      salt: "authjs.session-token",
    });
    const client = new HttpClient(tessera.origin);
    client.jar.set("authjs.session-token", token);
    expect(await (await client.get("/api/me")).json()).toMatchObject({
      user: { name: "Grace Hopper", email: "grace@example.com" },
    });
    expect((await client.get("/protected")).status).toBe(200);
  });

  it("accepts the session cookie the same app wrote with auth-astro", async () => {
    const before = new HttpClient(original.origin);
    const csrfToken = await before.csrfToken(AUTH);
    await before.postForm(
      `${AUTH}/callback/credentials`,
      { csrfToken, username: "ada", password: "lovelace", callbackUrl: "/" },
      sameOrigin(original),
    );
    const cookie = before.jar.get("authjs.session-token");
    expect(cookie).toBeDefined();
    const after = new HttpClient(tessera.origin);
    after.jar.set("authjs.session-token", cookie ?? "");
    expect(await statusLine(after)).toBe("Signed in as Ada Lovelace (ada@example.com)");
  });

  it("renders SignIn and SignOut without inline scripts, where auth-astro inlines one per button", async () => {
    const inlineScripts = async (app: App) => {
      const html = await (await new HttpClient(app.origin).get("/signin")).text();
      return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
        (match) => match[1],
      );
    };
    // A Content-Security-Policy without 'unsafe-inline' lets Tessera's buttons work.
    expect(await inlineScripts(tessera)).toEqual([]);
    expect((await inlineScripts(original)).join("\n")).toContain(
      "signIn(provider, options, authParams)",
    );
  });

  it("answers 400 to an unknown action, where auth-astro answers 500", async () => {
    const ours = await new HttpClient(tessera.origin).get(`${AUTH}/no-such-action`);
    expect(ours.status).toBe(400);
    const theirs = await new HttpClient(original.origin).get(`${AUTH}/no-such-action`);
    expect(theirs.status).toBe(500);
  });

  it("refuses a Host header that security.allowedDomains does not list (Host header injection), where auth-astro redirects to http://localhost/", async () => {
    const ours = await getWithHost(tessera.origin, `${AUTH}/signin/fixture-op`, "evil.example");
    expect(ours.status).toBe(400);
    expect(ours.body).toContain('the host "evil.example" is not allowed');
    const theirs = await getWithHost(original.origin, `${AUTH}/signin`, "evil.example");
    expect(theirs.status).toBe(200);
    // auth-astro's sign-in page posts to the host Astro substituted.
    expect(theirs.body).toContain("http://localhost/api/auth/signin/fixture-op");
  });

  it("answers malformed cookies, bodies and hostile callbackUrls without a 5xx or a stack trace", async () => {
    const cases: [string, RequestInit][] = [
      [`${AUTH}/session`, { headers: { cookie: "authjs.session-token=%%%; authjs.csrf-token=|" } }],
      [`${AUTH}/session`, { headers: { cookie: `authjs.session-token=${"a".repeat(5000)}` } }],
      ["/api/me", { headers: { cookie: "authjs.session-token=not.a.jwe.at.all" } }],
      ["/protected", { headers: { cookie: "authjs.session-token.0=x; authjs.session-token.1=y" } }],
      [`${AUTH}/signin/%E0%A4%A`, {}],
      [
        `${AUTH}/callback/credentials`,
        {
          method: "POST",
          headers: { ...sameOrigin(), "content-type": "application/json" },
          body: "{not json",
        },
      ],
      [`${AUTH}/callback/fixture-op?code=x&state=forged`, {}],
      [`${AUTH}/signin?callbackUrl=${encodeURIComponent("https://evil.example/")}`, {}],
    ];
    for (const [path, init] of cases) {
      const response = await new HttpClient(tessera.origin).fetch(path, init);
      const body = await response.text();
      expect(response.status, path).toBeLessThan(500);
      expect(body, path).not.toMatch(/\bat .*\.(m?js|ts):\d+/);
      const location = response.headers.get("location");
      if (location) expect(new URL(location, tessera.origin).origin, path).toBe(tessera.origin);
    }
  });
});

describe("the Astro example app in Chromium", () => {
  it("signs in with signIn('credentials', { redirect: false }) from @tessera/astro/client: CredentialsSignin, then the protected page", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${tessera.origin}/protected`);
      expect(page.url()).toBe(`${tessera.origin}/signin?callbackUrl=%2Fprotected`);
      await page.fill('input[name="username"]', "ada");
      await page.fill('input[name="password"]', "wrong");
      await page.click("#signin");
      await page.waitForSelector("text=Sign-in failed: CredentialsSignin");

      await page.fill('input[name="password"]', "lovelace");
      await page.click("#signin");
      await page.waitForURL(`${tessera.origin}/protected`);
      expect(await page.textContent("#secret")).toBe("Secret for ada@example.com");
    } finally {
      await browser.close();
    }
  });

  it("signs in with the SignIn component through the OpenID Provider and out with SignOut", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${tessera.origin}/`);
      await page.click("#op-signin");
      // The provider signs Ada in and sends her back to the callbackUrl.
      await page.waitForSelector("#signout");
      expect(page.url()).toBe(`${tessera.origin}/`);
      expect((await page.textContent("#status"))?.trim()).toBe(
        "Signed in as Ada (OP) (ada@op.example)",
      );

      await page.click("#signout");
      await page.waitForSelector("#op-signin");
      expect((await page.textContent("#status"))?.trim()).toBe("Not signed in");
      const cookies = await browser.context.cookies(tessera.origin);
      expect(cookies.some((cookie) => cookie.name === "authjs.session-token")).toBe(false);
    } finally {
      await browser.close();
    }
  });

  it("auth-astro's signIn(…, { redirect: false }) resolves with the raw fetch Response on failure, which the same page takes for a success", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${original.origin}/signin`);
      await page.fill('input[name="username"]', "ada");
      await page.fill('input[name="password"]', "wrong");
      await page.click("#signin");
      // `ok` is the fetch's 200 and `url` the endpoint it posted to: the page follows it, and
      // auth-astro answers that GET with its error page instead of showing CredentialsSignin.
      await page.waitForURL((url) => url.pathname.startsWith(`${AUTH}/`));
      expect(page.url()).toBe(`${original.origin}${AUTH}/error?error=Configuration`);
    } finally {
      await browser.close();
    }
  });
});

describe("the same app under astro dev, configured by a .env file", () => {
  let dev: RunningServer | undefined;
  let devOrigin = "";

  beforeAll(async () => {
    // AUTH_* only in the .env file: Astro's dev server hands it to server code through
    // import.meta.env; process.env of the dev server has none of them.
    const dotenv = { AUTH_SECRET: SECRET, ...opEnv() };
    await writeFile(
      join(tessera.dir, ".env"),
      Object.entries(dotenv)
        .map(([name, value]) => `${name}=${value}`)
        .join("\n"),
    );
    const port = String(await freePort());
    devOrigin = `http://127.0.0.1:${port}`;
    dev = await startServer(
      process.execPath,
      [ASTRO_BIN, "dev", "--host", "127.0.0.1", "--port", port],
      tessera.dir,
      appEnv({}),
      /Local\s+http/,
    );
  }, 120_000);

  afterAll(() => stopServer(dev?.child));

  it("reads AUTH_SECRET from .env: credentials sign-in and getSession work", async () => {
    const client = new HttpClient(devOrigin);
    expect(await statusLine(client)).toBe("Not signed in");
    const csrfToken = await client.csrfToken(AUTH);
    const signedIn = await client.postForm(
      `${AUTH}/callback/credentials`,
      { csrfToken, username: "ada", password: "lovelace", callbackUrl: "/protected" },
      { origin: devOrigin },
    );
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`${devOrigin}/protected`);
    expect(await statusLine(client, "/protected")).toBe(
      "Signed in as Ada Lovelace (ada@example.com)",
    );
  });

  it("reads the provider's AUTH_FIXTURE_OP_ISSUER/_ID/_SECRET from .env", async () => {
    const client = new HttpClient(devOrigin);
    const csrfToken = await client.csrfToken(AUTH);
    const response = await client.postForm(
      `${AUTH}/signin/fixture-op`,
      { csrfToken, callbackUrl: "/" },
      { origin: devOrigin },
    );
    expect(response.status).toBe(302);
    const authorization = new URL(response.headers.get("location") ?? "");
    expect(authorization.origin).toBe(op.issuer);
    expect(authorization.searchParams.get("client_id")).toBe(OP_CLIENT.id);
    expect(authorization.searchParams.get("redirect_uri")).toBe(
      `${devOrigin}${AUTH}/callback/fixture-op`,
    );
  });
});
