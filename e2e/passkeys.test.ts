/**
 * Passkey management and the WebAuthn Signal API in Chromium 132+ (real Signal API, CDP virtual
 * authenticator), against a real HTTP server running Tessera with the Passkey provider and the
 * memory adapter. The Signal API calls are observed through the page: an init script wraps
 * `PublicKeyCredential.signal*` so that each call is recorded before the browser's own method runs.
 * The management client functions are `@tessera/core/client`'s, bundled by esbuild into the page.
 */
import { fileURLToPath } from "node:url";
import type { AuthConfig } from "@tessera/core";
import Passkey from "@tessera/core/providers/passkey";
import {
  accountStoreKey,
  createMemoryStore,
  MemoryAdapter,
  type MemoryStore,
} from "@tessera/memory";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthServer, startAuthServer } from "./auth-server.js";
import { type LaunchedBrowser, launchBrowser, type Page } from "./browser.js";
import { type AuthenticatorPage, pageWithAuthenticator } from "./virtual-authenticator.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SECRET = "e2e-passkeys-secret-with-32-characters-or-more";

/** The management client, as an app's bundler would include it. */
const CLIENT_ENTRY = `
import { deletePasskey, listPasskeys, renamePasskey } from "@tessera/core/client";
window.tesseraPasskeys = { deletePasskey, listPasskeys, renamePasskey };
`;

interface SignalCall {
  name: string;
  options: Record<string, unknown>;
}

let browser: LaunchedBrowser;
let clientBundle = "";
let server: AuthServer;
let store: MemoryStore;

beforeAll(async () => {
  const result = await build({
    stdin: { contents: CLIENT_ENTRY, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    conditions: ["tessera-source"],
    logLevel: "silent",
  });
  clientBundle = result.outputFiles[0]?.text ?? "";
  browser = await launchBrowser();
  store = createMemoryStore();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(store),
    providers: [Passkey({ relayingParty: { name: "Tessera e2e" }, enableConditionalUI: false })],
    experimental: { enableWebAuthn: true },
    logger: { warn() {}, debug() {}, error() {} },
  };
  server = await startAuthServer(config);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page whose Signal API calls are reported to Node (they outlive the page's navigation). */
interface RecordingPage extends AuthenticatorPage {
  signals: SignalCall[];
}

async function recordingPage(): Promise<RecordingPage> {
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
    for (const name of [
      "signalUnknownCredential",
      "signalAllAcceptedCredentials",
      "signalCurrentUserDetails",
    ]) {
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

async function json(page: Page, path: string, init: RequestInit = {}) {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, { credentials: "same-origin", ...init });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    { path, init },
  );
}

async function csrfToken(page: Page): Promise<string> {
  const { body } = await json(page, "/auth/csrf");
  return (body as { csrfToken: string }).csrfToken;
}

/** Creates an account with a passkey on the built-in sign-in page; the page ends signed in. */
async function signUp(page: Page, email: string): Promise<void> {
  await page.goto(`${server.origin}/auth/signin`);
  await expect
    .poll(() => page.locator("section#webauthn-passkey").getAttribute("data-webauthn-ready"))
    .toBe("");
  await page.getByLabel("Email").fill(email);
  await Promise.all([
    page.waitForURL(`${server.origin}/`),
    page.getByRole("button", { name: "Create a passkey" }).click(),
  ]);
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${server.origin}/auth/signout`);
  await Promise.all([
    page.waitForURL(`${server.origin}/`),
    page.getByRole("button", { name: "Sign out" }).click(),
  ]);
}

async function signInWithPasskey(page: Page, expectedUrl: RegExp): Promise<void> {
  await page.goto(`${server.origin}/auth/signin`);
  await expect
    .poll(() => page.locator("section#webauthn-passkey").getAttribute("data-webauthn-ready"))
    .toBe("");
  await Promise.all([
    page.waitForURL(expectedUrl),
    page.getByRole("button", { name: "Sign in with passkey" }).click(),
  ]);
}

interface Listed {
  passkeys: {
    id: string;
    name: string | null;
    createdAt: string | null;
    lastUsedAt: string | null;
    deviceType: string;
    backedUp: boolean;
  }[];
  signals: { rpId: string; userHandles: string[]; allAcceptedCredentialIds: string[] };
}

async function listed(page: Page): Promise<Listed> {
  const { status, body } = await json(page, "/auth/passkeys");
  expect(status).toBe(200);
  return body as Listed;
}

/** The virtual authenticator's credential ids, base64url as `PublicKeyCredential.id` spells them. */
async function authenticatorIds({ cdp, authenticatorId }: AuthenticatorPage): Promise<string[]> {
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  return credentials.map((credential) =>
    Buffer.from(credential.credentialId, "base64").toString("base64url"),
  );
}

/** Chromium 132+ has the Signal API; with an older browser these tests would prove nothing. */
async function expectSignalApi(page: Page): Promise<void> {
  const supported = await page.evaluate(
    () =>
      typeof PublicKeyCredential === "function" && "signalUnknownCredential" in PublicKeyCredential,
  );
  expect(supported).toBe(true);
}

type Client = {
  listPasskeys(endpoint: unknown): Promise<Listed | null>;
  renamePasskey(endpoint: unknown, id: string, name: string): Promise<Listed | null>;
  deletePasskey(endpoint: unknown, id: string): Promise<Listed | null>;
};

/** Runs one of `@tessera/core/client`'s passkey functions in the page. */
async function client(
  page: Page,
  name: "listPasskeys" | "renamePasskey" | "deletePasskey",
  ...args: string[]
): Promise<Listed | null> {
  await page.addScriptTag({ content: clientBundle });
  return page.evaluate(
    ({ name, args }) => {
      const api = (window as unknown as { tesseraPasskeys: Client }).tesseraPasskeys;
      const endpoint = { baseUrl: "", basePath: "/auth" };
      const call = api[name] as (endpoint: unknown, ...rest: string[]) => Promise<Listed | null>;
      return call(endpoint, ...args);
    },
    { name, args },
  );
}

describe("passkey management and the Signal API in Chromium", () => {
  it("lists a new passkey with its details; a passkey sign-in signals the user's accepted credentials and details; rename and delete signal too", async () => {
    const browsing = await recordingPage();
    const { page, problems, signals } = browsing;
    const email = "ada@example.com";
    await signUp(page, email);
    await expectSignalApi(page);
    const [credentialId] = await authenticatorIds(browsing);

    const afterSignUp = await listed(page);
    expect(afterSignUp.passkeys).toEqual([
      {
        id: credentialId,
        name: null,
        createdAt: expect.any(String),
        lastUsedAt: null,
        // Chromium's virtual authenticator makes device-bound credentials.
        deviceType: "singleDevice",
        backedUp: false,
        transports: expect.any(Array),
      },
    ]);
    expect(afterSignUp.signals).toMatchObject({
      rpId: "localhost",
      allAcceptedCredentialIds: [credentialId],
    });
    const [userHandle] = afterSignUp.signals.userHandles;
    expect(userHandle).toMatch(/^[\w-]{16,}$/);

    await signOut(page);
    signals.length = 0;
    await signInWithPasskey(page, new RegExp(`^${server.origin}/$`));
    expect(signals).toEqual([
      {
        name: "signalAllAcceptedCredentials",
        options: {
          rpId: "localhost",
          userId: userHandle,
          allAcceptedCredentialIds: [credentialId],
        },
      },
      {
        name: "signalCurrentUserDetails",
        options: { rpId: "localhost", userId: userHandle, name: email, displayName: email },
      },
    ]);
    const afterSignIn = await listed(page);
    expect(Date.parse(afterSignIn.passkeys[0]?.lastUsedAt ?? "")).toBeGreaterThan(
      Date.parse(afterSignIn.passkeys[0]?.createdAt ?? ""),
    );

    // Rename through the client function: the listing has the name, the browser the details.
    signals.length = 0;
    const renamed = await client(page, "renamePasskey", credentialId ?? "", "  Work laptop\u0007 ");
    expect(renamed?.passkeys[0]?.name).toBe("Work laptop");
    expect(signals).toEqual([
      {
        name: "signalAllAcceptedCredentials",
        options: {
          rpId: "localhost",
          userId: userHandle,
          allAcceptedCredentialIds: [credentialId],
        },
      },
      {
        name: "signalCurrentUserDetails",
        options: { rpId: "localhost", userId: userHandle, name: email, displayName: email },
      },
    ]);
    expect((await client(page, "listPasskeys"))?.passkeys[0]?.name).toBe("Work laptop");

    // Lock-out: the passkey is ada's only way in, so deleting it is refused and nothing signals.
    signals.length = 0;
    await expect(client(page, "deletePasskey", credentialId ?? "")).rejects.toThrow(
      /answered 409: This passkey is your only way to sign in/,
    );
    expect(signals).toEqual([]);
    expect(store.authenticators.size).toBe(1);
    // The browser logs the refused request; it is the one expected.
    expect(problems).toEqual([expect.stringContaining("status of 409")]);
    problems.length = 0;
    // With a linked GitHub account she has another way in.
    const ada = [...store.users.values()].find((user) => user.email === email);
    const github = { provider: "github", providerAccountId: "github-ada" };
    store.accounts.set(accountStoreKey(github), {
      ...github,
      userId: ada?.id ?? "",
      type: "oauth",
    });

    // Delete through the client function: the store forgets the passkey and its account, and
    // the authenticator is told that none of the user's credentials remain.
    const left = await client(page, "deletePasskey", credentialId ?? "");
    expect(left?.passkeys).toEqual([]);
    expect(signals).toEqual([
      {
        name: "signalAllAcceptedCredentials",
        options: { rpId: "localhost", userId: userHandle, allAcceptedCredentialIds: [] },
      },
    ]);
    expect(store.authenticators.size).toBe(0);
    expect([...store.accounts.values()].filter((a) => a.type === "webauthn")).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("signals an unknown credential when a sign-in presents a passkey the server no longer has", async () => {
    const browsing = await recordingPage();
    const { page, signals } = browsing;
    await signUp(page, "lin@example.com");
    const [credentialId] = await authenticatorIds(browsing);
    await signOut(page);
    // Deleted on the server (by another device, an administrator) but still on this authenticator.
    store.authenticators.clear();
    store.passkeyDetails.clear();
    signals.length = 0;
    await signInWithPasskey(page, /error=/);
    expect(signals).toEqual([
      { name: "signalUnknownCredential", options: { rpId: "localhost", credentialId } },
    ]);
    await page.close();
  });

  it("refuses to rename or delete without the CSRF token, and refuses another user's passkey (IDOR)", async () => {
    const ada = await recordingPage();
    await signUp(ada.page, "ada.idor@example.com");
    const [adaCredential] = await authenticatorIds(ada);
    await ada.page.close();
    // The browser context is shared: signing up Grace replaces Ada's session cookie.
    const grace = await recordingPage();
    const { page } = grace;
    await signOut(page);
    await signUp(page, "grace.idor@example.com");

    const forged = await json(page, "/auth/passkeys/delete", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: (await listed(page)).passkeys[0]?.id }),
    });
    expect(forged.status).toBe(403);
    expect((await listed(page)).passkeys).toHaveLength(1);

    const token = await csrfToken(page);
    for (const operation of ["delete", "rename"]) {
      const attempt = await json(page, `/auth/passkeys/${operation}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ csrfToken: token, id: adaCredential, name: "mine now" }),
      });
      expect(attempt).toEqual({
        status: 404,
        body: { message: "You have no passkey with this id." },
      });
    }
    const adaStored = [...store.authenticators.values()].find(
      (a) => Buffer.from(a.credentialID, "base64").toString("base64url") === adaCredential,
    );
    expect(adaStored).toBeDefined();
    expect(store.passkeyDetails.get(adaStored?.credentialID ?? "")?.name).toBeNull();

    // Malformed input is answered 400, never a 500.
    for (const body of [
      { csrfToken: token },
      { csrfToken: token, id: "not base64url!" },
      { csrfToken: token, id: ["x"] },
    ]) {
      const answer = await json(page, "/auth/passkeys/delete", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(400);
    }
    const long = await json(page, "/auth/passkeys/rename", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ csrfToken: token, id: adaCredential, name: "x".repeat(65) }),
    });
    expect(long.status).toBe(400);

    await signOut(page);
    expect((await json(page, "/auth/passkeys")).status).toBe(401);
    await page.close();
  });
});
