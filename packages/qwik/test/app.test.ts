/**
 * @tessera/qwik in the example Qwik City app (examples/qwik): built by `qwik build` (type check,
 * Vite with Qwik's optimizer for the browser, then the Node server adapter's build), served by
 * Qwik City's Node middleware on 127.0.0.1 and driven over HTTP and in Chromium (with and without
 * JavaScript) against the real OpenID Provider fixture. Nothing is mocked.
 *
 * The same app is also built (and type-checked) with its imports moved back to @auth/qwik (the
 * devDependency), and run through the same requests where Tessera differs on purpose: CSRF
 * protection, the form actions' redirects, host trust and the base path.
 */
import { once } from "node:events";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { encode } from "@auth/core/jwt";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser } from "../../../e2e/browser.js";
import { buildPackages, exec, ROOT } from "../../core/test/fixtures/build.js";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../../core/test/fixtures/oidc-provider.js";
import { freePort } from "../../core/test/fixtures/ports.js";
import { type RunningServer, startServer, stopServer } from "../../core/test/fixtures/processes.js";
import { HttpClient } from "../../express/test/http-client.js";

const here = dirname(fileURLToPath(import.meta.url));
const QWIK_PACKAGE = join(here, "..");
const EXAMPLE = join(ROOT, "examples/qwik");
// Qwik 1.x builds with Vite 7: the CLI and Vite installed for this package, not the root's Vite.
const qwikCli = join(
  dirname(createRequire(import.meta.url).resolve("@builder.io/qwik/cli")),
  "../qwik-cli.cjs",
);

const SECRET = "qwik-example-secret-of-at-least-32-chars";
const USER = { name: "Ada Lovelace", email: "ada@example.com" };
const PASSWORD = "correct horse battery staple";
/** The OpenID Provider's user, and the app as its registered client. */
const OP_USER = { sub: "ada-op", email: "ada@op.example", email_verified: true, name: "Ada (OP)" };
const OP_CLIENT = { id: "qwik-app", secret: "qwik-app-secret" };

/** The import specifiers that move the example from Tessera back to @auth/qwik. */
const TO_ORIGINAL: [string, string][] = [
  ['"@tessera/qwik"', '"@auth/qwik"'],
  ['"@tessera/core/providers/credentials"', '"@auth/qwik/providers/credentials"'],
  ['"@tessera/core/providers"', '"@auth/qwik/providers"'],
];

/** The environment of the test process without AUTH_* variables or vitest's NODE_ENV=test. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith("AUTH_")) delete env[name];
  delete env.NODE_ENV;
  return env;
}

interface BuiltApp {
  dir: string;
  origin: string;
  server?: RunningServer;
}

let workDir = "";
let op: RunningOidcProvider;
const tessera: BuiltApp = { dir: "", origin: "" };
const original: BuiltApp = { dir: "", origin: "" };

/**
 * Qwik City's own origin check (`checkOrigin`) turned off in the server entry: the cross-site
 * test then reaches Tessera's check, which must hold when an app turns Qwik's off.
 */
const WITHOUT_QWIK_ORIGIN_CHECK: [string, string][] = [
  ["  qwikCityPlan,\n", "  qwikCityPlan,\n  checkOrigin: false,\n"],
];

/** Copies the example to `dir`, rewriting imports (and the dependency) with `replacements`. */
async function copyExample(dir: string, replacements: [string, string][]): Promise<void> {
  await cp(EXAMPLE, dir, {
    recursive: true,
    filter: (source) => !/[\\/](dist|server|tmp|node_modules)$/.test(source),
  });
  const files = [
    "package.json",
    "src/routes/plugin@auth.ts",
    "src/routes/protected/layout.tsx",
    "src/entry.node-server.tsx",
  ];
  for (const file of files) {
    let text = await readFile(join(dir, file), "utf8");
    for (const [from, to] of replacements) text = text.replaceAll(from, to);
    await writeFile(join(dir, file), text);
  }
}

/**
 * `qwik build`, as an app created by create-qwik runs it: the npm scripts `build.types` (tsc),
 * `build.client` (`vite build`) and `build.server` (the Node adapter's `vite build`), with this
 * package's Qwik CLI, Vite 7 and the root's TypeScript on the PATH.
 */
async function buildApp(app: BuiltApp): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    PATH: [
      join(QWIK_PACKAGE, "node_modules/.bin"),
      join(ROOT, "node_modules/.bin"),
      process.env.PATH,
    ]
      .filter(Boolean)
      .join(delimiter),
    // The Qwik CLI runs the scripts with the package manager this names.
    npm_config_user_agent: `npm/10 node/${process.version}`,
    // Qwik's Vite plugin hands the client manifest to the server build through a file in the
    // temporary directory: a private one keeps parallel builds apart.
    TMPDIR: join(app.dir, "tmp"),
  };
  await mkdir(join(app.dir, "tmp"), { recursive: true });
  const { code, output } = await exec(process.execPath, [qwikCli, "build"], app.dir, env);
  if (code !== 0) throw new Error(`qwik build failed in ${app.dir} (${code}):\n${output}`);
}

/** Starts the built server of `app` on `port` with the OP's variables, `AUTH_SECRET` and `env`. */
function serveBuild(app: BuiltApp, port: number, env: Record<string, string>) {
  return startServer(
    process.execPath,
    ["server/entry.node-server.js"],
    app.dir,
    {
      ...cleanEnv(),
      PORT: String(port),
      HOST: "127.0.0.1",
      AUTH_SECRET: SECRET,
      AUTH_FIXTURE_OP_ISSUER: op.issuer,
      AUTH_FIXTURE_OP_ID: OP_CLIENT.id,
      AUTH_FIXTURE_OP_SECRET: OP_CLIENT.secret,
      ...env,
    },
    "Node server listening",
  );
}

async function serve(app: BuiltApp, port: number): Promise<void> {
  app.server = await serveBuild(app, port, { ORIGIN: app.origin, AUTH_URL: app.origin });
}

beforeAll(async () => {
  const [port, originalPort] = [await freePort(), await freePort()];
  tessera.origin = `http://127.0.0.1:${port}`;
  original.origin = `http://127.0.0.1:${originalPort}`;
  op = await startOidcProvider({
    clients: [
      {
        client_id: OP_CLIENT.id,
        client_secret: OP_CLIENT.secret,
        redirect_uris: [tessera.origin, original.origin].map(
          (o) => `${o}/auth/callback/fixture-op`,
        ),
      },
    ],
    accounts: [OP_USER],
  });
  await buildPackages(["packages/core", "packages/qwik"], ["packages/qwik/dist/index.js"]);
  // Inside packages/qwik: the app resolves Qwik and Vite 7 from this package's node_modules.
  await mkdir(join(here, "../test-artifacts"), { recursive: true });
  workDir = await mkdtemp(join(here, "../test-artifacts/app-"));
  tessera.dir = join(workDir, "tessera");
  original.dir = join(workDir, "original");
  await copyExample(tessera.dir, WITHOUT_QWIK_ORIGIN_CHECK);
  await copyExample(original.dir, TO_ORIGINAL);
  await Promise.all([buildApp(tessera), buildApp(original)]);
  await Promise.all([serve(tessera, port), serve(original, originalPort)]);
}, 300_000);

beforeEach(({ onTestFailed }) => {
  // The servers' side of a failure: their logs (errors of the app and of Tessera).
  onTestFailed(() => {
    for (const app of [tessera, original])
      console.log(`${app.dir} server log:\n${app.server?.output().slice(-4000)}`);
  });
});

afterAll(async () => {
  await Promise.all([stopServer(tessera.server?.child), stopServer(original.server?.child)]);
  await op?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** What a browser sends with a plain (JavaScript-less) form post from the app's page. */
function formHeaders(app: BuiltApp, from = app.origin): Record<string, string> {
  return { origin: from, accept: "text/html", referer: `${app.origin}/signin/` };
}

/** The `?qaction=<id>` a page's form posts to, read from the server-rendered HTML. */
async function actionPath(client: HttpClient, page: string, index = 0): Promise<string> {
  const html = await (await client.get(page)).text();
  const actions = [...html.matchAll(/<form[^>]*action="(\?qaction=[^"]+)"/g)].map((m) => m[1]);
  const action = actions[index];
  if (!action) throw new Error(`no form action #${index} on ${page}:\n${html.slice(0, 2000)}`);
  return `${page}${action}`;
}

async function homeStatus(client: HttpClient): Promise<string | undefined> {
  const html = await (await client.get("/")).text();
  return /data-testid="status"[^>]*>(.*?)<\/p>/.exec(html)?.[1]?.replace(/<!--.*?-->/g, "");
}

/** Signs in through the app's credentials form (the `useSignIn` action), as without JavaScript. */
async function signInWithForm(app: BuiltApp, client: HttpClient, password = PASSWORD) {
  return client.postForm(
    await actionPath(client, "/signin/"),
    {
      providerId: "credentials",
      "options.redirectTo": "/protected/",
      "options.email": USER.email,
      "options.password": password,
    },
    formHeaders(app),
  );
}

describe("the Qwik app over HTTP", () => {
  it("renders the signed-out state and redirects the guarded route to sign-in", async () => {
    const client = new HttpClient(tessera.origin);
    expect(await homeStatus(client)).toBe("Not signed in");
    const guarded = await client.get("/protected/");
    expect(guarded.status).toBe(302);
    expect(guarded.headers.get("location")).toBe("/auth/signin?callbackUrl=%2Fprotected%2F");
    // pages.signIn: the built-in sign-in route forwards to the app's own page.
    const signIn = await client.get("/auth/signin?callbackUrl=%2Fprotected%2F");
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("location")).toBe(
      `${tessera.origin}/signin/?callbackUrl=${encodeURIComponent(`${tessera.origin}/protected/`)}`,
    );
  });

  it("signs in through the useSignIn form with a 303, and the server reads the session", async () => {
    const client = new HttpClient(tessera.origin);
    const response = await signInWithForm(tessera, client);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/protected/");
    const cookie = client.lastSetCookies.find((c) => c.name === "authjs.session-token");
    expect(cookie?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });

    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
    const page = await client.get("/protected/");
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(
      /data-testid="protected-user"[^>]*>(<!--[^>]*-->)?Ada Lovelace</,
    );
    const session = await (await client.get("/auth/session")).json();
    expect(session).toMatchObject({ user: USER });
  });

  it("sends a wrong password to the sign-in page with CredentialsSignin and no session", async () => {
    const client = new HttpClient(tessera.origin);
    const response = await signInWithForm(tessera, client, "not the password");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      "/signin/?error=CredentialsSignin&code=credentials",
    );
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("signs out through the useSignOut form: the cookie is cleared and the guard applies again", async () => {
    const client = new HttpClient(tessera.origin);
    await signInWithForm(tessera, client);
    const response = await client.postForm(
      await actionPath(client, "/"),
      { redirectTo: "/" },
      formHeaders(tessera),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect((await client.get("/protected/")).status).toBe(302);
  });

  it("accepts a session cookie written by @auth/core", async () => {
    const token = await encode({
      token: { name: "Grace Hopper", email: "grace@example.com", sub: "g-1" },
      secret: SECRET,
      salt: "authjs.session-token",
    });
    const client = new HttpClient(tessera.origin);
    client.jar.set("authjs.session-token", token);
    expect(await homeStatus(client)).toBe("Signed in as Grace Hopper (grace@example.com)");
    expect((await client.get("/protected/")).status).toBe(200);
  });

  it("login CSRF: refuses a credentials POST to /auth without the CSRF token", async () => {
    const client = new HttpClient(tessera.origin);
    const response = await client.postForm("/auth/callback/credentials", {
      email: USER.email,
      password: PASSWORD,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toContain("error=MissingCSRF");
    expect(client.jar.has("authjs.session-token")).toBe(false);

    // With the token of the double-submit cookie, the same post signs in.
    const csrfToken = await client.csrfToken();
    const signedIn = await client.postForm("/auth/callback/credentials", {
      csrfToken,
      email: USER.email,
      password: PASSWORD,
      callbackUrl: "/",
    });
    expect(signedIn.headers.get("location")).toBe(`${tessera.origin}/`);
    expect(client.jar.has("authjs.session-token")).toBe(true);
  });

  it("login CSRF: refuses the sign-in form posted from another site, with Qwik's check off", async () => {
    const client = new HttpClient(tessera.origin);
    const path = await actionPath(client, "/signin/");
    const response = await client.postForm(
      path,
      {
        providerId: "credentials",
        "options.email": USER.email,
        "options.password": PASSWORD,
      },
      formHeaders(tessera, "https://attacker.example"),
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Cross-site sign-in and sign-out posts are refused");
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("open redirect: a sign-in form naming another site lands on this one", async () => {
    const client = new HttpClient(tessera.origin);
    const response = await client.postForm(
      await actionPath(client, "/signin/"),
      {
        providerId: "credentials",
        "options.redirectTo": "https://attacker.example/phish",
        "options.email": USER.email,
        "options.password": PASSWORD,
      },
      formHeaders(tessera),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
  });

  it("treats a malformed session cookie as signed out, without an error", async () => {
    const client = new HttpClient(tessera.origin);
    client.jar.set("authjs.session-token", "not.a.jwe%%");
    const response = await client.get("/");
    expect(response.status).toBe(200);
    expect(await homeStatus(client)).toBe("Not signed in");
  });
});

describe("differences from @auth/qwik, the same app and requests on both", () => {
  it("keeps /auth/csrf (the original answers 404: CSRF checking is off)", async () => {
    const ours = await new HttpClient(tessera.origin).get("/auth/csrf");
    expect(ours.status).toBe(200);
    expect(await ours.json()).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await new HttpClient(original.origin).get("/auth/csrf")).status).toBe(404);
  });

  it("refuses a sign-in POST without the token, which the original accepts (login CSRF)", async () => {
    const form = { email: USER.email, password: PASSWORD, callbackUrl: "/" };
    const ours = new HttpClient(tessera.origin);
    await ours.postForm("/auth/callback/credentials", form);
    expect(ours.jar.has("authjs.session-token")).toBe(false);

    const theirs = new HttpClient(original.origin);
    const accepted = await theirs.postForm("/auth/callback/credentials", form);
    expect(accepted.status).toBe(302);
    expect(theirs.jar.has("authjs.session-token")).toBe(true);
  });

  it("redirects form actions with a 3xx (the original answers 200 with a Location header)", async () => {
    const ours = await signInWithForm(tessera, new HttpClient(tessera.origin));
    expect(ours.status).toBe(303);

    const client = new HttpClient(original.origin);
    const theirs = await signInWithForm(original, client);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("location")).toBe(`${original.origin}/protected/`);
    // Signed in, but a browser without JavaScript stays on the sign-in page.
    expect(client.jar.has("authjs.session-token")).toBe(true);
  });
});

/** A GET with a Host header of its choosing (fetch sends the URL's own host). */
async function getWithHost(origin: string, path: string, host: string) {
  const { hostname, port } = new URL(origin);
  const request = httpRequest({ hostname, port, path, headers: { host } });
  request.end();
  const [response] = (await once(request, "response")) as [IncomingMessage];
  let body = "";
  for await (const chunk of response) body += chunk;
  return { status: response.statusCode, body };
}

describe("a server without AUTH_SECRET", () => {
  it("answers 500 with the configuration message and no stack trace, and names the fix in its log", async () => {
    const port = await freePort();
    const server = await serveBuild(tessera, port, { AUTH_SECRET: "", AUTH_TRUST_HOST: "true" });
    try {
      const client = new HttpClient(`http://127.0.0.1:${port}`);
      const session = await client.get("/auth/session");
      expect(session.status).toBe(500);
      expect(await session.json()).toEqual({ message: expect.stringContaining("configuration") });
      const page = await client.get("/");
      expect(page.status).toBe(500);
      const html = await page.text();
      expect(html).not.toMatch(/\bat .*\.(js|ts):\d+/);
      expect(html).not.toContain("server/");
      expect(server.output()).toContain("AUTH_SECRET");
    } finally {
      await stopServer(server.child);
    }
  });
});

describe("differences from @auth/qwik that depend on the environment, the same builds on both", () => {
  /** Runs `check` against a second server of each build, started with `env`. */
  async function withServers(
    env: (origin: string) => Record<string, string>,
    check: (ours: HttpClient, theirs: HttpClient) => Promise<void>,
  ): Promise<void> {
    const [port, originalPort] = [await freePort(), await freePort()];
    const ours = `http://127.0.0.1:${port}`;
    const theirs = `http://127.0.0.1:${originalPort}`;
    const servers = await Promise.all([
      serveBuild(tessera, port, env(ours)),
      serveBuild(original, originalPort, env(theirs)),
    ]);
    try {
      await check(new HttpClient(ours), new HttpClient(theirs));
    } finally {
      await Promise.all(servers.map((server) => stopServer(server.child)));
    }
  }

  it("host header injection: without AUTH_URL or AUTH_TRUST_HOST, a forged Host is not trusted", async () => {
    // NODE_ENV unset, as on many Node deployments; no ORIGIN, so Qwik takes the Host header.
    await withServers(
      () => ({}),
      async (ours, theirs) => {
        const refused = await getWithHost(ours.origin, "/auth/providers", "attacker.example");
        expect(refused.status).toBe(500);
        expect(refused.body).not.toContain("attacker.example");
        // The original builds its URLs on the forged host.
        const trusted = await getWithHost(theirs.origin, "/auth/providers", "attacker.example");
        expect(trusted.status).toBe(200);
        expect(trusted.body).toContain("http://attacker.example/auth/signin/credentials");
      },
    );
  });

  it("serves the base path AUTH_URL names (the original always serves /auth)", async () => {
    await withServers(
      (origin) => ({ ORIGIN: origin, AUTH_URL: `${origin}/api/auth` }),
      async (ours, theirs) => {
        const session = await ours.get("/api/auth/session");
        expect(session.status).toBe(200);
        expect(await session.json()).toBeNull();
        expect((await theirs.get("/api/auth/session")).status).toBe(404);
      },
    );
  });
});

describe("the Qwik app in Chromium", () => {
  let browser: LaunchedBrowser;
  let noScript: LaunchedBrowser;
  beforeAll(async () => {
    [browser, noScript] = await Promise.all([
      launchBrowser(),
      launchBrowser({ javaScriptEnabled: false }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), noScript?.close()]);
  });

  async function signInOnPage(target: LaunchedBrowser, password: string) {
    await target.context.clearCookies();
    const page = await target.newPage();
    await page.goto(`${tessera.origin}/protected/`);
    expect(new URL(page.url()).pathname).toBe("/signin/");
    await page.getByLabel("E-mail").fill(USER.email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    return page;
  }

  for (const [mode, pick] of [
    ["with JavaScript", () => browser],
    ["without JavaScript", () => noScript],
  ] as const) {
    it(`signs in with the credentials form and out again, ${mode}`, async () => {
      const target = pick();
      const page = await signInOnPage(target, PASSWORD);
      await page.waitForURL(`${tessera.origin}/protected/`);
      expect(await page.getByTestId("protected-user").textContent()).toBe("Ada Lovelace");

      await page.goto(`${tessera.origin}/`);
      expect(await page.getByTestId("status").textContent()).toBe(
        "Signed in as Ada Lovelace (ada@example.com)",
      );
      await page.getByRole("button", { name: "Sign out" }).click();
      await expect.poll(() => page.getByTestId("status").textContent()).toBe("Not signed in");
      const names = (await target.context.cookies()).map((c) => c.name);
      expect(names).not.toContain("authjs.session-token");
      await page.goto(`${tessera.origin}/protected/`);
      expect(new URL(page.url()).pathname).toBe("/signin/");
      await page.close();
    });

    it(`shows CredentialsSignin for a wrong password, ${mode}`, async () => {
      const target = pick();
      const page = await signInOnPage(target, "not the password");
      await page.waitForURL(/\/signin\/\?error=CredentialsSignin/);
      expect(await page.getByTestId("error").textContent()).toBe("Wrong e-mail or password.");
      expect(await page.getByTestId("error").getAttribute("data-error")).toBe("CredentialsSignin");
      const names = (await target.context.cookies()).map((c) => c.name);
      expect(names).not.toContain("authjs.session-token");
      await page.close();
    });
  }

  it.each([
    ["with JavaScript", () => browser],
    ["without JavaScript", () => noScript],
  ] as const)("signs in at the OpenID Provider and back, %s", async (_, pick) => {
    const target = pick();
    await target.context.clearCookies();
    const page = await target.newPage();
    await page.goto(`${tessera.origin}/signin/?callbackUrl=%2Fprotected%2F`);
    await page.getByRole("button", { name: "Sign in with Test OP" }).click();
    await page.waitForURL(`${tessera.origin}/protected/`, { timeout: 10_000 }).catch(async (e) => {
      throw new Error(`${e}: at ${page.url()}\n${(await page.content()).slice(0, 3000)}`);
    });
    expect(await page.getByTestId("protected-user").textContent()).toBe("Ada (OP)");
    await page.goto(`${tessera.origin}/`);
    expect(await page.getByTestId("status").textContent()).toBe(
      "Signed in as Ada (OP) (ada@op.example)",
    );
    await page.close();
  });
});

describe("the browser build", () => {
  it("carries none of the server code (the core stays on the server)", async () => {
    const build = join(tessera.dir, "dist/build");
    const files = await readdir(build);
    const code = (await Promise.all(files.map((file) => readFile(join(build, file), "utf8")))).join(
      "\n",
    );
    expect(code).toContain("QwikAuthQrl_tesseraSignIn");
    for (const marker of ["oauth4webapi", "A256CBC-HS512", "MissingCSRF"])
      expect(code).not.toContain(marker);
  });
});
