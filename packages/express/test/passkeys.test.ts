/**
 * Passkey management in an Express app: the server functions `listPasskeys`, `renamePasskey` and
 * `deletePasskey` in the app's own routes, reaching the core's passkeys action in-process with
 * the request's session cookie, over real HTTP. Passkeys are seeded into the memory adapter by
 * the shared fixture (their creation runs in Chromium in e2e/passkeys.test.ts).
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  expectOwnPasskeysOnly,
  passkeyFixture,
  passkeyRoutes,
} from "../../core/test/fixtures/passkeys.js";
import {
  deletePasskey,
  ExpressAuth,
  type ExpressAuthConfig,
  listPasskeys,
  renamePasskey,
} from "../src/index.js";

const fixture = passkeyFixture();
const config: ExpressAuthConfig = { ...fixture.config, trustHost: true };

let server: Server;
let origin: string;

beforeAll(async () => {
  const app = express();
  app.use("/auth", ExpressAuth(config));
  app.get("/passkeys", async (req, res) => {
    res.json(await listPasskeys(req, config));
  });
  // The app's own routes: a real app protects these with its CSRF defence.
  app.post("/passkeys/rename", express.json(), async (req, res) => {
    res.json(await renamePasskey(req, config, String(req.body.id), String(req.body.name)));
  });
  app.post("/passkeys/delete", express.json(), async (req, res) => {
    res.json(await deletePasskey(req, config, String(req.body.id)));
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The app's passkey routes over HTTP, for a browser with `cookie`. */
const routesFor = (cookie: string | undefined) =>
  passkeyRoutes(cookie, async ({ path, ...init }) =>
    (await fetch(`${origin}${path}`, init)).json(),
  );

describe("passkey management in an Express app", () => {
  it("lists, renames and deletes the signed-in user's passkeys, and refuses another user's (IDOR)", async () => {
    await expectOwnPasskeysOnly(fixture, routesFor);
  });
});
