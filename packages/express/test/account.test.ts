/**
 * The account server functions in an Express app: the app's own account routes run `accountApi`
 * through `actionRunner(req, config)`, and ExpressAuth serves the built-in account page under
 * its mount path. No code of the Express package names the account action.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { accountApi } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import { MemoryAdapter } from "@tessera/memory";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionRunner, ExpressAuth, type ExpressAuthConfig } from "../src/index.js";
import { HttpClient } from "./http-client.js";

const adapter = MemoryAdapter();
const ADA = { id: "ada", email: "ada@example.com", name: "Ada", emailVerified: null };
const config: ExpressAuthConfig = {
  secret: "express-account-secret-at-least-32-chars",
  trustHost: true,
  adapter,
  session: { strategy: "database" },
  providers: [
    Credentials({
      credentials: { password: {} },
      authorize: (c) => (c.password === "pw" ? ADA : null),
    }),
  ],
};

let server: Server;
let origin: string;

beforeAll(async () => {
  await adapter.createUser(ADA);
  const app = express();
  app.use("/auth", ExpressAuth(config));
  app.use(express.json());
  // The app's own routes: a real app protects the POST with its CSRF defence.
  app.get("/settings", async (req, res) => {
    res.json(await accountApi(actionRunner(req, config)).overview());
  });
  app.post("/settings/name", async (req, res) => {
    res.json(await accountApi(actionRunner(req, config)).updateName(String(req.body.name)));
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the account in Express", () => {
  it("reads the overview and renames the user through the app's routes; the page is served too", async () => {
    const browser = new HttpClient(origin);
    expect(await (await browser.get("/settings")).json()).toBeNull();
    const signIn = await browser.fetch("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await browser.csrfToken(), password: "pw" }),
    });
    expect(signIn.status).toBe(302);
    const overview = await (await browser.get("/settings")).json();
    expect(overview.profile).toMatchObject({ id: "ada", name: "Ada" });
    expect(overview.sessions).toHaveLength(1);
    const renamed = await browser.fetch("/settings/name", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Ada Lovelace" }),
    });
    expect(await renamed.json()).toEqual({ ok: true });
    expect((await adapter.getUser("ada"))?.name).toBe("Ada Lovelace");
    const page = await browser.get("/auth/account", { accept: "text/html" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('value="Ada Lovelace"');
  });
});
