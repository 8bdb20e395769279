/**
 * @tessera/sveltekit in a real SvelteKit 2 app (test/app): built with `vite build`, served by
 * adapter-node on 127.0.0.1, driven over HTTP and, for the client module, in Chromium.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../../../e2e/browser.js";
import { HttpClient } from "../../express/test/http-client.js";

const here = dirname(fileURLToPath(import.meta.url));
const appDir = join(here, "app");
const viteBin = join(
  dirname(createRequire(import.meta.url).resolve("vite/package.json")),
  "bin/vite.js",
);

let workDir: string;
let server: ChildProcess | undefined;
let origin: string;

/** Runs `node args` in `cwd`; resolves with its output, rejects with it on a non-zero exit. */
async function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env } });
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

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts the adapter-node build; resolves once it listens. */
async function startServer(buildDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [buildDir], {
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      // adapter-node assumes https unless told the public origin.
      ORIGIN: `http://127.0.0.1:${port}`,
      AUTH_SECRET: "sveltekit-example-secret-at-least-32-chars",
      AUTH_TRUST_HOST: "true",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Listening on")) resolve();
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return child;
}

beforeAll(async () => {
  await mkdir(join(here, "../.svelte-kit"), { recursive: true });
  workDir = await mkdtemp(join(here, "../.svelte-kit/test-"));
  const buildDir = join(workDir, "build");
  await run([viteBin, "build"], appDir, {
    TESSERA_KIT_OUT: join(workDir, "kit"),
    TESSERA_KIT_BUILD: buildDir,
  });
  const port = await freePort();
  server = await startServer(buildDir, port);
  origin = `http://127.0.0.1:${port}`;
}, 240_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill();
    await once(server, "exit");
  }
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** What a browser sends with a plain (not enhanced) form post. */
function formHeaders(from = origin): Record<string, string> {
  return { origin: from, accept: "text/html", referer: `${origin}/signin` };
}

async function homeStatus(client: HttpClient): Promise<string | undefined> {
  const html = await (await client.get("/")).text();
  return /<p id="status">(.*?)<\/p>/.exec(html)?.[1];
}

/** Signs in through the /signin form action (which calls `signIn` from SvelteKitAuth). */
function signInWithFormAction(
  client: HttpClient,
  password = "lovelace",
  redirectTo = "/protected",
) {
  return client.postForm(
    "/signin",
    { providerId: "credentials", username: "ada", password, redirectTo },
    formHeaders(),
  );
}

describe("a SvelteKit app with SvelteKitAuth", () => {
  it("renders the signed-out state and redirects the protected prefix to sign-in", async () => {
    const client = new HttpClient(origin);
    expect(await homeStatus(client)).toBe("Not signed in");
    const response = await client.get("/protected/anything?x=1");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      "/signin?redirectTo=%2Fprotected%2Fanything%3Fx%3D1",
    );
  });

  it("signs in through the signIn form action and renders the session server-side", async () => {
    const client = new HttpClient(origin);
    const response = await signInWithFormAction(client);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${origin}/protected`);
    const session = client.lastSetCookies.find((c) => c.name === "authjs.session-token");
    expect(session?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });

    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Secret for ada@example.com");
  });

  it("answers an enhanced (fetch) form action with a redirect result", async () => {
    const client = new HttpClient(origin);
    const response = await client.postForm(
      "/signin",
      { providerId: "credentials", username: "ada", password: "lovelace", redirectTo: "/" },
      { origin, "x-sveltekit-action": "true" },
    );
    expect(await response.json()).toEqual({
      type: "redirect",
      status: 303,
      location: `${origin}/`,
    });
    expect(client.jar.has("authjs.session-token")).toBe(true);
  });

  it("throws CredentialsSignin to the form action, which answers 400 in the page", async () => {
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

  it("refuses a cross-site form post before it reaches signIn (login CSRF)", async () => {
    const client = new HttpClient(origin);
    const response = await client.postForm(
      "/signin",
      { providerId: "credentials", username: "ada", password: "lovelace" },
      formHeaders("http://evil.example"),
    );
    expect(response.status).toBe(403);
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("signs out through the signOut form action", async () => {
    const client = new HttpClient(origin);
    await signInWithFormAction(client);
    const response = await client.postForm("/signout", { redirectTo: "/" }, formHeaders());
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${origin}/`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect(await homeStatus(client)).toBe("Not signed in");
    expect((await client.get("/protected")).status).toBe(303);
  });

  it("serves the /auth endpoints: CSRF + credentials sign-in, session, sign-out", async () => {
    const client = new HttpClient(origin);
    const providers = await (await client.get("/auth/providers")).json();
    expect(providers).toMatchObject({
      credentials: { callbackUrl: `${origin}/auth/callback/credentials` },
    });
    const csrfToken = await client.csrfToken();
    const signedIn = await client.postForm(
      "/auth/callback/credentials",
      { csrfToken, username: "ada", password: "lovelace", callbackUrl: "/protected" },
      { origin },
    );
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`${origin}/protected`);
    expect(await (await client.get("/auth/session")).json()).toMatchObject({
      user: { name: "Ada Lovelace", email: "ada@example.com" },
    });
    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");

    // The sign-in rotated the CSRF token: the one from before is refused, a fresh one works.
    const stale = await client.postForm(
      "/auth/signout",
      { csrfToken, callbackUrl: "/" },
      { origin },
    );
    expect(stale.headers.get("location")).toBe(`${origin}/auth/signout?csrf=true`);
    expect(client.jar.has("authjs.session-token")).toBe(true);
    const signedOut = await client.postForm(
      "/auth/signout",
      { csrfToken: await client.csrfToken(), callbackUrl: "/" },
      { origin },
    );
    expect(signedOut.status).toBe(302);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect(await (await client.get("/auth/session")).json()).toBeNull();
  });

  it("keeps the double-submit CSRF check on the /auth endpoints", async () => {
    const client = new HttpClient(origin);
    await client.csrfToken();
    const response = await client.postForm(
      "/auth/callback/credentials",
      { csrfToken: "0".repeat(64), username: "ada", password: "lovelace" },
      { origin },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });
});

describe("@tessera/sveltekit/client in Chromium", () => {
  it("signs in with signIn('credentials', …) and out with signOut()", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/client`);
      // The client code runs after hydration.
      await page.waitForFunction(() => document.querySelector("#signin") !== null);
      await page.fill('input[name="username"]', "ada");
      await page.fill('input[name="password"]', "wrong");
      await page.click("#signin");
      await page.waitForSelector("text=Sign-in failed: CredentialsSignin");

      await page.fill('input[name="password"]', "lovelace");
      await page.click("#signin");
      await page.waitForURL(`${origin}/`);
      expect(await page.textContent("#status")).toBe("Signed in as Ada Lovelace (ada@example.com)");

      await page.goto(`${origin}/client`);
      await page.click("#signout");
      await page.waitForURL(`${origin}/`);
      expect(await page.textContent("#status")).toBe("Not signed in");
    } finally {
      await browser.close();
    }
  });
});
