/**
 * Session listing and revocation in an Express app: the HTTP actions under the mount path, and
 * the server functions `listSessions`, `revokeSession`, `revokeOtherSessions` in the app's own
 * routes, with the client IP Express reports (`req.ip`, honouring `trust proxy`).
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Credentials from "@tessera/core/providers/credentials";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ExpressAuth,
  type ExpressAuthConfig,
  listSessions,
  revokeOtherSessions,
  revokeSession,
} from "../src/index.js";
import { HttpClient } from "./http-client.js";

const config: ExpressAuthConfig = {
  secret: "express-sessions-secret-at-least-32-chars",
  trustHost: true,
  adapter: MemoryAdapter(createMemoryStore()),
  providers: [
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: ({ username, password }) =>
        password === "pw"
          ? { id: `u-${String(username)}`, email: `${String(username)}@example.com` }
          : null,
    }),
  ],
};

let server: Server;
let origin: string;

beforeAll(async () => {
  const app = express();
  app.use("/auth", ExpressAuth(config));
  app.get("/devices", async (req, res) => {
    res.json(await listSessions(req, config));
  });
  // The app's own routes: a real app protects these with its CSRF defence.
  app.post("/devices/revoke", express.json(), async (req, res) => {
    res.json({ revoked: await revokeSession(req, config, String(req.body.id)) });
  });
  app.post("/devices/revoke-others", async (req, res) => {
    res.json({ revoked: await revokeOtherSessions(req, config) });
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function signedIn(username: string, userAgent: string): Promise<HttpClient> {
  const client = new HttpClient(origin);
  const csrfToken = await client.csrfToken("/auth", { "user-agent": userAgent });
  const response = await client.postForm(
    "/auth/callback/credentials",
    { csrfToken, username, password: "pw" },
    { "user-agent": userAgent },
  );
  expect(response.status).toBe(302);
  return client;
}

interface Listed {
  id: string;
  current: boolean;
  ip: string | null;
  userAgent: string | null;
}

describe("sessions in an Express app", () => {
  it("records the client IP Express reports and lists the sessions through the HTTP action and listSessions", async () => {
    const laptop = await signedIn("grace", "Laptop");
    await signedIn("grace", "Phone");
    const viaAction = (await (await laptop.get("/auth/sessions")).json()) as Listed[];
    const viaFunction = (await (await laptop.get("/devices")).json()) as Listed[];
    expect(viaFunction).toEqual(viaAction);
    expect(viaAction.map((s) => [s.current, s.userAgent])).toEqual([
      [true, "Laptop"],
      [false, "Phone"],
    ]);
    // The socket address (no proxy is trusted): a forged X-Forwarded-For changes nothing.
    for (const session of viaAction) expect(session.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it("ignores a forged X-Forwarded-For when Express trusts no proxy", async () => {
    const client = new HttpClient(origin);
    const headers = { "x-forwarded-for": "203.0.113.9" };
    const csrfToken = await client.csrfToken("/auth", headers);
    await client.postForm(
      "/auth/callback/credentials",
      { csrfToken, username: "forger", password: "pw" },
      headers,
    );
    const [listed] = (await (await client.get("/devices")).json()) as Listed[];
    expect(listed?.ip).not.toBe("203.0.113.9");
  });

  it("revokes one session and then all others through the app's routes", async () => {
    const first = await signedIn("ada", "First");
    const second = await signedIn("ada", "Second");
    const third = await signedIn("ada", "Third");
    const listed = (await (await first.get("/devices")).json()) as Listed[];
    const secondId = listed.find((s) => s.userAgent === "Second")?.id;

    const one = await first.fetch("/devices/revoke", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: secondId }),
    });
    expect(await one.json()).toEqual({ revoked: 1 });
    expect(await (await second.get("/auth/session")).json()).toBeNull();

    const others = await first.fetch("/devices/revoke-others", { method: "POST" });
    expect(await others.json()).toEqual({ revoked: 1 });
    expect(await (await third.get("/auth/session")).json()).toBeNull();
    expect(await (await first.get("/auth/session")).json()).toMatchObject({
      user: { email: "ada@example.com" },
    });
    // Signed out, there is nothing to list.
    expect(await (await new HttpClient(origin).get("/devices")).json()).toBeNull();
  });
});
