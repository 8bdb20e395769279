/**
 * @tessera/sveltekit in a real SvelteKit 2 app (test/app, under the base path `/base`): built with
 * `vite build`, served by adapter-node on 127.0.0.1 and driven over HTTP and in Chromium, against
 * the real OpenID Provider fixture; the same app also runs under `vite dev` with its AUTH_*
 * variables only in a `.env` file. Nothing is mocked.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../../../e2e/browser.js";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../../core/test/fixtures/oidc-provider.js";
import { freePort } from "../../core/test/fixtures/ports.js";
import { startServer, stopServer } from "../../core/test/fixtures/processes.js";
import { HttpClient } from "../../express/test/http-client.js";

const here = dirname(fileURLToPath(import.meta.url));
const appDir = join(here, "app");
const viteBin = join(
  dirname(createRequire(import.meta.url).resolve("vite/package.json")),
  "bin/vite.js",
);

/** `paths.base` of the app (svelte.config.js). */
const BASE = "/base";
const SECRET = "sveltekit-example-secret-at-least-32-chars";
/** The OpenID Provider's user, and the app as its registered client. */
const OP_USER = { sub: "ada-op", email: "ada@op.example", email_verified: true, name: "Ada (OP)" };
const OP_CLIENT = { id: "sveltekit-app", secret: "sveltekit-app-secret" };

let workDir: string;
let buildDir: string;
let server: ChildProcess | undefined;
let op: RunningOidcProvider;
let origin: string;
let devOrigin: string;

/** The environment of the test process without any AUTH_* variable. */
function withoutAuthEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith("AUTH_")) delete env[name];
  return env;
}

/** Runs `node args` in `cwd`; resolves with its output, rejects with it on a non-zero exit. */
async function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, args, { cwd, env });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`node ${args.join(" ")} exited with ${code}:\n${output}`);
  return output;
}

/** The OP's variables, named after the provider id `fixture-op`. */
function opEnv(): Record<string, string> {
  return {
    AUTH_FIXTURE_OP_ISSUER: op.issuer,
    AUTH_FIXTURE_OP_ID: OP_CLIENT.id,
    AUTH_FIXTURE_OP_SECRET: OP_CLIENT.secret,
  };
}

beforeAll(async () => {
  const [port, devPort] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${port}`;
  devOrigin = `http://127.0.0.1:${devPort}`;
  op = await startOidcProvider({
    clients: [
      {
        client_id: OP_CLIENT.id,
        client_secret: OP_CLIENT.secret,
        redirect_uris: [origin, devOrigin].map((o) => `${o}${BASE}/auth/callback/fixture-op`),
      },
    ],
    accounts: [OP_USER],
  });

  await mkdir(join(here, "../.svelte-kit"), { recursive: true });
  workDir = await mkdtemp(join(here, "../.svelte-kit/test-"));
  buildDir = join(workDir, "build");
  // No AUTH_SECRET while building: prerendering must not need one.
  await run([viteBin, "build"], appDir, {
    ...withoutAuthEnv(),
    TESSERA_KIT_OUT: join(workDir, "kit"),
    TESSERA_KIT_BUILD: buildDir,
  });
  ({ child: server } = await startServer(
    process.execPath,
    [buildDir],
    appDir,
    {
      ...withoutAuthEnv(),
      HOST: "127.0.0.1",
      PORT: String(port),
      // adapter-node assumes https unless told the public origin.
      ORIGIN: origin,
      AUTH_SECRET: SECRET,
      AUTH_TRUST_HOST: "true",
      NODE_ENV: "production",
      ...opEnv(),
    },
    "Listening on",
  ));
}, 240_000);

afterAll(async () => {
  await stopServer(server);
  await op?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** What a browser sends with a plain (not enhanced) form post. */
function formHeaders(from = origin): Record<string, string> {
  return { origin: from, accept: "text/html", referer: `${origin}${BASE}/signin` };
}

async function homeStatus(client: HttpClient): Promise<string | undefined> {
  const html = await (await client.get(`${BASE}/`)).text();
  return /<p id="status">(.*?)<\/p>/.exec(html)?.[1];
}

/** Signs in through the /signin form action (which calls `signIn` from SvelteKitAuth). */
function signInWithFormAction(
  client: HttpClient,
  password = "lovelace",
  redirectTo = `${BASE}/protected`,
) {
  return client.postForm(
    `${BASE}/signin`,
    { providerId: "credentials", username: "ada", password, redirectTo },
    formHeaders(),
  );
}

describe("a SvelteKit app with SvelteKitAuth, under a base path", () => {
  it("renders the signed-out state and redirects the protected prefix to sign-in", async () => {
    const client = new HttpClient(origin);
    expect(await homeStatus(client)).toBe("Not signed in");
    const response = await client.get(`${BASE}/protected/anything?x=1`);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      `${BASE}/signin?redirectTo=%2Fbase%2Fprotected%2Fanything%3Fx%3D1`,
    );
  });

  it("signs in through the signIn form action and renders the session server-side", async () => {
    const client = new HttpClient(origin);
    const response = await signInWithFormAction(client);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${origin}${BASE}/protected`);
    const session = client.lastSetCookies.find((c) => c.name === "authjs.session-token");
    expect(session?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });

    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
    const page = await client.get(`${BASE}/protected`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Secret for ada@example.com");
  });

  it("gives load functions the session through locals.getSession() too", async () => {
    const client = new HttpClient(origin);
    const read = async () =>
      /<pre id="getsession">(.*?)<\/pre>/.exec(
        await (await client.get(`${BASE}/getsession`)).text(),
      )?.[1];
    expect(await read()).toBe("null");
    await signInWithFormAction(client);
    // The user has no image: the session omits it, as Auth.js's does.
    expect(JSON.parse((await read()) ?? "")).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
    });
  });

  it("answers an enhanced (fetch) form action with a redirect result", async () => {
    const client = new HttpClient(origin);
    const response = await client.postForm(
      `${BASE}/signin`,
      { providerId: "credentials", username: "ada", password: "lovelace", redirectTo: `${BASE}/` },
      { origin, "x-sveltekit-action": "true" },
    );
    expect(await response.json()).toEqual({
      type: "redirect",
      status: 303,
      location: `${origin}${BASE}/`,
    });
    expect(client.jar.has("authjs.session-token")).toBe(true);
  });

  it("throws CredentialsSignin (re-exported by @tessera/sveltekit) to the form action, which answers 400", async () => {
    const client = new HttpClient(origin);
    const response = await signInWithFormAction(client, "wrong");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Wrong user name or password (credentials)");
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("never redirects a form-action sign-in to a foreign site (open redirect)", async () => {
    const client = new HttpClient(origin);
    const response = await signInWithFormAction(client, "lovelace", "https://evil.example/phish");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(origin);
    expect(client.jar.has("authjs.session-token")).toBe(true);
  });

  it("answers odd sign-in form posts without a 5xx or a stack trace", async () => {
    const cases: [Record<string, string>, number][] = [
      [{ providerId: "no-such-provider" }, 303],
      [{ providerId: "__proto__" }, 303],
      [{ providerId: "constructor", redirectTo: "javascript:alert(1)" }, 303],
      [{ providerId: "credentials", username: "x".repeat(10_000), password: "" }, 400],
      [{}, 303],
    ];
    for (const [fields, status] of cases) {
      const client = new HttpClient(origin);
      const response = await client.postForm(`${BASE}/signin`, fields, formHeaders());
      const body = await response.text();
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBe(status);
      expect(body).not.toMatch(/\bat .*\.(js|ts):\d+/);
      if (status === 303) {
        const location = new URL(response.headers.get("location") ?? "", origin);
        expect(location.origin).toBe(origin);
      }
    }
    const json = await new HttpClient(origin).fetch(`${BASE}/signin`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ providerId: "credentials" }),
    });
    expect(json.status).toBeLessThan(500);
  });

  it("refuses a cross-site form post before it reaches signIn (login CSRF)", async () => {
    const client = new HttpClient(origin);
    const response = await client.postForm(
      `${BASE}/signin`,
      { providerId: "credentials", username: "ada", password: "lovelace" },
      formHeaders("http://evil.example"),
    );
    expect(response.status).toBe(403);
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("signs out through the signOut form action", async () => {
    const client = new HttpClient(origin);
    await signInWithFormAction(client);
    const response = await client.postForm(
      `${BASE}/signout`,
      { redirectTo: `${BASE}/` },
      formHeaders(),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${origin}${BASE}/`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect(await homeStatus(client)).toBe("Not signed in");
    expect((await client.get(`${BASE}/protected`)).status).toBe(303);
  });

  it("serves the endpoints at <base>/auth: CSRF + credentials sign-in, session, sign-out", async () => {
    const client = new HttpClient(origin);
    const auth = `${BASE}/auth`;
    const providers = await (await client.get(`${auth}/providers`)).json();
    expect(providers).toMatchObject({
      credentials: { callbackUrl: `${origin}${auth}/callback/credentials` },
      "fixture-op": { callbackUrl: `${origin}${auth}/callback/fixture-op` },
    });
    // Not under the base path: the app's own 404.
    expect((await client.get("/auth/providers")).status).toBe(404);
    const csrfToken = await client.csrfToken(auth);
    const signedIn = await client.postForm(
      `${auth}/callback/credentials`,
      { csrfToken, username: "ada", password: "lovelace", callbackUrl: `${BASE}/protected` },
      { origin },
    );
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`${origin}${BASE}/protected`);
    expect(await (await client.get(`${auth}/session`)).json()).toMatchObject({
      user: { name: "Ada Lovelace", email: "ada@example.com" },
    });
    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");

    // The sign-in rotated the CSRF token: the one from before is refused, a fresh one works.
    const stale = await client.postForm(
      `${auth}/signout`,
      { csrfToken, callbackUrl: `${BASE}/` },
      { origin },
    );
    expect(stale.headers.get("location")).toBe(`${origin}${auth}/signin?error=MissingCSRF`);
    expect(client.jar.has("authjs.session-token")).toBe(true);
    const signedOut = await client.postForm(
      `${auth}/signout`,
      { csrfToken: await client.csrfToken(auth), callbackUrl: `${BASE}/` },
      { origin },
    );
    expect(signedOut.status).toBe(302);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect(await (await client.get(`${auth}/session`)).json()).toBeNull();
  });

  it("keeps the double-submit CSRF check on the <base>/auth endpoints", async () => {
    const client = new HttpClient(origin);
    await client.csrfToken(`${BASE}/auth`);
    const response = await client.postForm(
      `${BASE}/auth/callback/credentials`,
      { csrfToken: "0".repeat(64), username: "ada", password: "lovelace" },
      { origin },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}${BASE}/auth/signin?error=MissingCSRF`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("prerenders a page at build time without auth work, and serves it as built", async () => {
    const built = await readFile(join(buildDir, `prerendered${BASE}/prerendered.html`), "utf8");
    expect(built).toContain("session: null; getSession is auth: true");
    // A signed-in visitor gets the same static page: no session read, no cookie set.
    const client = new HttpClient(origin);
    await signInWithFormAction(client);
    const response = await client.get(`${BASE}/prerendered`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("session: null; getSession is auth: true");
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("renders SignIn and SignOut as forms posting to the actions under the base path", async () => {
    const client = new HttpClient(origin);
    const html = await (await client.get(`${BASE}/components`)).text();
    const form = /<form[^>]*id="op-form"[^>]*>[\s\S]*?<\/form>/.exec(html)?.[0] ?? "";
    expect(form).toMatch(/method="POST"/);
    expect(form).toMatch(/class="signInButton op\s*"/);
    expect(form).toContain('name="providerId" value="fixture-op"');
    expect(form).toContain(`name="callbackUrl" value="${BASE}/components"`);
    expect(form).toContain('name="authorizationParams-login_hint" value="ada@op.example"');
    expect(form).toContain('<span id="op-label">Sign in with the Test OP</span>');
    // During SSR `base` is relative to the page (paths.relative), which resolves to /base/signin.
    const action = /action="([^"]*)"/.exec(form)?.[1] ?? "";
    expect(new URL(action, `${origin}${BASE}/components`).href).toBe(`${origin}${BASE}/signin`);
  });
});

describe("@tessera/sveltekit/components in Chromium", () => {
  it("signs in with SignIn through the OpenID Provider and out with SignOut (snippets)", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}${BASE}/components`);
      // use:enhance is attached after hydration.
      await page.waitForSelector("#hydrated", { state: "attached" });
      expect(await page.$eval("#op-form", (form) => (form as HTMLFormElement).action)).toBe(
        `${origin}${BASE}/signin`,
      );
      await page.click("#op-label");
      // The form action redirects to the provider, which signs Ada in and sends her back.
      await page.waitForURL(`${origin}${BASE}/components`);
      await page.waitForSelector("#signout-label");
      expect(await page.textContent("#status")).toBe("Signed in as Ada (OP) (ada@op.example)");

      await page.click("#signout-label");
      await page.waitForSelector("#op-label");
      expect(await page.textContent("#status")).toBe("Not signed in");
      const cookies = await browser.context.cookies(origin);
      expect(cookies.some((cookie) => cookie.name === "authjs.session-token")).toBe(false);
    } finally {
      await browser.close();
    }
  });

  it("signs in with SignIn's credentials slot in a legacy-mode page, and shows a refusal", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}${BASE}/legacy-components`);
      await page.waitForSelector("#hydrated", { state: "attached" });
      await page.fill('input[name="username"]', "ada");
      await page.fill('input[name="password"]', "wrong");
      await page.click("#credentials-label");
      await page.waitForSelector("#error");
      expect(await page.textContent("#error")).toBe("Wrong user name or password (credentials)");

      await page.fill('input[name="password"]', "lovelace");
      await page.click("#credentials-label");
      await page.waitForSelector("#status >> text=Signed in as Ada Lovelace");
      // Enhanced: the refusal and the sign-in happened without leaving the page.
      expect(page.url()).toBe(`${origin}${BASE}/legacy-components`);
    } finally {
      await browser.close();
    }
  });
});

describe("@tessera/sveltekit/client in Chromium", () => {
  it("signs in with signIn('credentials', …) and out with signOut(), at <base>/auth by default", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}${BASE}/client`);
      // The client code runs after hydration.
      await page.waitForFunction(() => document.querySelector("#signin") !== null);
      await page.fill('input[name="username"]', "ada");
      await page.fill('input[name="password"]', "wrong");
      await page.click("#signin");
      await page.waitForSelector("text=Sign-in failed: CredentialsSignin");

      await page.fill('input[name="password"]', "lovelace");
      await page.click("#signin");
      await page.waitForURL(`${origin}${BASE}/`);
      expect(await page.textContent("#status")).toBe("Signed in as Ada Lovelace (ada@example.com)");

      await page.goto(`${origin}${BASE}/client`);
      await page.click("#signout");
      await page.waitForURL(`${origin}${BASE}/`);
      expect(await page.textContent("#status")).toBe("Not signed in");
    } finally {
      await browser.close();
    }
  });
});

describe("the same app under vite dev, configured by a .env file", () => {
  let dev: ChildProcess | undefined;

  beforeAll(async () => {
    // AUTH_* only in the .env file: SvelteKit reads it into $env/dynamic/private; process.env
    // of the dev server has none of them.
    const envDir = join(workDir, "env");
    await mkdir(envDir, { recursive: true });
    const dotenv = { AUTH_SECRET: SECRET, ...opEnv() };
    await writeFile(
      join(envDir, ".env"),
      Object.entries(dotenv)
        .map(([name, value]) => `${name}=${value}`)
        .join("\n"),
    );
    const { port } = new URL(devOrigin);
    ({ child: dev } = await startServer(
      process.execPath,
      // --logLevel info: vite.config.ts keeps warnings only, and "Local:" says vite listens.
      [viteBin, "dev", "--host", "127.0.0.1", "--port", port, "--strictPort", "--logLevel", "info"],
      appDir,
      {
        ...withoutAuthEnv(),
        TESSERA_KIT_OUT: join(workDir, "dev-kit"),
        TESSERA_KIT_ENV_DIR: envDir,
        TESSERA_KIT_VITE_CACHE: join(workDir, "vite-cache"),
      },
      "Local:",
    ));
  }, 120_000);

  afterAll(() => stopServer(dev));

  it("reads AUTH_SECRET from .env: form-action sign-in and locals.getSession() work", async () => {
    const client = new HttpClient(devOrigin);
    const page = await client.get(`${BASE}/getsession`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<pre id="getsession">null</pre>');
    const signedIn = await client.postForm(
      `${BASE}/signin`,
      { providerId: "credentials", username: "ada", password: "lovelace", redirectTo: `${BASE}/` },
      { origin: devOrigin, accept: "text/html" },
    );
    expect(signedIn.status).toBe(303);
    expect(client.jar.has("authjs.session-token")).toBe(true);
    const html = await (await client.get(`${BASE}/getsession`)).text();
    expect(html).toContain("Ada Lovelace");
  });

  it("reads the provider's AUTH_FIXTURE_OP_ISSUER/_ID/_SECRET from .env", async () => {
    const client = new HttpClient(devOrigin);
    const csrfToken = await client.csrfToken(`${BASE}/auth`);
    const response = await client.postForm(
      `${BASE}/auth/signin/fixture-op`,
      { csrfToken, callbackUrl: `${BASE}/` },
      { origin: devOrigin },
    );
    expect(response.status).toBe(302);
    const authorization = new URL(response.headers.get("location") ?? "");
    expect(authorization.origin).toBe(op.issuer);
    expect(authorization.searchParams.get("client_id")).toBe(OP_CLIENT.id);
    expect(authorization.searchParams.get("redirect_uri")).toBe(
      `${devOrigin}${BASE}/auth/callback/fixture-op`,
    );
  });
});
