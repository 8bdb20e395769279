/**
 * Passkeys through the client entry points `@tessera/sveltekit/webauthn` and
 * `@tessera/next/webauthn` (both on `@tessera/core/client`'s ceremony): headless Chromium with a
 * CDP virtual authenticator loads a page whose script is those modules, bundled by esbuild as an
 * app's bundler would, and registers a passkey, signs out and signs in again against a real HTTP
 * server running Tessera with the Passkey provider and the memory adapter.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Auth, type AuthConfig } from "@tessera/core";
import Passkey from "@tessera/core/providers/passkey";
import { createMemoryStore, MemoryAdapter, type MemoryStore } from "@tessera/memory";
import { build } from "esbuild";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toRequest, writeResponse } from "./auth-server.js";
import { type LaunchedBrowser, launchBrowser, type Page } from "./browser.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SECRET = "e2e-webauthn-client-secret-with-32-characters";
const EMAIL = "ada@example.com";

/** The page's script: the client modules as an app would import them. */
const ENTRY = `
import * as nextReact from "@tessera/next/react";
import * as nextWebauthn from "@tessera/next/webauthn";
import * as svelteClient from "@tessera/sveltekit/client";
import * as svelteWebauthn from "@tessera/sveltekit/webauthn";
window.tesseraPasskeys = { nextReact, nextWebauthn, svelteClient, svelteWebauthn };
document.body.dataset.ready = "";
`;

const PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>App</title>
<script type="module" src="/client.js"></script></head><body><h1>App</h1></body></html>`;

let bundle = "";
let server: Server;
let origin = "";
let store: MemoryStore;
let signInEvents: { isNewUser?: boolean }[];
let browser: LaunchedBrowser;

function config(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    adapter: MemoryAdapter(store),
    providers: [Passkey({ relayingParty: { name: "Tessera e2e" } })],
    experimental: { enableWebAuthn: true },
    logger: { warn() {}, debug() {}, error() {} },
    events: { signIn: (message) => void signInEvents.push(message) },
  };
}

beforeAll(async () => {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    conditions: ["tessera-source"],
    define: { "process.env.NODE_ENV": '"production"' },
    // SvelteKit's bundler provides `$app/paths`; this app has no base path.
    plugins: [
      {
        name: "sveltekit-app-paths",
        setup(esbuild) {
          esbuild.onResolve({ filter: /^\$app\/paths$/ }, () => ({
            path: "paths",
            namespace: "sveltekit",
          }));
          esbuild.onLoad({ filter: /.*/, namespace: "sveltekit" }, () => ({
            contents: 'export const base = ""; export const assets = "";',
          }));
        },
      },
    ],
    logLevel: "silent",
  });
  bundle = result.outputFiles[0]?.text ?? "";
  server = createServer((req, res) => {
    void (async () => {
      try {
        const path = req.url ?? "/";
        if (path.startsWith("/auth/")) {
          await writeResponse(await Auth(await toRequest(req), config()), res);
        } else if (path === "/client.js") {
          res.writeHead(200, { "Content-Type": "text/javascript" }).end(bundle);
        } else {
          res.writeHead(path === "/favicon.ico" ? 204 : 200, { "Content-Type": "text/html" });
          res.end(path === "/favicon.ico" ? undefined : PAGE);
        }
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // "localhost": a secure context, and a valid WebAuthn relying party id.
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(() => {
  store = createMemoryStore();
  signInEvents = [];
});

/** A page of the app with a virtual authenticator, recording console errors. */
async function appPage(): Promise<{
  page: Page;
  problems: string[];
  credentials(): Promise<unknown[]>;
}> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(String(error)));
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await page.goto(`${origin}/start`);
  await page.waitForSelector("body[data-ready]");
  return {
    page,
    problems,
    credentials: async () =>
      (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}

async function session(page: Page): Promise<{ user?: { email?: string } } | null> {
  return page.evaluate(() => fetch("/auth/session").then((response) => response.json()));
}

declare global {
  interface Window {
    tesseraPasskeys: {
      nextReact: typeof import("@tessera/next/react");
      nextWebauthn: typeof import("@tessera/next/webauthn");
      svelteClient: typeof import("@tessera/sveltekit/client");
      svelteWebauthn: typeof import("@tessera/sveltekit/webauthn");
    };
  }
}

describe("passkey client entry points in Chromium", () => {
  it("@tessera/sveltekit/webauthn registers a passkey, and signs in with it after signing out", async () => {
    const { page, problems, credentials } = await appPage();
    const registered = await page.evaluate(
      (email) =>
        window.tesseraPasskeys.svelteWebauthn.signIn("passkey", {
          action: "register",
          email,
          redirect: false,
          redirectTo: "/welcome",
        }),
      EMAIL,
    );
    expect(registered).toEqual({
      error: undefined,
      code: undefined,
      status: 200,
      ok: true,
      url: `${origin}/welcome`,
    });
    expect(await session(page)).toMatchObject({ user: { email: EMAIL } });
    expect(await credentials()).toHaveLength(1);
    expect(store.authenticators.size).toBe(1);
    expect(signInEvents).toEqual([expect.objectContaining({ isNewUser: true })]);

    await page.evaluate(() => window.tesseraPasskeys.svelteClient.signOut({ redirect: false }));
    expect(await session(page)).toBeNull();

    const signedIn = await page.evaluate(() =>
      window.tesseraPasskeys.svelteWebauthn.signIn("passkey", { redirect: false }),
    );
    expect(signedIn).toMatchObject({ ok: true, error: undefined });
    expect(await session(page)).toMatchObject({ user: { email: EMAIL } });
    expect(signInEvents.at(-1)).toMatchObject({ isNewUser: false });
    expect(store.users.size).toBe(1);
    // The assertion was verified and its signature counter stored.
    const [stored] = [...store.authenticators.values()];
    const [held] = (await credentials()) as { signCount: number }[];
    expect(stored?.counter).toBe(held?.signCount);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("@tessera/next/webauthn registers with a redirect, refuses a second account, and signs in", async () => {
    const { page, problems, credentials } = await appPage();
    await page.evaluate(() => {
      window.tesseraPasskeys.nextReact.__NEXTAUTH.basePath = "/auth";
    });
    await Promise.all([
      page.waitForURL(`${origin}/done`),
      page.evaluate(
        (email) =>
          void window.tesseraPasskeys.nextWebauthn.signIn("passkey", {
            action: "register",
            email,
            callbackUrl: "/done",
          }),
        EMAIL,
      ),
    ]);
    await page.waitForSelector("body[data-ready]");
    expect(await session(page)).toMatchObject({ user: { email: EMAIL } });
    expect(await credentials()).toHaveLength(1);

    await page.evaluate(() => {
      window.tesseraPasskeys.nextReact.__NEXTAUTH.basePath = "/auth";
      return window.tesseraPasskeys.nextReact.signOut({ redirect: false });
    });
    expect(await session(page)).toBeNull();

    // Signed out, registering an address that has an account is refused before any ceremony.
    const refused = await page.evaluate(
      (email) =>
        window.tesseraPasskeys.nextWebauthn.signIn("passkey", {
          action: "register",
          email,
          redirect: false,
        }),
      EMAIL,
    );
    expect(refused).toBeUndefined();
    expect(await credentials()).toHaveLength(1);
    expect(problems.some((text) => text.includes("[tessera] passkey options refused: 400"))).toBe(
      true,
    );

    const signedIn = await page.evaluate(() =>
      window.tesseraPasskeys.nextWebauthn.signIn("passkey", { redirect: false }),
    );
    // The default destination is the current page.
    expect(signedIn).toMatchObject({ ok: true, status: 200, url: `${origin}/done` });
    expect(await session(page)).toMatchObject({ user: { email: EMAIL } });
    expect(signInEvents.map((event) => event.isNewUser)).toEqual([true, false]);
    await page.close();
  });

  it("@tessera/next/react's signIn, without the ceremony, sends a passkey provider to the sign-in page", async () => {
    const { page } = await appPage();
    await Promise.all([
      page.waitForURL(/\/auth\/signin\?callbackUrl=/),
      page.evaluate(() => {
        window.tesseraPasskeys.nextReact.__NEXTAUTH.basePath = "/auth";
        void window.tesseraPasskeys.nextReact.signIn("passkey", { redirect: false });
      }),
    ]);
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/start`);
    expect(store.authenticators.size).toBe(0);
    await page.close();
  });
});
