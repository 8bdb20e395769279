/**
 * The built-in account page in Chromium, against a real HTTP server running Tessera (database
 * sessions, the memory adapter) and a real OpenID Provider on 127.0.0.1 with two clients, seen
 * by Tessera as two providers: sign in with the first, open /auth/account, add a passkey with the
 * CDP virtual authenticator and rename it, change the name (the Signal API calls observed
 * through the page), end another session, link the second provider, unlink it. Then the page in
 * dark mode at 390 px.
 */
import { randomBytes } from "node:crypto";
import type { AuthConfig } from "@tessera/core";
import Passkey from "@tessera/core/providers/passkey";
import { createMemoryStore, MemoryAdapter, type MemoryStore } from "@tessera/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../packages/core/test/fixtures/oidc-provider.js";
import { type AuthServer, startAuthServer } from "./auth-server.js";
import { type LaunchedBrowser, launchBrowser } from "./browser.js";
import { type AuthenticatorPage, pageWithAuthenticator } from "./virtual-authenticator.js";

const SECRET = "e2e-account-secret-with-32-characters-or-more";

let browser: LaunchedBrowser;
let server: AuthServer;
let op: RunningOidcProvider;
let store: MemoryStore;

beforeAll(async () => {
  browser = await launchBrowser();
  store = createMemoryStore();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(store),
    session: { strategy: "database" },
    logger: { warn() {}, debug() {} },
    experimental: { enableWebAuthn: true },
    providers: [Passkey({ relayingParty: { name: "Tessera e2e" }, enableConditionalUI: false })],
  };
  server = await startAuthServer(config);
  // The redirect URIs name the server's port, known only now; no request was served yet, so the
  // config is still unresolved and takes the providers added here.
  op = await startOidcProvider({
    clients: ["op", "work"].map((id) => ({
      client_id: id,
      client_secret: "s3cret",
      redirect_uris: [`${server.origin}/auth/callback/${id}`],
    })),
    accounts: [{ sub: "grace", email: "grace@example.com", email_verified: true, name: "Grace" }],
  });
  for (const [id, name] of [
    ["op", "Example OP"],
    ["work", "Work OP"],
  ] as const)
    config.providers.push({
      id,
      name,
      type: "oidc",
      issuer: op.issuer,
      clientId: id,
      clientSecret: "s3cret",
    });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await op?.close();
});

interface SignalCall {
  name: string;
  options: Record<string, unknown>;
}

/** A page with a virtual authenticator whose Signal API calls are reported to Node. */
async function recordingPage(): Promise<AuthenticatorPage & { signals: SignalCall[] }> {
  const opened = await pageWithAuthenticator(browser);
  const signals: SignalCall[] = [];
  await opened.page.exposeFunction("reportSignal", (name: string, options: string) => {
    signals.push({ name, options: JSON.parse(options) as Record<string, unknown> });
  });
  await opened.page.addInitScript(() => {
    const report = (window as unknown as { reportSignal(name: string, options: string): void })
      .reportSignal;
    const api = window.PublicKeyCredential as unknown as Record<string, unknown> | undefined;
    if (!api) return;
    for (const name of ["signalAllAcceptedCredentials", "signalCurrentUserDetails"]) {
      const original = api[name];
      if (typeof original !== "function") continue;
      api[name] = function (this: unknown, options: unknown) {
        report(name, JSON.stringify(options));
        return (original as (options: unknown) => Promise<void>).call(this, options);
      };
    }
  });
  return { ...opened, signals };
}

describe("the account page in Chromium", () => {
  it("signs in with OIDC, adds and renames a passkey, ends a session, links and unlinks a provider", async () => {
    await browser.context.clearCookies();
    const { page, problems, signals } = await recordingPage();
    const account = `${server.origin}/auth/account`;

    // Signed out: the account page sends the browser to sign in, and back after it.
    await page.goto(account);
    expect(new URL(page.url()).pathname).toBe("/auth/signin");
    await Promise.all([
      page.waitForURL(account),
      page.getByText("Sign in with Example OP").click(),
    ]);
    const ready = () => page.locator("html").getAttribute("data-account-ready");
    await expect.poll(ready).toBe("");
    await expect(page.locator("header h1").textContent()).resolves.toBe("Your account");
    const user = [...store.users.values()].find((u) => u.email === "grace@example.com");
    expect(user).toBeDefined();
    const userId = user?.id ?? "";

    // Add a passkey (the sign-in page's WebAuthn helper, registering for the signed-in user).
    await expect
      .poll(() => page.locator("section#webauthn-passkey").getAttribute("data-webauthn-ready"))
      .toBe("");
    await Promise.all([page.waitForEvent("load"), page.getByText("Add a passkey").click()]);
    const row = page.locator("li[data-passkey-id]");
    await expect.poll(() => row.count()).toBe(1);
    const passkeyId = (await row.getAttribute("data-passkey-id")) ?? "";

    // Rename it: the passkeys action answers, the page signals the accepted ids and reloads.
    await row.locator('input[name="name"]').fill("Work laptop");
    await Promise.all([
      page.waitForEvent("load"),
      row.getByRole("button", { name: "Rename" }).click(),
    ]);
    await expect
      .poll(() => page.locator("li[data-passkey-id] .row-title").textContent())
      .toContain("Work laptop");
    const accepted = signals.find((call) => call.name === "signalAllAcceptedCredentials");
    expect(accepted?.options).toMatchObject({
      rpId: "localhost",
      allAcceptedCredentialIds: [passkeyId],
    });

    // A new name: saved by the account action, then told to the authenticator.
    await page.locator("#name").fill("Grace Hopper");
    await Promise.all([
      page.waitForURL(`${account}?notice=name-saved`),
      page.getByRole("button", { name: "Save name" }).click(),
    ]);
    await expect
      .poll(() => signals.find((call) => call.name === "signalCurrentUserDetails")?.options)
      .toMatchObject({ rpId: "localhost", name: "grace@example.com", displayName: "Grace Hopper" });
    expect(store.users.get(userId)?.name).toBe("Grace Hopper");

    // Another session of this user (a second device); the page ends it.
    const otherToken = randomBytes(16).toString("hex");
    store.sessions.set(otherToken, {
      sessionToken: otherToken,
      userId,
      expires: new Date(Date.now() + 86_400_000),
      createdAt: new Date(),
      lastSeenAt: new Date(),
      ip: "192.0.2.7",
      userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/605.1.15",
    });
    await page.reload();
    await expect.poll(ready).toBe("");
    const sessions = page.locator("li[data-session-id]");
    await expect.poll(() => sessions.count()).toBe(2);
    await Promise.all([
      page.waitForEvent("load"),
      page.getByRole("button", { name: "End session" }).click(),
    ]);
    await expect.poll(() => page.locator("li[data-session-id]").count()).toBe(1);
    expect(store.sessions.has(otherToken)).toBe(false);

    // Link the second provider: its sign-in, while signed in, links it to this user.
    await Promise.all([page.waitForURL(account), page.getByText("Link Work OP").click()]);
    await expect.poll(() => page.locator('li[data-provider="work"]').count()).toBe(1);

    // Unlink it: a fresh sign-in passes step-up, and two other ways in stay.
    await Promise.all([
      page.waitForURL(`${account}?notice=unlinked`),
      page.locator('li[data-provider="work"]').getByRole("button", { name: "Unlink" }).click(),
    ]);
    await expect(page.getByRole("status").textContent()).resolves.toContain("unlinked");
    expect(await page.locator('li[data-provider="work"]').count()).toBe(0);
    await expect(page.getByText("Link Work OP").count()).resolves.toBe(1);
    const accounts = await MemoryAdapter(store).listAccountsByUserId?.(userId);
    expect(accounts?.map((linked) => linked.provider).sort()).toEqual(["op", "passkey"]);

    // Step-up: the session signed in an hour ago (a stolen cookie, a shared computer), so
    // deleting the passkey sends the browser to sign in again, and back to the page.
    for (const session of store.sessions.values())
      if (session.userId === userId) session.createdAt = new Date(Date.now() - 3_600_000);
    const passkeyRow = page.locator(`li[data-passkey-id="${passkeyId}"]`);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/auth/signin"),
      passkeyRow.getByRole("button", { name: "Delete" }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(account);
    expect(store.authenticators.size).toBe(1);
    // The browser logs the refused request (403 StepUpRequired); it is the one expected.
    expect(problems).toEqual([expect.stringContaining("status of 403")]);
    problems.length = 0;
    await Promise.all([
      page.waitForURL(account),
      page.getByText("Sign in with Example OP").click(),
    ]);
    await expect.poll(ready).toBe("");
    // Signed in just now: the deletion goes through (the OpenID account stays as a way in).
    await Promise.all([
      page.waitForEvent("load"),
      page
        .locator(`li[data-passkey-id="${passkeyId}"]`)
        .getByRole("button", { name: "Delete" })
        .click(),
    ]);
    await expect.poll(() => page.locator("li[data-passkey-id]").count()).toBe(0);
    expect(store.authenticators.size).toBe(0);

    expect(problems).toEqual([]);
    await page.close();
  });

  it("fits a 390 px phone in dark mode without horizontal scrolling", async () => {
    await browser.context.clearCookies();
    const { page, problems } = await recordingPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${server.origin}/auth/account`);
    await Promise.all([
      page.waitForURL(`${server.origin}/auth/account`),
      page.getByText("Sign in with Example OP").click(),
    ]);
    const layout = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      background: getComputedStyle(document.body).backgroundColor,
      wide: [...document.querySelectorAll("body *")].filter(
        (element) => element.getBoundingClientRect().right > window.innerWidth + 0.5,
      ).length,
    }));
    expect(layout.scrollWidth).toBeLessThanOrEqual(390);
    // The alert the script fills stays out of sight while there is nothing to say.
    expect(await page.locator("#account-alert").isVisible()).toBe(false);
    expect(layout.wide).toBe(0);
    expect(layout.background).toBe("rgb(9, 9, 11)");
    expect(problems).toEqual([]);
    await page.close();
  });
});
