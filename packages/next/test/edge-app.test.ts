/**
 * The edge-middleware example (examples/next-edge) built once with `next build`, served by
 * `next start`, and driven over HTTP and in Chromium. Its middleware.ts is `export { auth as
 * middleware }`, which Next.js compiles for the Edge runtime: the JWT session cookie is read there
 * without a database, while the route handlers, on Node, store users and accounts in SQLite
 * through @tessera/sql. One configuration (auth.ts) serves both; the edge bundle is checked to
 * contain neither the adapter nor its driver. The OpenID Provider is the real oidc-provider on
 * 127.0.0.1.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { encode } from "@auth/core/jwt";
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser } from "../../../e2e/browser.js";
import { buildPackages } from "../../core/test/fixtures/build.js";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../../core/test/fixtures/oidc-provider.js";
import { freePort } from "../../core/test/fixtures/ports.js";
import { CookieJar } from "./helpers.js";
import {
  buildNextApp,
  copyExample,
  newAppDir,
  type RunningNextApp,
  startNextApp,
} from "./next-app.js";

const SECRET = randomBytes(32).toString("base64url");
const CLIENT = { id: "next-edge", secret: randomBytes(16).toString("hex") };
const GRACE = {
  sub: "grace",
  email: "grace@example.com",
  email_verified: true,
  name: "Grace Hopper",
};
const SESSION_COOKIE = "authjs.session-token";

let appDir = "";
let origin = "";
let app: RunningNextApp | undefined;
let op: RunningOidcProvider | undefined;

beforeAll(async () => {
  await buildPackages(
    ["packages/core", "packages/next", "packages/sql"],
    ["packages/core/dist/index.js", "packages/next/dist/index.js", "packages/sql/dist/index.js"],
  );
  // The OpenID Provider registers the app's callback URL before the app starts.
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  op = await startOidcProvider({
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [`${origin}/api/auth/callback/oidc`],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    accounts: [GRACE],
  });
  appDir = await newAppDir("next-edge-");
  await copyExample("next-edge", appDir);
  await buildNextApp(appDir);
  const issuer = op.issuer;
  app = await startNextApp(
    appDir,
    (url) => ({
      AUTH_SECRET: SECRET,
      // AUTH_URL names the public origin (Next.js itself reports "localhost").
      AUTH_URL: url,
      AUTH_OIDC_ISSUER: issuer,
      AUTH_OIDC_ID: CLIENT.id,
      AUTH_OIDC_SECRET: CLIENT.secret,
      DATABASE_URL: `sqlite:${join(appDir, "auth.sqlite")}`,
    }),
    port,
  );
}, 420_000);

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.log(`next start log:\n${app?.log().slice(-4000)}`));
});

afterAll(async () => {
  // close() also removes the app's folder.
  await app?.close();
  await op?.close();
});

/** `fetch` on the app with the jar's cookies, redirects not followed. */
async function get(path: string, jar = new CookieJar()): Promise<Response> {
  const response = await fetch(`${origin}${path}`, { headers: jar.headers(), redirect: "manual" });
  jar.store(response);
  return response;
}

describe("the build", () => {
  it("compiles middleware.ts for the Edge runtime, with neither the adapter nor its driver", () => {
    const manifest = JSON.parse(
      readFileSync(join(appDir, ".next/server/middleware-manifest.json"), "utf8"),
    ) as { middleware: Record<string, { files: string[] }> };
    const middleware = manifest.middleware["/"];
    expect(middleware?.files.length).toBeGreaterThan(0);
    // Next.js puts what runs on the Edge runtime under server/edge/.
    for (const file of middleware?.files ?? []) expect(file).toMatch(/^server\/edge\//);
    const bundle = (middleware?.files ?? [])
      .map((file) => readFileSync(join(appDir, ".next", file), "utf8"))
      .join("\n");
    // Tessera is there: the middleware reads the session cookie itself.
    expect(bundle).toContain("authjs.session-token");
    for (const nodeOnly of ["better-sqlite3", "sqlAdapterFromUrl", "tessera_migration"])
      expect(bundle).not.toContain(nodeOnly);
  });
});

describe("the edge middleware over HTTP", () => {
  it("sends a visitor without a session from /dashboard to the sign-in page", async () => {
    const response = await get("/dashboard");
    expect(response.status).toBe(307);
    // The Edge runtime sends a same-origin redirect as a path.
    expect(new URL(response.headers.get("location") ?? "", origin).href).toBe(
      `${origin}/api/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`,
    );
  });

  it("lets in a session cookie that @auth/core sealed: the JWT is read on the edge", async () => {
    const jar = new CookieJar();
    jar.cookies.set(
      SESSION_COOKIE,
      await encode({
        token: { sub: "linus", name: "Linus", email: "linus@example.com" },
        secret: SECRET,
        salt: SESSION_COOKIE,
      }),
    );
    const response = await get("/dashboard", jar);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('data-testid="dashboard-user">Linus');
  });

  it("turns away a cookie sealed with another secret, and a malformed one, without an error", async () => {
    for (const value of [
      await encode({
        token: { sub: "mallory", name: "Mallory" },
        secret: randomBytes(32).toString("hex"),
        salt: SESSION_COOKIE,
      }),
      "not.a.jwe%%",
    ]) {
      const jar = new CookieJar();
      jar.cookies.set(SESSION_COOKIE, value);
      const response = await get("/dashboard", jar);
      expect(response.status).toBe(307);
    }
  });
});

describe("the app in Chromium", () => {
  let browser: LaunchedBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("signs in with OpenID on Node, stores the user, and the edge middleware follows the session", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/api/auth/signin");

    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: "Sign in with OpenID" }).click();
    await page.waitForURL(`${origin}/dashboard`);
    expect(await page.getByTestId("dashboard-user").textContent()).toBe(GRACE.name);

    // The route handler on Node reads the user and the account the sign-in stored.
    const me = await page.evaluate(() => fetch("/api/me").then((response) => response.json()));
    expect(me).toMatchObject({
      user: { name: GRACE.name, email: GRACE.email },
      stored: { email: GRACE.email, name: GRACE.name },
      providers: ["oidc"],
    });
    const db = new Database(join(appDir, "auth.sqlite"), { readonly: true });
    try {
      const accounts = db.prepare('select provider, "providerAccountId" from accounts').all() as {
        provider: string;
        providerAccountId: string;
      }[];
      expect(accounts).toEqual([{ provider: "oidc", providerAccountId: GRACE.sub }]);
    } finally {
      db.close();
    }

    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => page.getByTestId("status").textContent()).toBe("Not signed in");
    await page.goto(`${origin}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/api/auth/signin");
    await page.close();
  });
});
