/**
 * `@tessera/hono/react` in Chromium when the auth routes are not at `/api/auth`: a Hono app on
 * @hono/node-server mounts `authHandler()` at `/custom/auth/*` (no `basePath` in its config), and
 * a React page (bundled by esbuild, as an app's bundler would) points the client there with
 * `authConfigManager.setConfig`, as `@hono/auth-js/react`'s README shows. Covers `useSession`,
 * `update()`, `signIn` and `signOut` without leaving the page, and `getAuthUser` on the server.
 */
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type ServerType, serve } from "@hono/node-server";
import Credentials from "@tessera/core/providers/credentials";
import { build } from "esbuild";
import { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser, type Page } from "../../../e2e/browser.js";
import { type AuthConfig, authHandler, getAuthUser, initAuthConfig } from "../src/index.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const ADA = { id: "ada-1", name: "Ada Lovelace", email: "ada@example.com" };

const APP = `
import { createElement as h } from "react";
import { createRoot } from "react-dom/client";
import { authConfigManager, SessionProvider, signIn, signOut, useSession } from "@tessera/hono/react";

authConfigManager.setConfig({ basePath: "/custom/auth" });

function Panel() {
  const { data, status, update } = useSession();
  return h("main", null,
    h("p", { id: "status" }, status),
    h("p", { id: "name" }, data?.user?.name ?? ""),
    h("button", { id: "rename", onClick: () => void update({ name: "Grace" }) }, "Rename"));
}

window.tesseraHono = { signIn, signOut };
createRoot(document.getElementById("root")).render(
  h(SessionProvider, { refetchOnWindowFocus: false }, h(Panel)));
`;

const PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>App</title>
<script type="module" src="/app.js"></script></head><body><div id="root"></div></body></html>`;

const config: AuthConfig = {
  secret: "hono-react-client-test-secret-of-32+-chars",
  trustHost: true,
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      authorize: ({ email, password }) =>
        email === ADA.email && password === "lovelace" ? ADA : null,
    }),
  ],
  callbacks: {
    jwt({ token, trigger, session }) {
      const name = (session as { name?: unknown } | undefined)?.name;
      if (trigger === "update" && typeof name === "string") token.name = name;
      return token;
    },
  },
};

let server: ServerType;
let origin = "";
let browser: LaunchedBrowser;
/** The auth requests the server answered, as `METHOD /path`. */
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
  const bundle = result.outputFiles[0]?.text ?? "";

  const app = new Hono();
  app.use(
    "*",
    initAuthConfig(() => config),
  );
  app.use("/custom/auth/*", async (c, next) => {
    requests.push(`${c.req.method} ${c.req.path}`);
    await next();
  });
  app.use("/custom/auth/*", authHandler());
  app.get("/app.js", (c) => c.body(bundle, 200, { "content-type": "text/javascript" }));
  app.get("/whoami", async (c) => c.json((await getAuthUser(c))?.session.user?.name ?? null));
  app.get("/", (c) => c.html(PAGE));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(async () => {
  requests = [];
  await browser.context.clearCookies();
});

declare global {
  interface Window {
    tesseraHono: {
      signIn: typeof import("../src/react.js").signIn;
      signOut: typeof import("../src/react.js").signOut;
    };
  }
}

async function openApp(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  await expect.poll(() => page.locator("#status").textContent()).not.toBe("loading");
  return page;
}

describe("@tessera/hono/react with authConfigManager.setConfig({ basePath })", () => {
  it("reads, signs in, updates and signs out through the routes at /custom/auth", async () => {
    const page = await openApp();
    expect(await page.locator("#status").textContent()).toBe("unauthenticated");
    expect(requests).toContain("GET /custom/auth/session");

    const refused = await page.evaluate(() =>
      window.tesseraHono.signIn("credentials", {
        email: "ada@example.com",
        password: "wrong",
        redirect: false,
      }),
    );
    expect(refused).toMatchObject({ ok: false, error: "CredentialsSignin", code: "credentials" });

    const result = await page.evaluate(() =>
      window.tesseraHono.signIn("credentials", {
        email: "ada@example.com",
        password: "lovelace",
        redirect: false,
      }),
    );
    expect(result).toMatchObject({ ok: true, error: undefined });
    await expect.poll(() => page.locator("#status").textContent()).toBe("authenticated");
    expect(await page.locator("#name").textContent()).toBe(ADA.name);

    requests = [];
    await page.locator("#rename").click();
    await expect.poll(() => page.locator("#name").textContent()).toBe("Grace");
    expect(requests).toEqual(["GET /custom/auth/csrf", "POST /custom/auth/session"]);
    // The server reads the same, updated session.
    const cookies = await browser.context.cookies(origin);
    const cookie = cookies.map(({ name, value }) => `${name}=${value}`).join("; ");
    const whoami = await fetch(`${origin}/whoami`, { headers: { cookie } });
    expect(await whoami.json()).toBe("Grace");

    const signedOut = await page.evaluate(() => window.tesseraHono.signOut({ redirect: false }));
    expect(signedOut).toEqual({ url: `${origin}/` });
    await expect.poll(() => page.locator("#status").textContent()).toBe("unauthenticated");
    await page.close();
  });
});
