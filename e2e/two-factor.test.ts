/**
 * Two-factor authentication end to end in Chromium, on the built-in pages, against a real HTTP
 * server running Tessera with the memory adapter and a real OpenID Provider on 127.0.0.1: enrol
 * with a code computed from the key the page shows, sign out, sign in with credentials and pass
 * the challenge; the same after an OIDC sign-in; a backup code; required enrolment. The pages
 * are also checked in dark mode on a phone-sized viewport (no horizontal scrolling).
 */
import type { AuthConfig } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import Passkey from "@tessera/core/providers/passkey";
import { base32Decode, type TwoFactorOptions, totp, twoFactor } from "@tessera/core/two-factor";
import type { TwoFactorClient } from "@tessera/core/two-factor/client";
import { MemoryAdapter } from "@tessera/memory";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../packages/core/test/fixtures/oidc-provider.js";
import { type AuthServer, startAuthServer } from "./auth-server.js";
import { type LaunchedBrowser, launchBrowser, type Page } from "./browser.js";

const SECRET = "e2e-two-factor-secret-with-32-characters-or-more";
const ADA = { id: "ada", email: "ada@example.com", name: "Ada", emailVerified: null };

let browser: LaunchedBrowser;
const servers: AuthServer[] = [];
const providers: RunningOidcProvider[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all(providers.map((op) => op.close()));
});

/** A server with credentials (ada / pw), the OpenID Provider and two-factor authentication. */
async function twoFactorServer(options: TwoFactorOptions = {}, withPasskeys = false) {
  const adapter = MemoryAdapter();
  await adapter.createUser(ADA);
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    logger: { warn() {}, debug() {} },
    experimental: {
      enableWebAuthn: withPasskeys,
      extensions: [twoFactor({ issuer: "Tessera e2e", ...options })],
    },
    providers: [
      Credentials({
        name: "Password",
        credentials: { username: {}, password: { type: "password" } },
        authorize: (c) => (c.username === "ada" && c.password === "pw" ? ADA : null),
      }),
      ...(withPasskeys ? [Passkey({ relayingParty: { name: "Tessera e2e" } })] : []),
    ],
  };
  const server = await startAuthServer(config);
  servers.push(server);
  // The provider's redirect URI names the server's port, known only now; no request was served
  // yet, so the config is still unresolved and takes the provider added here.
  const op = await startOidcProvider({
    clients: [
      {
        client_id: "app",
        client_secret: "s3cret",
        redirect_uris: [`${server.origin}/auth/callback/op`],
      },
    ],
    accounts: [{ sub: "grace", email: "grace@example.com", email_verified: true, name: "Grace" }],
  });
  providers.push(op);
  config.providers.push({
    id: "op",
    name: "Example OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: "app",
    clientSecret: "s3cret",
  });
  return { server, adapter };
}

/** The client modules as an app's bundler builds them for the browser, on `window`. */
async function browserBundle(): Promise<string> {
  const bundled = await build({
    stdin: {
      contents: [
        'import { signIn, webauthnCeremony } from "@tessera/core/client";',
        'import { twoFactorClient } from "@tessera/core/two-factor/client";',
        'window.twoFactor = twoFactorClient({ baseUrl: "", basePath: "/auth" });',
        'window.registerPasskey = () => signIn({ baseUrl: "", basePath: "/auth" }, "passkey",',
        '  { action: "register", redirect: false }, undefined, { webauthn: webauthnCeremony });',
      ].join("\n"),
      resolveDir: process.cwd(),
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    conditions: ["tessera-source"],
    logLevel: "silent",
  });
  return bundled.outputFiles[0]?.text ?? "";
}

/** What the bundle puts on `window`. */
type AppWindow = { twoFactor: TwoFactorClient; registerPasskey(): Promise<{ ok: boolean }> };

async function freshPage(): Promise<{ page: Page; problems: string[] }> {
  await browser.context.clearCookies();
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(String(error)));
  page.on("console", (message) => {
    // A wrong code answers the challenge page again with 401 on purpose; Chromium logs that.
    const refusedCode = message.text().includes("status of 401");
    if (message.type() === "error" && !refusedCode) problems.push(message.text());
  });
  return { page, problems };
}

async function signInWithPassword(page: Page, origin: string) {
  await page.goto(`${origin}/auth/signin`);
  await page.fill("#credentials-username", "ada");
  await page.fill("#credentials-password", "pw");
  await Promise.all([
    page.waitForLoadState("load"),
    page.getByText("Sign in with Password").click(),
  ]);
}

async function session(page: Page): Promise<{ user?: { email?: string } } | null> {
  return page.evaluate(async () => (await fetch("/auth/session")).json());
}

async function signOut(page: Page, origin: string) {
  await page.goto(`${origin}/auth/signout`);
  await Promise.all([
    page.waitForURL(`${origin}/**`),
    page.getByRole("button", { name: "Sign out" }).click(),
  ]);
  expect(await session(page)).toBeNull();
}

/** Enrols on the built-in pages; returns the key the page showed and the backup codes. */
async function enrolOnPages(page: Page, origin: string) {
  await page.goto(`${origin}/auth/two-factor/enrol`);
  await page.getByRole("button", { name: "Set up authenticator app" }).click();
  await page.waitForSelector(".qr svg");
  const secret = (await page.locator(".key").getAttribute("data-secret")) as string;
  const key = base32Decode(secret) as Uint8Array;
  await page.fill("#code", await totp(key));
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.waitForSelector(".codes li");
  const codes = await page.locator(".codes li").allTextContents();
  expect(codes).toHaveLength(10);
  return { key, codes };
}

/** The code of the next time step: accepted within the drift, never the one just used. */
const nextCode = (key: Uint8Array) => totp(key, { time: Date.now() + 30_000 });

describe("two-factor authentication in Chromium", () => {
  it("enrol → sign out → credentials → challenge → signed in; then a backup code on a trusted browser", async () => {
    const { server } = await twoFactorServer();
    const { origin } = server;
    const { page, problems } = await freshPage();
    await signInWithPassword(page, origin);
    expect(await session(page)).toMatchObject({ user: { email: ADA.email } });
    const { key, codes } = await enrolOnPages(page, origin);
    await Promise.all([page.waitForURL(`${origin}/`), page.getByText("Continue").click()]);
    await signOut(page, origin);

    await signInWithPassword(page, origin);
    expect(page.url()).toBe(`${origin}/auth/two-factor/verify`);
    expect(await session(page)).toBeNull();
    await page.fill("#code", "000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("did not work");
    await page.fill("#code", await nextCode(key));
    await Promise.all([
      page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
      page.getByRole("button", { name: "Verify" }).click(),
    ]);
    expect(await session(page)).toMatchObject({ user: { email: ADA.email } });

    await signOut(page, origin);
    await signInWithPassword(page, origin);
    await page.getByText("Use a backup code").click();
    await page.fill("#backupCode", codes[3] as string);
    // "Don't ask again on this browser": the next sign-in here skips the challenge.
    await page.locator("details input[name=trustDevice]").check();
    await Promise.all([
      page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
      page.getByRole("button", { name: "Use backup code" }).click(),
    ]);
    expect(await session(page)).toMatchObject({ user: { email: ADA.email } });
    await signOut(page, origin);
    await signInWithPassword(page, origin);
    expect(new URL(page.url()).pathname.startsWith("/auth/")).toBe(false);
    expect(await session(page)).toMatchObject({ user: { email: ADA.email } });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("challenges after an OIDC sign-in against the local OpenID Provider", async () => {
    const { server } = await twoFactorServer();
    const { origin } = server;
    const { page, problems } = await freshPage();
    const oidcSignIn = async () => {
      await page.goto(`${origin}/auth/signin`);
      await Promise.all([
        page.waitForURL((url) => url.origin === origin && !url.pathname.startsWith("/auth/signin")),
        page.getByText("Sign in with Example OP").click(),
      ]);
    };
    await oidcSignIn();
    expect(await session(page)).toMatchObject({ user: { email: "grace@example.com" } });
    const { key } = await enrolOnPages(page, origin);
    await signOut(page, origin);
    await oidcSignIn();
    expect(page.url()).toBe(`${origin}/auth/two-factor/verify`);
    expect(await session(page)).toBeNull();
    await page.fill("#code", await nextCode(key));
    await Promise.all([
      page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
      page.getByRole("button", { name: "Verify" }).click(),
    ]);
    expect(await session(page)).toMatchObject({ user: { email: "grace@example.com" } });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("required: a user without a factor enrols during sign-in, then is signed in", async () => {
    const { server } = await twoFactorServer({ required: true });
    const { origin } = server;
    const { page, problems } = await freshPage();
    await signInWithPassword(page, origin);
    expect(page.url()).toBe(`${origin}/auth/two-factor/enrol`);
    await expect(page.locator(".subtitle").textContent()).resolves.toContain("asks for a second");
    expect(await session(page)).toBeNull();
    await page.getByRole("button", { name: "Set up authenticator app" }).click();
    const secret = (await page.locator(".key").getAttribute("data-secret")) as string;
    await page.fill("#code", await totp(base32Decode(secret) as Uint8Array));
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.waitForSelector(".codes li");
    expect(await session(page)).toMatchObject({ user: { email: ADA.email } });
    await Promise.all([
      page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
      page.getByText("Continue").click(),
    ]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("the browser client (@tessera/core/two-factor/client) enrols and passes the challenge", async () => {
    const script = await browserBundle();
    // Nothing of the server (node: modules, the QR encoder) reaches the browser bundle.
    expect(script).not.toMatch(/node:|renderSVG/);
    const { server } = await twoFactorServer();
    const { origin } = server;
    const { page, problems } = await freshPage();
    // The page's script sets `window.twoFactor`; each call below runs in the page, like app code.
    await signInWithPassword(page, origin);
    await page.goto(`${origin}/`);
    await page.addScriptTag({ content: script });
    expect(
      await page.evaluate(() =>
        (window as unknown as { twoFactor: TwoFactorClient }).twoFactor.status(),
      ),
    ).toEqual({
      enabled: false,
      pending: false,
      backupCodesLeft: 0,
    });
    const enrolment = (await page.evaluate(() =>
      (window as unknown as { twoFactor: TwoFactorClient }).twoFactor.enrol(),
    )) as { secret: string; qrSvg: string };
    expect(enrolment.qrSvg).toMatch(/^<svg/);
    const key = base32Decode(enrolment.secret) as Uint8Array;
    const activated = await page.evaluate(
      (code) => (window as unknown as { twoFactor: TwoFactorClient }).twoFactor.activate(code),
      await totp(key),
    );
    expect(activated).toMatchObject({ ok: true });
    expect((activated as { backupCodes: string[] }).backupCodes).toHaveLength(10);
    await signOut(page, origin);
    await signInWithPassword(page, origin);
    expect(page.url()).toBe(`${origin}/auth/two-factor/verify`);
    await page.goto(`${origin}/`);
    await page.addScriptTag({ content: script });
    expect(
      await page.evaluate(() =>
        (window as unknown as { twoFactor: TwoFactorClient }).twoFactor.verify({ code: "000000" }),
      ),
    ).toEqual({
      ok: false,
      error: "TwoFactorCodeInvalid",
    });
    const passed = await page.evaluate(
      (code) => (window as unknown as { twoFactor: TwoFactorClient }).twoFactor.verify({ code }),
      await nextCode(key),
    );
    expect(passed).toEqual({ ok: true, url: origin });
    expect(await session(page)).toMatchObject({ user: { email: ADA.email } });
    expect(problems.filter((p) => !p.includes("status of 401"))).toEqual([]);
    await page.close();
  }, 60_000);

  it("a passkey answers the challenge after a password sign-in", async () => {
    const { server } = await twoFactorServer({}, true);
    const { origin } = server;
    const { page, problems } = await freshPage();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send("WebAuthn.enable", { enableUI: false });
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const script = await browserBundle();
    await signInWithPassword(page, origin);
    await page.goto(`${origin}/`);
    await page.addScriptTag({ content: script });
    // Signed in with the password, Ada adds a passkey and an authenticator app.
    const registered = await page.evaluate(() =>
      (window as unknown as AppWindow).registerPasskey(),
    );
    expect(registered).toMatchObject({ ok: true });
    await enrolOnPages(page, origin);
    await signOut(page, origin);

    // The password form is posted directly: on the sign-in page, the passkey autofill of the
    // virtual authenticator (which always consents) would sign in with the passkey alone.
    const csrf = await (await page.request.get(`${origin}/auth/csrf`)).json();
    const first = await page.request.post(`${origin}/auth/callback/credentials`, {
      form: { csrfToken: csrf.csrfToken, username: "ada", password: "pw", callbackUrl: origin },
      maxRedirects: 0,
    });
    expect(first.headers().location).toBe(`${origin}/auth/two-factor/verify`);
    expect(await session(page)).toBeNull();
    await page.goto(`${origin}/`);
    await page.addScriptTag({ content: script });
    const passed = await page.evaluate(() =>
      (window as unknown as AppWindow).twoFactor.verifyWithPasskey(),
    );
    expect(passed).toEqual({ ok: true, url: origin });
    expect(await session(page)).toMatchObject({
      user: { email: ADA.email },
      authentication: { amr: ["pwd", "hwk", "user", "mfa"] },
    });

    // The built-in challenge page offers the passkey too, under its CSP.
    await signOut(page, origin);
    const again = await page.request.post(`${origin}/auth/callback/credentials`, {
      form: {
        csrfToken: (await (await page.request.get(`${origin}/auth/csrf`)).json()).csrfToken,
        username: "ada",
        password: "pw",
        callbackUrl: `${origin}/after`,
      },
      maxRedirects: 0,
    });
    expect(again.headers().location).toBe(`${origin}/auth/two-factor/verify`);
    await page.goto(`${origin}/auth/two-factor/verify`);
    await Promise.all([
      page.waitForURL(`${origin}/after`),
      page.getByRole("button", { name: "Use a passkey" }).click(),
    ]);
    expect(await session(page)).toMatchObject({
      authentication: { amr: ["pwd", "hwk", "user", "mfa"] },
    });
    expect(problems).toEqual([]);
    await cdp.detach();
    await page.close();
  }, 60_000);

  it("the manage page regenerates backup codes and turns the factor off, each with a code", async () => {
    const { server } = await twoFactorServer();
    const { origin } = server;
    const { page, problems } = await freshPage();
    await signInWithPassword(page, origin);
    const { codes } = await enrolOnPages(page, origin);
    await page.goto(`${origin}/auth/two-factor`);
    await expect(page.locator(".message").textContent()).resolves.toContain("10 backup codes left");
    await page.fill("#regenerate-code", codes[0] as string);
    await page.getByRole("button", { name: "New backup codes" }).click();
    await page.waitForSelector(".codes li");
    const fresh = await page.locator(".codes li").allTextContents();
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[1]);
    await page.getByText("Continue").click();
    await page.fill("#disable-code", "not a code");
    await page.getByRole("button", { name: "Turn off two-factor authentication" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("did not work");
    await page.fill("#disable-code", fresh[0] as string);
    await Promise.all([
      page.waitForURL(`${origin}/auth/two-factor`),
      page.getByRole("button", { name: "Turn off two-factor authentication" }).click(),
    ]);
    await expect(page.locator(".message").textContent()).resolves.toContain("is off");
    expect(problems.filter((p) => !p.includes("status of 400"))).toEqual([]);
    await page.close();
  }, 60_000);

  it("the challenge fits a phone in dark mode", async () => {
    const { server } = await twoFactorServer();
    const { origin } = server;
    const { page, problems } = await freshPage();
    await signInWithPassword(page, origin);
    await enrolOnPages(page, origin);
    await signOut(page, origin);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: "dark" });
    await signInWithPassword(page, origin);
    expect(page.url()).toBe(`${origin}/auth/two-factor/verify`);
    const layout = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      background: getComputedStyle(document.body).backgroundColor,
    }));
    expect(layout.scrollWidth).toBeLessThanOrEqual(360);
    expect(layout.background).toBe("rgb(9, 9, 11)");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
