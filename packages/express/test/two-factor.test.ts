/**
 * An extension in an Express app: ExpressAuth serves the two-factor rows under its mount path,
 * and the app's own routes run its server functions through `actionRunner(req, config)`, the
 * cookies they set written on the response. No code of the Express package names the extension.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Credentials from "@tessera/core/providers/credentials";
import { memoryStore } from "@tessera/core/store";
import { base32Decode, totp, twoFactor, twoFactorApi } from "@tessera/core/two-factor";
import { MemoryAdapter } from "@tessera/memory";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionRunner, ExpressAuth, type ExpressAuthConfig } from "../src/index.js";
import { HttpClient } from "./http-client.js";

const adapter = MemoryAdapter();
const config: ExpressAuthConfig = {
  secret: "express-two-factor-secret-at-least-32-chars",
  trustHost: true,
  adapter,
  session: { strategy: "jwt" },
  rateLimit: { storage: memoryStore() },
  experimental: { extensions: [twoFactor()] },
  providers: [
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: ({ username, password }) =>
        username === "ada" && password === "pw" ? { id: "ada", email: "ada@example.com" } : null,
    }),
  ],
};

let server: Server;
let origin: string;

beforeAll(async () => {
  await adapter.createUser({ id: "ada", email: "ada@example.com", emailVerified: null });
  const app = express();
  app.use("/auth", ExpressAuth(config));
  app.get("/account/2fa", async (req, res) => {
    res.json(await twoFactorApi(actionRunner(req, config)).status());
  });
  // The app's own route: a real app protects it with its CSRF defence.
  app.post("/account/2fa/enrol", async (req, res) => {
    res.json(await twoFactorApi(actionRunner(req, config)).enrol());
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function firstFactor(client: HttpClient) {
  const csrfToken = await client.csrfToken();
  return client.postForm("/auth/callback/credentials", {
    csrfToken,
    username: "ada",
    password: "pw",
  });
}

describe("two-factor authentication in Express", () => {
  it("serves the rows over HTTP and the server functions in the app's routes", async () => {
    const owner = new HttpClient(origin);
    await firstFactor(owner);
    expect(await (await owner.get("/account/2fa")).json()).toEqual({
      enabled: false,
      pending: false,
      backupCodesLeft: 0,
    });
    const { secret } = (await (
      await owner.fetch("/account/2fa/enrol", { method: "POST" })
    ).json()) as {
      secret: string;
    };
    const key = base32Decode(secret) as Uint8Array;
    const csrfToken = await owner.csrfToken();
    const activated = await owner.postForm("/auth/two-factor/activate", {
      csrfToken,
      code: await totp(key),
    });
    expect(activated.status).toBe(200);
    expect(await (await owner.get("/account/2fa")).json()).toMatchObject({ enabled: true });

    const browser = new HttpClient(origin);
    const paused = await firstFactor(browser);
    expect(paused.headers.get("location")).toBe(`${origin}/auth/two-factor/verify`);
    const challenge = await browser.get("/auth/two-factor/verify", { accept: "text/html" });
    expect(challenge.status).toBe(200);
    const token = await browser.csrfToken();
    const passed = await browser.postForm("/auth/two-factor/verify", {
      csrfToken: token,
      code: await totp(key, { time: Date.now() + 30_000 }),
    });
    expect(passed.status).toBe(302);
    const session = (await (await browser.get("/auth/session")).json()) as Record<string, unknown>;
    expect(session).toMatchObject({ user: { email: "ada@example.com" } });
    expect(await (await browser.get("/account/2fa")).json()).toMatchObject({ enabled: true });
  });

  it("a route without a session gets null from status", async () => {
    const stranger = new HttpClient(origin);
    expect(await (await stranger.get("/account/2fa")).json()).toBeNull();
  });
});
