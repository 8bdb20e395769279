/**
 * `@tessera/next/react` in Chromium: a small React app (bundled by esbuild, as an app's bundler
 * would) renders `SessionProvider` and `useSession` against real route handlers — `Auth()` behind
 * `node:http` at `/api/auth`. Covers `update()` with and without data, `SessionContext`,
 * `__NEXTAUTH`, and two tabs keeping each other's session in step.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Auth, type AuthConfig } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import { build } from "esbuild";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toRequest, writeResponse } from "../../../e2e/auth-server.js";
import { type LaunchedBrowser, launchBrowser, type Page } from "../../../e2e/browser.js";
import { DEMO_PASSWORD, DEMO_USER, SECRET } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const APP = `
import { createElement as h, useContext } from "react";
import { createRoot } from "react-dom/client";
import { __NEXTAUTH, SessionContext, SessionProvider, signIn, signOut, useSession } from "@tessera/next/react";

function Panel() {
  const { data, status, update } = useSession();
  const context = useContext(SessionContext);
  return h("main", null,
    h("p", { id: "status" }, status),
    h("p", { id: "name" }, data?.user?.name ?? ""),
    h("p", { id: "context-status" }, context ? context.status : "none"),
    h("button", { id: "refetch", onClick: () => void update() }, "Refetch"),
    h("button", { id: "rename", onClick: () => void update({ user: { name: "Grace" } }) }, "Rename"));
}

window.tesseraReact = { __NEXTAUTH, signIn, signOut };
createRoot(document.getElementById("root")).render(
  h(SessionProvider, { refetchOnWindowFocus: false }, h(Panel)));
`;

const PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>App</title>
<script type="module" src="/app.js"></script></head><body><div id="root"></div></body></html>`;

const config: AuthConfig = {
  secret: SECRET,
  trustHost: true,
  basePath: "/api/auth",
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      authorize: ({ email, password }) =>
        email === DEMO_USER.email && password === DEMO_PASSWORD ? DEMO_USER : null,
    }),
  ],
  callbacks: {
    jwt({ token, trigger, session }) {
      const name = (session as { user?: { name?: unknown } } | undefined)?.user?.name;
      if (trigger === "update" && typeof name === "string") token.name = name;
      return token;
    },
  },
};

let bundle = "";
let server: Server;
let origin = "";
let browser: LaunchedBrowser;
/** The route handler requests, as `METHOD /path`. */
let requests: string[] = [];

beforeAll(async () => {
  const result = await build({
    stdin: { contents: APP, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    conditions: ["tessera-source"],
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  bundle = result.outputFiles[0]?.text ?? "";
  server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? "/";
      if (path.startsWith("/api/auth/")) {
        requests.push(`${req.method} ${path.split("?")[0]}`);
        await writeResponse(await Auth(await toRequest(req), config), res);
      } else if (path === "/app.js") {
        res.writeHead(200, { "Content-Type": "text/javascript" }).end(bundle);
      } else {
        res.writeHead(path === "/favicon.ico" ? 204 : 200, { "Content-Type": "text/html" });
        res.end(path === "/favicon.ico" ? undefined : PAGE);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(async () => {
  requests = [];
  await browser.context.clearCookies();
});

declare global {
  interface Window {
    tesseraReact: {
      __NEXTAUTH: typeof import("@tessera/next/react").__NEXTAUTH;
      signIn: typeof import("@tessera/next/react").signIn;
      signOut: typeof import("@tessera/next/react").signOut;
    };
  }
}

async function openApp(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  await expect.poll(() => page.locator("#status").textContent()).not.toBe("loading");
  return page;
}

function status(page: Page): Promise<string | null> {
  return page.locator("#status").textContent();
}

async function signInHere(page: Page): Promise<void> {
  const result = await page.evaluate(
    ([email, password]) =>
      window.tesseraReact.signIn("credentials", { email, password, redirect: false }),
    [DEMO_USER.email, DEMO_PASSWORD],
  );
  expect(result).toMatchObject({ ok: true, error: undefined });
}

describe("@tessera/next/react in Chromium", () => {
  it("update() without data reads the session again; with data it posts it", async () => {
    const page = await openApp();
    expect(await status(page)).toBe("unauthenticated");
    await signInHere(page);
    await expect.poll(() => status(page)).toBe("authenticated");
    expect(await page.locator("#name").textContent()).toBe(DEMO_USER.name);
    expect(await page.locator("#context-status").textContent()).toBe("authenticated");
    expect(await page.evaluate(() => window.tesseraReact.__NEXTAUTH._session?.user?.email)).toBe(
      DEMO_USER.email,
    );

    requests = [];
    await page.locator("#refetch").click();
    await expect.poll(() => requests).toEqual(["GET /api/auth/session"]);
    await expect.poll(() => status(page)).toBe("authenticated");

    requests = [];
    await page.locator("#rename").click();
    await expect.poll(() => page.locator("#name").textContent()).toBe("Grace");
    expect(requests).toEqual(["GET /api/auth/csrf", "POST /api/auth/session"]);
    await page.close();
  });

  it("keeps a second tab in step when the first signs in and out", async () => {
    const first = await openApp();
    const second = await openApp();
    expect(await status(second)).toBe("unauthenticated");

    await signInHere(first);
    await expect.poll(() => status(second)).toBe("authenticated");

    const signedOut = await first.evaluate(() => window.tesseraReact.signOut({ redirect: false }));
    expect(signedOut).toEqual({ url: `${origin}/` });
    await expect.poll(() => status(first)).toBe("unauthenticated");
    await expect.poll(() => status(second)).toBe("unauthenticated");
    await first.close();
    await second.close();
  });
});
