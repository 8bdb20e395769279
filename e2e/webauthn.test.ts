/**
 * Passkeys end to end: headless Chromium with a CDP virtual authenticator (a CTAP2 platform
 * authenticator with resident keys and user verification) registers a passkey on the built-in
 * sign-in page, signs out through the sign-out page, and signs in again with the passkey, against
 * a real HTTP server running Tessera with the Passkey provider and the memory adapter.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { AuthConfig } from "@tessera/core";
import Passkey from "@tessera/core/providers/passkey";
import { createMemoryStore, MemoryAdapter, type MemoryStore } from "@tessera/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthServer, startAuthServer } from "./auth-server.js";
import { type LaunchedBrowser, launchBrowser, type Page } from "./browser.js";
import {
  type AuthenticatorPage,
  pageWithAuthenticator as openAuthenticatorPage,
} from "./virtual-authenticator.js";

const ARTIFACTS = join(process.cwd(), "test-artifacts", "webauthn");
const SECRET = "e2e-webauthn-secret-with-32-characters-or-more";
const EMAIL = "ada@example.com";

const servers: AuthServer[] = [];
let browser: LaunchedBrowser;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
});

/** A Tessera server with the Passkey provider and a fresh memory adapter. */
async function passkeyServer(provider: Parameters<typeof Passkey>[0] = {}) {
  const store: MemoryStore = createMemoryStore();
  const signInEvents: { isNewUser?: boolean }[] = [];
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(store),
    providers: [Passkey({ relayingParty: { name: "Tessera e2e" }, ...provider })],
    experimental: { enableWebAuthn: true },
    logger: { warn() {}, debug() {} },
    events: { signIn: (message) => void signInEvents.push(message) },
  };
  const server = await startAuthServer(config);
  servers.push(server);
  return { server, store, signInEvents };
}

/** A page with a virtual authenticator (see virtual-authenticator.ts). */
function pageWithAuthenticator(): Promise<AuthenticatorPage> {
  return openAuthenticatorPage(browser);
}

async function session(page: Page): Promise<{ user?: { email?: string } } | null> {
  return page.evaluate(async () => {
    const response = await fetch("/auth/session", { credentials: "same-origin" });
    return response.json();
  });
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

type Scenario = Awaited<ReturnType<typeof passkeyServer>>;
type Browsing = Awaited<ReturnType<typeof pageWithAuthenticator>>;

/** Registers a passkey with "Create a passkey" on the sign-in page, then signs out on the sign-out page. */
async function registerThenSignOut(
  { server, store, signInEvents }: Scenario,
  { page, cdp, authenticatorId }: Browsing,
  shots: string,
): Promise<void> {
  await page.goto(`${server.origin}/auth/signin`);
  const section = page.locator("section#webauthn-passkey");
  await expect.poll(() => section.getAttribute("data-webauthn-ready")).toBe("");
  await page.getByLabel("Email").fill(EMAIL);
  await shoot(page, `${shots}-1-signin-page`);
  await Promise.all([
    page.waitForURL(`${server.origin}/`),
    page.getByRole("button", { name: "Create a passkey" }).click(),
  ]);
  expect(await session(page)).toMatchObject({ user: { email: EMAIL } });
  await shoot(page, `${shots}-2-registered-and-signed-in`);

  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
  const [stored] = [...store.authenticators.values()];
  // The adapter holds the same credential, its id in standard base64.
  expect(Buffer.from(stored?.credentialID ?? "", "base64")).toEqual(
    Buffer.from(credentials[0]?.credentialId ?? "", "base64"),
  );
  expect(store.users.size).toBe(1);
  expect(signInEvents.at(-1)).toMatchObject({ isNewUser: true });

  await page.goto(`${server.origin}/auth/signout`);
  await shoot(page, `${shots}-3-signout-page`);
  await Promise.all([
    page.waitForURL(`${server.origin}/`),
    page.getByRole("button", { name: "Sign out" }).click(),
  ]);
  expect(await session(page)).toBeNull();
}

/** After a passkey sign-in: the same user, and the authenticator's counter stored. */
async function expectSignedInAgain(
  { store, signInEvents }: Scenario,
  { page, cdp, authenticatorId }: Browsing,
): Promise<void> {
  expect(await session(page)).toMatchObject({ user: { email: EMAIL } });
  expect(signInEvents).toHaveLength(2);
  expect(signInEvents[1]).toMatchObject({ isNewUser: false });
  expect(store.users.size).toBe(1);
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect([...store.authenticators.values()][0]?.counter).toBe(credentials[0]?.signCount);
}

describe("passkeys in Chromium", () => {
  it("registers a passkey, signs out, and signs in with the button", async () => {
    const scenario = await passkeyServer({ enableConditionalUI: false });
    const browsing = await pageWithAuthenticator();
    const { page, problems } = browsing;
    await registerThenSignOut(scenario, browsing, "button");

    await page.goto(`${scenario.server.origin}/auth/signin`);
    await expect
      .poll(() => page.locator("section#webauthn-passkey").getAttribute("data-webauthn-ready"))
      .toBe("");
    // Signed out, the address already has an account: the page explains instead of registering.
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain("A passkey cannot be created for this address");
    expect(page.url()).toBe(`${scenario.server.origin}/auth/signin`);
    await shoot(page, "button-4-signin-page-refuses-second-account");
    // No address typed: the passkey (a discoverable credential) names the user.
    await page.getByLabel("Email").fill("");
    await Promise.all([
      page.waitForURL(`${scenario.server.origin}/`),
      page.getByRole("button", { name: "Sign in with passkey" }).click(),
    ]);
    await shoot(page, "button-5-signed-in-with-passkey");
    await expectSignedInAgain(scenario, browsing);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("offers the passkey through autofill (conditional UI) and signs in with it", async () => {
    const scenario = await passkeyServer();
    const browsing = await pageWithAuthenticator();
    const { page, problems } = browsing;
    await registerThenSignOut(scenario, browsing, "autofill");

    // Opening the page starts a conditional request; Chromium's virtual authenticator answers
    // it with its one passkey as if the user had picked it from the autofill list. The page is on
    // `/` already (signed out there), so the wait for `/` starts once the sign-in page is open.
    await page.goto(`${scenario.server.origin}/auth/signin`);
    await page.waitForURL(`${scenario.server.origin}/`);
    await shoot(page, "autofill-4-signed-in-with-passkey");
    await expectSignedInAgain(scenario, browsing);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("lets passkey autofill end without a console warning when no passkey is chosen", async () => {
    const { server } = await passkeyServer();
    const { page, problems } = await pageWithAuthenticator();
    const warnings: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text());
    });
    await page.goto(`${server.origin}/auth/signin`);
    const section = page.locator("section#webauthn-passkey");
    await expect.poll(() => section.getAttribute("data-webauthn-autofill")).toBe("");
    // The authenticator holds no passkey: Chromium ends the autofill offer with NotAllowedError,
    // at the latest when the page is left.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await page.goto(`${server.origin}/auth/csrf`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(warnings).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
