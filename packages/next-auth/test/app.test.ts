/**
 * The next-auth v4 example (examples/next-auth-v4: Pages Router `[...nextauth].ts`,
 * `getServerSideProps` with `getServerSession`, `_app.tsx` with `SessionProvider`,
 * `useSession({ required: true })`, an App Router server component, `middleware.ts` with
 * `withAuth`, an API route with `getToken`) built once with `next build`, served by `next start`
 * and driven in Chromium: credentials and OIDC sign-in against the local OpenID Provider, a
 * session cookie minted by next-auth@4.24.15 itself surviving the switch, and Tessera's cookie
 * read back by next-auth v4 (rollback).
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser } from "../../../e2e/browser.js";
import { buildPackages } from "../../core/test/fixtures/build.js";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../../core/test/fixtures/oidc-provider.js";
import { freePort } from "../../core/test/fixtures/ports.js";
import {
  buildNextApp,
  copyExample,
  newAppDir,
  type RunningNextApp,
  startNextApp,
} from "../../next/test/next-app.js";
import { type ApiHandler, ImplClient, startPagesApi } from "./pages-api.js";

const require = createRequire(import.meta.url);
const v4NextAuth = (require("next-auth") as { default: (...args: unknown[]) => unknown }).default;
const v4Credentials = (
  require("next-auth/providers/credentials") as { default: (options: unknown) => unknown }
).default;

const SECRET = "example-app-secret-of-thirty-two-characters";
const PASSWORD = "correct horse battery staple";
const ADA = { name: "Ada Lovelace", email: "ada@example.com" };

let running: RunningNextApp | undefined;
let op: RunningOidcProvider | undefined;
let browser: LaunchedBrowser;
let origin = "";

/**
 * next-auth v4 itself, serving the same app's `/api/auth/*` with the same credentials and
 * callbacks on another port: it mints the cookie an existing v4 site would have set, and reads
 * Tessera's back as a rolled-back site would.
 */
let v4Site: { origin: string; close: () => Promise<void> } | undefined;

function v4Options() {
  return {
    secret: SECRET,
    providers: [
      v4Credentials({
        credentials: { username: {}, password: {} },
        authorize: async (fields: Record<string, string> | undefined) =>
          fields?.username === "ada" && fields.password === PASSWORD ? { id: "ada", ...ADA } : null,
      }),
    ],
    callbacks: {
      jwt: async ({
        token,
        user,
      }: {
        token: Record<string, unknown>;
        user?: { email?: string };
      }) => {
        if (user) token.role = user.email === ADA.email ? "admin" : "user";
        return token;
      },
      session: async ({
        session,
        token,
      }: {
        session: { user?: object };
        token: { role?: string };
      }) => ({
        ...session,
        user: { ...session.user, role: token.role },
      }),
    },
  };
}

beforeAll(async () => {
  await buildPackages(
    ["packages/core", "packages/next", "packages/next-auth"],
    [
      "packages/core/dist/index.js",
      "packages/next/dist/index.js",
      "packages/next-auth/dist/index.js",
    ],
  );
  const port = await freePort();
  op = await startOidcProvider({
    clients: [
      {
        client_id: "example",
        client_secret: "example-secret",
        redirect_uris: [`http://127.0.0.1:${port}/api/auth/callback/op`],
      },
    ],
    accounts: [
      { sub: "grace", email: "grace@example.com", email_verified: true, name: "Grace Hopper" },
    ],
  });
  const dir = await newAppDir("next-auth-v4-");
  await copyExample("next-auth-v4", dir);
  await buildNextApp(dir);
  running = await startNextApp(
    dir,
    (site) => ({
      NEXTAUTH_URL: site,
      NEXTAUTH_SECRET: SECRET,
      DEMO_PASSWORD: PASSWORD,
      OIDC_ISSUER: op?.issuer ?? "",
      OIDC_CLIENT_ID: "example",
      OIDC_CLIENT_SECRET: "example-secret",
    }),
    port,
  );
  origin = running.origin;
  const options = v4Options();
  v4Site = await startPagesApi({
    v4: ((req: unknown, res: unknown) => v4NextAuth(req, res, options)) as ApiHandler,
    tessera: () => {
      throw new Error("this server runs next-auth v4 only");
    },
  });
  browser = await launchBrowser();
}, 300_000);

beforeEach(async ({ onTestFailed }) => {
  onTestFailed(() => console.log(`next start log:\n${running?.log().slice(-4000)}`));
  await browser?.context.clearCookies();
});

afterAll(async () => {
  await browser?.close();
  await running?.close();
  await v4Site?.close();
  await op?.close();
});

async function sessionCookie(): Promise<string | undefined> {
  const cookies = await browser.context.cookies(origin);
  return cookies.find((cookie) => cookie.name === "next-auth.session-token")?.value;
}

async function setSessionCookie(value: string): Promise<void> {
  await browser.context.addCookies([
    { name: "next-auth.session-token", value, url: origin, httpOnly: true, sameSite: "Lax" },
  ]);
}

/** Every way the app reads the session, as the signed-in user's name (or what it shows instead). */
async function namesEverywhere(): Promise<Record<string, string | null>> {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/ssr`);
    const ssr = await page.getByTestId("ssr-user").textContent();
    await page.goto(`${origin}/server`);
    const server = await page.getByTestId("server-user").textContent();
    await page.goto(`${origin}/dashboard`);
    // The dashboard reads the session on the client: "…" until useSession has it.
    await expect.poll(() => page.getByTestId("dashboard-user").textContent()).not.toBe("…");
    const dashboard = await page.getByTestId("dashboard-user").textContent();
    await page.goto(`${origin}/`);
    await expect.poll(() => page.getByTestId("status").textContent()).not.toBe("Loading…");
    const client = await page.getByTestId("status").textContent();
    const token = await page.evaluate(async () => (await fetch("/api/token")).json());
    const route = await page.evaluate(async () => (await fetch("/api/whoami")).json());
    return {
      ssr,
      server,
      dashboard,
      client,
      tokenEmail: (token as { email?: string }).email ?? null,
      routeEmail: (route as { email?: string | null }).email ?? JSON.stringify(route),
    };
  } finally {
    await page.close();
  }
}

describe("the v4 app on Tessera, in Chromium", () => {
  it("sends a signed-out visitor from /dashboard to the sign-in page (withAuth)", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/dashboard`);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/api/auth/signin");
    expect(url.searchParams.get("callbackUrl")).toBe("/dashboard");
    await page.close();
  });

  it("signs in with credentials on the built-in page; every session read sees the user", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/dashboard`);
    await page.getByRole("textbox", { name: "User name" }).fill("ada");
    await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in with Password" }).click();
    await page.waitForURL(`${origin}/dashboard`);
    await expect.poll(() => page.getByTestId("dashboard-user").textContent()).toBe(ADA.name);
    await page.close();
    expect(await namesEverywhere()).toEqual({
      ssr: ADA.name,
      server: ADA.name,
      dashboard: ADA.name,
      client: `Signed in as ${ADA.name}`,
      tokenEmail: ADA.email,
      routeEmail: ADA.email,
    });
  });

  it("signs in and out with the v4 client (signIn redirect: false, signOut)", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.getByLabel("User name").fill("ada");
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect.poll(() => page.getByTestId("error").textContent()).toBe("CredentialsSignin");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect
      .poll(() => page.getByTestId("status").textContent())
      .toBe(`Signed in as ${ADA.name}`);
    expect(await page.getByTestId("role").textContent()).toBe("admin");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => page.getByTestId("status").textContent()).toBe("Not signed in");
    expect(await sessionCookie()).toBeUndefined();
    await page.close();
  });

  it("signs in with the OpenID Provider (wellKnown, idToken, PKCE, state)", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: "Sign in with Local OP" }).click();
    await expect
      .poll(() => page.getByTestId("status").textContent(), { timeout: 15_000 })
      .toBe("Signed in as Grace Hopper");
    expect(await page.getByTestId("role").textContent()).toBe("user");
    await page.goto(`${origin}/admin`);
    // withAuth's authorized callback: not an admin, so back to sign in.
    expect(new URL(page.url()).pathname).toBe("/api/auth/signin");
    await page.close();
  });

  it("useSession({ required: true }) sends a signed-out visitor to sign in", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/required`);
    await page.waitForURL((url) => url.pathname === "/api/auth/signin");
    expect(new URL(page.url()).searchParams.get("error")).toBe("SessionRequired");
    await page.close();
  });
});

describe("nobody is signed out by the switch, nor by a rollback", () => {
  it("a session cookie minted by next-auth v4 is a session on the Tessera app", async () => {
    const v4 = new ImplClient(v4Site?.origin ?? "", "v4");
    const csrfToken = await v4.csrfToken("/api/auth");
    await v4.postForm("/api/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: PASSWORD,
      json: "true",
    });
    const minted = v4.jar.get("next-auth.session-token");
    expect(minted).toBeDefined();
    await setSessionCookie(minted ?? "");
    expect(await namesEverywhere()).toEqual({
      ssr: ADA.name,
      server: ADA.name,
      dashboard: ADA.name,
      client: `Signed in as ${ADA.name}`,
      tokenEmail: ADA.email,
      routeEmail: ADA.email,
    });
    const page = await browser.newPage();
    await page.goto(`${origin}/admin`);
    expect(await page.getByTestId("admin").textContent()).toBe("Admin area");
    await page.close();
  });

  it("the Tessera app's session cookie is a session on next-auth v4 again (rollback)", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.getByLabel("User name").fill("ada");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect
      .poll(() => page.getByTestId("status").textContent())
      .toBe(`Signed in as ${ADA.name}`);
    await page.close();
    const cookie = await sessionCookie();
    expect(cookie).toBeDefined();

    const v4 = new ImplClient(v4Site?.origin ?? "", "v4");
    v4.jar.set("next-auth.session-token", cookie ?? "");
    const session = (await (await v4.get("/api/auth/session")).json()) as {
      user?: Record<string, unknown>;
    };
    expect(session.user).toEqual({ ...ADA, image: undefined, role: "admin" });
  });
});
