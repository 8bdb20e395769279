/**
 * Conditional create in Chromium: after a password sign-in on the built-in page, the passkey
 * script asks the browser for a passkey with `mediation: "conditional"`, and the passkey it gets
 * is stored for the signed-in user; `conditionalCreate: false` turns the request off.
 *
 * Not real in one step, and said so: Chrome grants a conditional create only when its password
 * manager has just filled the password, which a headless browser cannot be made to do (the
 * request then waits). An init script therefore records each conditional create request and lets
 * Chromium's virtual authenticator answer it as a plain create — what Chrome does once it grants
 * one. Everything else (options, attestation, verification, storage) is real.
 */
import type { AuthConfig } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import Passkey from "@tessera/core/providers/passkey";
import { createMemoryStore, MemoryAdapter, type MemoryStore } from "@tessera/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthServer, startAuthServer } from "./auth-server.js";
import { type LaunchedBrowser, launchBrowser, type Page } from "./browser.js";
import { pageWithAuthenticator } from "./virtual-authenticator.js";

const SECRET = "e2e-conditional-create-secret-with-32-characters";
const EMAIL = "ada@example.com";
const PASSWORD = "correct horse battery staple";

let browser: LaunchedBrowser;
const servers: AuthServer[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
});

async function passwordServer(conditionalCreate?: boolean) {
  const store: MemoryStore = createMemoryStore();
  store.users.set("ada", { id: "ada", email: EMAIL, name: "Ada", emailVerified: null });
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(store),
    providers: [
      Credentials({
        credentials: {
          email: { label: "Email" },
          password: { label: "Password", type: "password" },
        },
        authorize: ({ email, password }) =>
          email === EMAIL && password === PASSWORD ? (store.users.get("ada") ?? null) : null,
      }),
      Passkey({
        relayingParty: { name: "Tessera e2e" },
        enableConditionalUI: false,
        ...(conditionalCreate !== undefined && { conditionalCreate }),
      }),
    ],
    experimental: { enableWebAuthn: true },
    logger: { warn() {}, debug() {}, error() {} },
  };
  const server = await startAuthServer(config);
  servers.push(server);
  return { server, store };
}

/** A page whose conditional create requests are recorded, then answered by the authenticator. */
async function recordingPage() {
  const opened = await pageWithAuthenticator(browser);
  const requests: { rpId: string; userName: string }[] = [];
  await opened.page.exposeFunction("reportConditionalCreate", (rpId: string, userName: string) => {
    requests.push({ rpId, userName });
  });
  await opened.page.addInitScript(() => {
    const report = (window as unknown as { reportConditionalCreate(a: string, b: string): void })
      .reportConditionalCreate;
    const create = navigator.credentials.create.bind(navigator.credentials);
    navigator.credentials.create = (options?: CredentialCreationOptions) => {
      const mediation = (options as { mediation?: string } | undefined)?.mediation;
      if (mediation !== "conditional" || !options?.publicKey) return create(options);
      report(options.publicKey.rp.id ?? "", options.publicKey.user.name);
      const { mediation: _granted, ...plain } = options as CredentialCreationOptions & {
        mediation?: string;
      };
      return create(plain);
    };
  });
  return { ...opened, requests };
}

async function signInWithPassword(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/auth/signin`);
  await page.locator("#credentials-email").fill(EMAIL);
  await page.locator("#credentials-password").fill(PASSWORD);
  await Promise.all([
    page.waitForURL(`${origin}/`),
    page.getByRole("button", { name: "Sign in with Credentials" }).click(),
  ]);
}

describe("conditional create after a password sign-in", () => {
  it("creates a passkey for the signed-in user without a prompt, and stores it", async () => {
    const { server, store } = await passwordServer();
    const { page, requests, problems } = await recordingPage();
    await page.goto(`${server.origin}/auth/signin`);
    await expect
      .poll(() =>
        page.locator("form[data-conditional-create]").getAttribute("data-conditional-create-ready"),
      )
      .toBe("");
    await signInWithPassword(page, server.origin);
    expect(requests).toEqual([{ rpId: "localhost", userName: EMAIL }]);
    const stored = [...store.authenticators.values()];
    expect(stored).toHaveLength(1);
    expect(stored[0]?.userId).toBe("ada");
    const passkeys = await page.evaluate(async () => (await fetch("/auth/passkeys")).json());
    expect(passkeys.passkeys).toHaveLength(1);
    expect(passkeys.passkeys[0].createdAt).toEqual(expect.any(String));
    expect(problems).toEqual([]);
    await page.close();
  });

  it("asks for nothing when the app turns it off (conditionalCreate: false)", async () => {
    const { server, store } = await passwordServer(false);
    const { page, requests } = await recordingPage();
    await page.goto(`${server.origin}/auth/signin`);
    expect(await page.locator("form[data-conditional-create]").count()).toBe(0);
    await signInWithPassword(page, server.origin);
    const session = await page.evaluate(async () => (await fetch("/auth/session")).json());
    expect(session).toMatchObject({ user: { email: EMAIL } });
    expect(requests).toEqual([]);
    expect(store.authenticators.size).toBe(0);
    await page.close();
  });

  it("asks for nothing after a wrong password, and the page shows the error", async () => {
    const { server, store } = await passwordServer();
    const { page, requests } = await recordingPage();
    await page.goto(`${server.origin}/auth/signin`);
    await page.locator("#credentials-email").fill(EMAIL);
    await page.locator("#credentials-password").fill("wrong");
    await Promise.all([
      page.waitForURL(/error=CredentialsSignin/),
      page.getByRole("button", { name: "Sign in with Credentials" }).click(),
    ]);
    expect(requests).toEqual([]);
    expect(store.authenticators.size).toBe(0);
    await page.close();
  });
});
