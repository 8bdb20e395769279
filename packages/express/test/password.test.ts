/**
 * Password accounts in an Express app: ExpressAuth serves the password rows under its mount path,
 * and the app's own routes run `passwordApi` through `actionRunner(req, config)`, the session
 * cookie of a sign-in written on the Express response. No code of the Express package names the
 * extension.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Password, type PasswordEmail, password, passwordApi } from "@tessera/core/password";
import { memoryStore } from "@tessera/core/store";
import { MemoryAdapter } from "@tessera/memory";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionRunner, ExpressAuth, type ExpressAuthConfig } from "../src/index.js";
import { HttpClient } from "./http-client.js";

// Cheap scrypt parameters: the integration is under test here, not the hashing cost.
const FAST = { ln: 10, r: 8, p: 1 };
const adapter = MemoryAdapter();
const mails: PasswordEmail[] = [];
const config: ExpressAuthConfig = {
  secret: "express-password-secret-at-least-32-chars",
  trustHost: true,
  adapter,
  session: { strategy: "database" },
  rateLimit: { storage: memoryStore() },
  providers: [Password({ adapter, scrypt: FAST })],
  experimental: {
    extensions: [
      password({
        scrypt: FAST,
        // Offline: the breached-password check has its own tests in the core.
        breachedPasswords: false,
        send: async (mail) => void mails.push(mail),
      }),
    ],
  },
};

let server: Server;
let origin: string;

beforeAll(async () => {
  const app = express();
  app.use("/auth", ExpressAuth(config));
  app.use(express.json());
  // The app's own routes: a real app protects them with its CSRF defence.
  app.post("/account/sign-up", async (req, res) => {
    await passwordApi(actionRunner(req, config)).signUp(req.body);
    res.json({ sent: true });
  });
  app.post("/account/verify", async (req, res) => {
    res.json(await passwordApi(actionRunner(req, config)).verify(req.body));
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("password accounts in Express", () => {
  it("signs up through the app's route and the code signs in with the cookie on Express's response", async () => {
    const browser = new HttpClient(origin);
    const json = { "content-type": "application/json" };
    const sent = await browser.fetch("/account/sign-up", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "ada@example.com", password: "a long passphrase" }),
    });
    expect(await sent.json()).toEqual({ sent: true });
    const code = mails.find((mail) => mail.to === "ada@example.com")?.code ?? "";
    const verified = await browser.fetch("/account/verify", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "ada@example.com", code }),
    });
    expect(verified.status).toBe(200);
    expect(await (await browser.get("/auth/session")).json()).toMatchObject({
      user: { email: "ada@example.com" },
    });
    // The built-in page is served by ExpressAuth as well.
    const page = await browser.get("/auth/password/signup", { accept: "text/html" });
    expect(await page.text()).toContain("Create account");
  });
});
