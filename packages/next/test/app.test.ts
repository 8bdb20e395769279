/**
 * The example app (examples/next, the README's example) built with `next build`, served by
 * `next start` on 127.0.0.1, and driven by real HTTP requests and headless Chromium: route
 * handlers, the proxy (middleware) with the `authorized` callback, server components, server
 * actions and the React client.
 */
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser } from "../../../e2e/browser.js";
import { CookieJar } from "./helpers.js";
import {
  buildNextApp,
  buildWorkspacePackages,
  copyExample,
  newAppDir,
  type RunningNextApp,
  startNextApp,
} from "./next-app.js";

const USER = { name: "Ada Lovelace", email: "ada@example.com" };
const PASSWORD = "correct horse battery staple";

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

/**
 * Test-only route: a `NextAuth` of its own (no passkey provider) whose `actionRunner()` and
 * `passkeys` read the request through `headers()`, as in server components and actions.
 */
const TEST_SERVER_FUNCTIONS_ROUTE = `import NextAuth, { AuthError } from "@tessera/next";

const { actionRunner, passkeys } = NextAuth({ providers: [] });

export async function GET() {
  const answer = await (await actionRunner())({ action: "csrf" });
  let passkeysError = "";
  try {
    await passkeys.list();
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    passkeysError = error.message;
  }
  return Response.json({ csrf: answer.body, passkeysError });
}
`;

/**
 * Builds a private copy of the example with `config` merged over its own next.config.mjs and a
 * test-only route, and serves it with `next start`.
 */
async function startExample(config: Record<string, unknown> = {}): Promise<RunningNextApp> {
  const appDir = await newAppDir("app-");
  await copyExample("next", appDir, config);
  // Test-only route calling the server-side signIn/signOut with `redirect: false` (in the app,
  // they run in server actions, which Next.js protects against cross-site posts; this does not).
  await mkdir(join(appDir, "app/api/test-actions"), { recursive: true });
  await writeFile(join(appDir, "app/api/test-actions/route.ts"), TEST_ACTIONS_ROUTE);
  await mkdir(join(appDir, "app/api/test-server-functions"), { recursive: true });
  await writeFile(
    join(appDir, "app/api/test-server-functions/route.ts"),
    TEST_SERVER_FUNCTIONS_ROUTE,
  );
  await buildNextApp(appDir);
  // AUTH_URL names the public origin (Next.js itself reports "localhost") and implies trustHost.
  return startNextApp(appDir, (origin) => ({
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    AUTH_URL: origin,
  }));
}

let example: RunningNextApp | undefined;
let origin = "";

beforeAll(async () => {
  await buildWorkspacePackages();
  // As the example ships: Cache Components on, as create-next-app writes next.config today.
  example = await startExample();
  origin = example.origin;
}, 300_000);

beforeEach(({ onTestFailed }) => {
  // The server's side of a failure: its log (errors of the app and of Tessera).
  onTestFailed(() => console.log(`next start log:\n${example?.log().slice(-4000)}`));
});

afterAll(async () => {
  await example?.close();
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

describe("pages that read the session, with Cache Components as create-next-app enables it", () => {
  it("streams the session into a page behind its Suspense boundary; the shell is prerendered", async () => {
    const visitor = await (await get("/")).text();
    expect(visitor).toContain('data-testid="loading"');
    expect(visitor).toContain('data-testid="status">Not signed in');

    const jar = new CookieJar();
    await signInOverHttp(jar);
    expect(await (await get("/", jar)).text()).toMatch(/Signed in as (<!-- -->)?Ada Lovelace/);
  });

  it("renders SessionProvider from the server's session: authenticated in the first HTML", async () => {
    const jar = new CookieJar();
    await signInOverHttp(jar);
    const html = await (await get("/client/server-session", jar)).text();
    expect(html).toContain('data-testid="client-status">authenticated');
    expect(html).toContain('data-testid="client-user">Ada Lovelace');
    const visitor = await (await get("/client/server-session")).text();
    expect(visitor).toContain('data-testid="client-status">unauthenticated');
  });
});

describe("the same app built with Cache Components off", () => {
  let off: RunningNextApp | undefined;
  beforeAll(async () => {
    off = await startExample({ cacheComponents: false, partialPrefetching: false });
  }, 300_000);
  afterAll(async () => {
    await off?.close();
  });

  it("signs in over HTTP; server pages, the proxy and SessionProvider see the session", async () => {
    const at = off?.origin ?? "";
    const jar = new CookieJar();
    const read = async (path: string) => {
      const response = await fetch(`${at}${path}`, { headers: jar.headers(), redirect: "manual" });
      jar.store(response);
      return response;
    };
    expect(await (await read("/")).text()).toContain('data-testid="status">Not signed in');
    expect((await read("/protected")).status).toBe(307);

    const { csrfToken: token } = (await (await read("/api/auth/csrf")).json()) as {
      csrfToken: string;
    };
    const signedIn = await fetch(`${at}/api/auth/callback/credentials`, {
      method: "POST",
      headers: jar.headers({ "content-type": "application/x-www-form-urlencoded" }),
      body: new URLSearchParams({ csrfToken: token, email: USER.email, password: PASSWORD }),
      redirect: "manual",
    });
    jar.store(signedIn);
    expect(signedIn.status).toBe(302);

    expect(await (await read("/")).text()).toMatch(/Signed in as (<!-- -->)?Ada Lovelace/);
    const protectedPage = await read("/protected");
    expect(protectedPage.status).toBe(200);
    expect(await protectedPage.text()).toContain('data-testid="protected-user">Ada Lovelace');
    expect(await (await read("/client/server-session")).text()).toContain(
      'data-testid="client-status">authenticated',
    );
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

describe("server functions with the request's headers()", () => {
  it("actionRunner() runs an action in-process and writes its cookie; passkeys names its fix", async () => {
    const response = await get("/api/test-server-functions");
    const { csrf, passkeysError } = await response.json();
    expect(csrf).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(response.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^authjs\.csrf-token=/),
    ]);
    // The route's config has no passkey provider: the passkeys action ran, and refused.
    expect(passkeysError).toMatch(/needs a WebAuthn provider/);
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
