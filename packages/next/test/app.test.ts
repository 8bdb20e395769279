/**
 * The example app (examples/next, the README's example) built with `next build`, served by
 * `next start` on 127.0.0.1, and driven by real HTTP requests and headless Chromium: route
 * handlers, the proxy (middleware) with the `authorized` callback, server components, server
 * actions and the React client.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser } from "../../../e2e/browser.js";
import { CookieJar } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const EXAMPLE = join(ROOT, "examples/next");
const NEXT_BIN = join(ROOT, "node_modules/next/dist/bin/next");
const TSC_BIN = join(ROOT, "node_modules/typescript/bin/tsc");
const USER = { name: "Ada Lovelace", email: "ada@example.com" };
const PASSWORD = "correct horse battery staple";

/** The environment for Next.js: vitest's NODE_ENV=test must not leak into `next build`/`start`. */
function nextEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...extra };
  delete env.NODE_ENV;
  return env;
}

/** Runs a command to completion; returns its exit code and output. */
async function exec(
  command: string,
  args: string[],
  cwd: string,
  env = nextEnv(),
): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, output };
}

/** Runs a command to completion; on failure, throws with the end of its output. */
async function run(command: string, args: string[], cwd: string, env = nextEnv()): Promise<void> {
  const { code, output } = await exec(command, args, cwd, env);
  if (code !== 0)
    throw new Error(`${[command, ...args].join(" ")} failed (${code}):\n${output.slice(-4000)}`);
}

/**
 * Compiles @tessera/core and @tessera/next to dist/, which Next.js consumes as an app installing
 * them from npm would. Type errors do not stop the emit (`npm run typecheck` reports them), so a
 * file being edited elsewhere in the repository does not block this test; missing output does.
 */
async function buildPackages(): Promise<void> {
  const args = ["/tmp/tessera-tsc-build.lock", process.execPath, TSC_BIN, "-b"];
  const { code, output } = await exec("flock", [...args, "packages/core", "packages/next"], ROOT);
  const built = ["packages/core/dist/index.js", "packages/next/dist/index.js"].every((file) =>
    existsSync(join(ROOT, file)),
  );
  if (!built) throw new Error(`tsc -b emitted no dist (${code}):\n${output.slice(-4000)}`);
  if (code !== 0) console.warn(`tsc -b reported type errors (dist emitted anyway):\n${output}`);
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function waitUntilServing(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      await fetch(url, { redirect: "manual" });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`next start did not answer at ${url}`);
}

const TEST_ACTIONS_ROUTE = `import { AuthError } from "@tessera/next";
import { signIn, signOut } from "@/auth";

export async function POST(request: Request) {
  const { action, provider, fields, redirectTo } = await request.json();
  try {
    if (action === "signOut") {
      const { redirect, cookies } = await signOut({ redirect: false, redirectTo });
      return Response.json({ url: redirect, cookies: cookies.map((cookie) => cookie.name) });
    }
    const url = await signIn(provider, { ...fields, redirect: false, redirectTo });
    return Response.json({ url });
  } catch (error) {
    if (error instanceof AuthError) return Response.json({ error: error.type }, { status: 400 });
    throw error;
  }
}
`;

let appDir = "";
let origin = "";
let server: ChildProcess | undefined;
let serverLog = "";

beforeAll(async () => {
  await buildPackages();
  // A private copy: `next build` rewrites tsconfig.json/next-env.d.ts and parallel runs must not
  // share an output directory.
  const artifacts = join(ROOT, "packages/next/test-artifacts");
  await mkdir(artifacts, { recursive: true });
  appDir = await mkdtemp(join(artifacts, "app-"));
  await cp(EXAMPLE, appDir, {
    recursive: true,
    filter: (source) => !/[\\/](\.next|node_modules|next-env\.d\.ts)$/.test(source),
  });
  // The copy is thrown away afterwards, so Turbopack's persistent build cache is only cost.
  await rename(join(appDir, "next.config.mjs"), join(appDir, "next.config.example.mjs"));
  await writeFile(
    join(appDir, "next.config.mjs"),
    'import config from "./next.config.example.mjs";\n' +
      "export default { ...config, experimental: { ...config.experimental, turbopackFileSystemCacheForBuild: false } };\n",
  );
  // Test-only route calling the server-side signIn/signOut with `redirect: false` (in the app,
  // they run in server actions, which Next.js protects against cross-site posts; this does not).
  await mkdir(join(appDir, "app/api/test-actions"), { recursive: true });
  await writeFile(join(appDir, "app/api/test-actions/route.ts"), TEST_ACTIONS_ROUTE);
  await run(process.execPath, [NEXT_BIN, "build"], appDir);

  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // AUTH_URL names the public origin (Next.js itself reports "localhost") and implies trustHost.
  server = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: appDir,
    env: nextEnv({ AUTH_SECRET: randomBytes(32).toString("base64url"), AUTH_URL: origin }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk) => {
    serverLog += chunk;
  });
  server.stderr?.on("data", (chunk) => {
    serverLog += chunk;
  });
  await waitUntilServing(origin, server);
}, 300_000);

beforeEach(({ onTestFailed }) => {
  // The server's side of a failure: its log (errors of the app and of Tessera).
  onTestFailed(() => console.log(`next start log:\n${serverLog.slice(-4000)}`));
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await once(server, "exit");
  }
  if (appDir) await rm(appDir, { recursive: true, force: true });
});

/** `fetch` on the app with the jar's cookies, redirects not followed. */
async function get(path: string, jar = new CookieJar()): Promise<Response> {
  const response = await fetch(`${origin}${path}`, { headers: jar.headers(), redirect: "manual" });
  jar.store(response);
  return response;
}

async function postForm(path: string, form: Record<string, string>, jar: CookieJar) {
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: jar.headers({ "content-type": "application/x-www-form-urlencoded" }),
    body: new URLSearchParams(form),
    redirect: "manual",
  });
  jar.store(response);
  return response;
}

async function csrfToken(jar: CookieJar): Promise<string> {
  const { csrfToken: token } = (await (await get("/api/auth/csrf", jar)).json()) as {
    csrfToken: string;
  };
  return token;
}

async function signInOverHttp(jar: CookieJar, password = PASSWORD): Promise<Response> {
  return postForm(
    "/api/auth/callback/credentials",
    { csrfToken: await csrfToken(jar), email: USER.email, password, callbackUrl: `${origin}/` },
    jar,
  );
}

describe("the built app over HTTP", () => {
  it("renders the home page on the server without a session for a visitor", async () => {
    const html = await (await get("/")).text();
    expect(html).toContain('data-testid="status">Not signed in');
  });

  it("redirects a signed-out visitor from /protected to sign-in in the proxy", async () => {
    const response = await get("/protected");
    expect(response.status).toBe(307);
    const location = new URL(response.headers.get("location") ?? "", origin);
    expect(location.href).toBe(
      `${origin}/api/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/protected`)}`,
    );
  });

  it("answers 401 on /api/me to a visitor: the Response the authorized callback returned", async () => {
    const response = await get("/api/me");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Sign in first." });
  });

  it("signs in with credentials; server pages, the proxy and auth(handler) see the session", async () => {
    const jar = new CookieJar();
    const response = await signInOverHttp(jar);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/`);
    expect(jar.cookies.has("authjs.session-token")).toBe(true);

    const home = await (await get("/", jar)).text();
    expect(home).toMatch(/Signed in as (<!-- -->)?Ada Lovelace/);
    const protectedPage = await get("/protected", jar);
    expect(protectedPage.status).toBe(200);
    expect(await protectedPage.text()).toContain('data-testid="protected-user">Ada Lovelace');
    expect(await (await get("/api/me", jar)).json()).toMatchObject({ user: USER });
  });

  it("signs out through the route handlers: the proxy turns the user away again", async () => {
    const jar = new CookieJar();
    await signInOverHttp(jar);
    const response = await postForm(
      "/api/auth/signout",
      { csrfToken: await csrfToken(jar), callbackUrl: `${origin}/` },
      jar,
    );
    expect(response.headers.get("location")).toBe(`${origin}/`);
    expect(jar.cookies.has("authjs.session-token")).toBe(false);
    expect((await get("/protected", jar)).status).toBe(307);
  });

  it("refuses a credentials post without the CSRF token (login CSRF)", async () => {
    const jar = new CookieJar();
    const response = await postForm(
      "/api/auth/callback/credentials",
      { email: USER.email, password: PASSWORD },
      jar,
    );
    expect(response.headers.get("location")).toContain("error=MissingCSRF");
    expect(jar.cookies.has("authjs.session-token")).toBe(false);
  });

  it("refuses a wrong password with CredentialsSignin and no session", async () => {
    const jar = new CookieJar();
    const response = await signInOverHttp(jar, "wrong password");
    expect(response.headers.get("location")).toBe(
      `${origin}/api/auth/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(jar.cookies.has("authjs.session-token")).toBe(false);
  });
});

describe("server-side signIn and signOut with redirect: false", () => {
  async function call(jar: CookieJar, body: Record<string, unknown>) {
    const response = await fetch(`${origin}/api/test-actions`, {
      method: "POST",
      headers: jar.headers({ "content-type": "application/json" }),
      body: JSON.stringify(body),
    });
    jar.store(response);
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  }

  it("resolve with the URL and set the cookies through cookies()", async () => {
    const jar = new CookieJar();
    const signedIn = await call(jar, {
      action: "signIn",
      provider: "credentials",
      fields: { email: USER.email, password: PASSWORD },
      redirectTo: "/protected",
    });
    expect(signedIn).toEqual({ status: 200, body: { url: `${origin}/protected` } });
    expect(await (await get("/api/me", jar)).json()).toMatchObject({ user: USER });

    // next-auth's shape: `{ redirect, cookies }`, the cookies those that ended the session.
    const signedOut = await call(jar, { action: "signOut", redirectTo: "/bye" });
    expect(signedOut).toMatchObject({ status: 200, body: { url: `${origin}/bye` } });
    expect(signedOut.body.cookies).toContain("authjs.session-token");
    expect(jar.cookies.has("authjs.session-token")).toBe(false);
  });

  it("send an unknown or missing provider to the sign-in page", async () => {
    const expected = `${origin}/api/auth/signin?callbackUrl=%2Fhere`;
    for (const provider of [undefined, "nope", "__proto__"]) {
      const { body } = await call(new CookieJar(), {
        action: "signIn",
        provider,
        redirectTo: "/here",
      });
      expect(body).toEqual({ url: expected });
    }
  });

  it("throw a refused sign-in as an AuthError", async () => {
    const jar = new CookieJar();
    const refused = await call(jar, {
      action: "signIn",
      provider: "credentials",
      fields: { email: USER.email, password: "guess" },
    });
    expect(refused).toEqual({ status: 400, body: { error: "CredentialsSignin" } });
    expect(jar.cookies.has("authjs.session-token")).toBe(false);
  });
});

describe("the built app in Chromium", () => {
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

  it("signs in and out with server actions; the proxy follows the session", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.getByLabel("E-mail").fill(USER.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect
      .poll(() => page.getByTestId("status").textContent())
      .toBe("Signed in as Ada Lovelace (ada@example.com)");
    const cookie = (await browser.context.cookies()).find((c) => c.name === "authjs.session-token");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

    await page.goto(`${origin}/protected`);
    expect(await page.getByTestId("protected-user").textContent()).toBe("Ada Lovelace");
    // unstable_update in a server action: the jwt callback takes the new name.
    await page.getByLabel("Display name").fill("Countess Ada");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect.poll(() => page.getByTestId("protected-user").textContent()).toBe("Countess Ada");

    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => page.getByTestId("status").textContent()).toBe("Not signed in");
    await page.goto(`${origin}/protected`);
    expect(new URL(page.url()).pathname).toBe("/api/auth/signin");
    await page.close();
  });

  it("throws a wrong password to the server action as an AuthError (CredentialsSignin)", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.getByLabel("E-mail").fill(USER.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect
      .poll(() => page.getByTestId("error").textContent())
      .toBe("Wrong e-mail or password.");
    expect(new URL(page.url()).searchParams.get("error")).toBe("CredentialsSignin");
    expect((await browser.context.cookies()).map((c) => c.name)).not.toContain(
      "authjs.session-token",
    );
    await page.close();
  });

  it("drives the session from React: useSession, signIn, update and signOut", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/client`);
    await expect
      .poll(() => page.getByTestId("client-status").textContent())
      .toBe("unauthenticated");
    await page.getByLabel("E-mail").fill(USER.email);
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Sign in here" }).click();
    await expect
      .poll(() => page.getByTestId("client-message").textContent())
      .toBe("Refused: CredentialsSignin");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in here" }).click();
    await expect.poll(() => page.getByTestId("client-status").textContent()).toBe("authenticated");
    expect(await page.getByTestId("client-user").textContent()).toBe(USER.name);

    await page.getByLabel("New name").fill("Grace");
    await page.getByRole("button", { name: "Update name" }).click();
    await expect.poll(() => page.getByTestId("client-user").textContent()).toBe("Grace");
    // The update re-issued the session cookie: the server sees the new name too.
    const session = await page.evaluate(() => fetch("/api/auth/session").then((r) => r.json()));
    expect(session).toMatchObject({ user: { name: "Grace" } });

    await page.getByRole("button", { name: "Sign out here" }).click();
    await expect
      .poll(() => page.getByTestId("client-status").textContent())
      .toBe("unauthenticated");
    await page.close();
  });
});
