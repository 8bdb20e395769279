/**
 * Passkey management in an Express app: the server functions `listPasskeys`, `renamePasskey` and
 * `deletePasskey` in the app's own routes, reaching the core's passkeys action in-process with
 * the request's session cookie. Passkeys are seeded into the memory adapter (their creation runs
 * in Chromium in e2e/passkeys.test.ts); the users sign in with a password.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AdapterAuthenticator } from "@tessera/core/adapters";
import Credentials from "@tessera/core/providers/credentials";
import Passkey from "@tessera/core/providers/passkey";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  deletePasskey,
  ExpressAuth,
  type ExpressAuthConfig,
  listPasskeys,
  renamePasskey,
} from "../src/index.js";
import { HttpClient } from "./http-client.js";

const store = createMemoryStore();
for (const id of ["ada", "grace"])
  store.users.set(id, { id, email: `${id}@example.com`, name: id, emailVerified: null });
/** A stored passkey of `userId` (ids and keys are base64, as WebAuthn registration stores them). */
function storedPasskey(userId: string): AdapterAuthenticator {
  return {
    credentialID: Buffer.from(`credential of ${userId}`).toString("base64"),
    userId,
    providerAccountId: Buffer.from(`credential of ${userId}`).toString("base64url"),
    counter: 0,
    credentialBackedUp: true,
    credentialPublicKey: Buffer.from(`public key of ${userId}`).toString("base64"),
    transports: "internal,hybrid",
    credentialDeviceType: "multiDevice",
  };
}
const adaPasskey = storedPasskey("ada");
const gracePasskey = storedPasskey("grace");
store.authenticators.set(adaPasskey.credentialID, adaPasskey);
store.authenticators.set(gracePasskey.credentialID, gracePasskey);
const browserId = (stored: string) => Buffer.from(stored, "base64").toString("base64url");

const config: ExpressAuthConfig = {
  secret: "express-passkeys-secret-at-least-32-chars",
  trustHost: true,
  adapter: MemoryAdapter(store),
  experimental: { enableWebAuthn: true },
  logger: { warn() {}, debug() {} },
  providers: [
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: ({ username }) => store.users.get(String(username)) ?? null,
    }),
    Passkey(),
  ],
};

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

function postJson(client: HttpClient, path: string, body: unknown): Promise<Response> {
  return client.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function signedIn(username: string): Promise<HttpClient> {
  const client = new HttpClient(origin);
  const csrfToken = await client.csrfToken("/auth");
  const response = await client.postForm("/auth/callback/credentials", {
    csrfToken,
    username,
    password: "pw",
  });
  expect(response.status).toBe(302);
  return client;
}

describe("passkey management in an Express app", () => {
  it("lists, renames and deletes the signed-in user's passkeys, and refuses another user's (IDOR)", async () => {
    const ada = await signedIn("ada");
    const listed = await (await ada.get("/passkeys")).json();
    expect(listed.passkeys).toEqual([
      expect.objectContaining({
        id: browserId(adaPasskey.credentialID),
        name: null,
        deviceType: "multiDevice",
        backedUp: true,
      }),
    ]);

    const graceId = browserId(gracePasskey.credentialID);
    const foreign = await postJson(ada, "/passkeys/delete", { id: graceId });
    expect(await foreign.json()).toBeNull();
    expect(store.authenticators.has(gracePasskey.credentialID)).toBe(true);
    const foreignRename = await postJson(ada, "/passkeys/rename", { id: graceId, name: "mine" });
    expect(await foreignRename.json()).toBeNull();

    const id = browserId(adaPasskey.credentialID);
    const renamed = await (await postJson(ada, "/passkeys/rename", { id, name: "Laptop" })).json();
    expect(renamed.passkeys[0].name).toBe("Laptop");
    const left = await (await postJson(ada, "/passkeys/delete", { id })).json();
    expect(left.passkeys).toEqual([]);
    expect(store.authenticators.has(adaPasskey.credentialID)).toBe(false);
  });

  it("answers null when signed out", async () => {
    const anonymous = new HttpClient(origin);
    expect(await (await anonymous.get("/passkeys")).json()).toBeNull();
  });
});
