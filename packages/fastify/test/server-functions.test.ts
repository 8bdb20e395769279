/**
 * The server functions of @tessera/fastify in a Fastify app's own routes (through `app.inject`,
 * Fastify's in-process HTTP): `passkeys(request)` lists, renames and deletes the signed-in
 * user's passkeys and refuses another user's (IDOR), and `actionRunner(request)` sets the cookies
 * an action answers on the reply. The real Fastify and the memory adapter; nothing is mocked.
 */
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectOwnPasskeysOnly,
  passkeyFixture,
  passkeyRoutes,
} from "../../core/test/fixtures/passkeys.js";
import { actionRunner, passkeys, TesseraAuth } from "../src/index.js";

const fixture = passkeyFixture();
const app = Fastify();

beforeAll(async () => {
  await app.register(TesseraAuth, { prefix: "/auth", trustHost: true, ...fixture.config });
  app.get("/passkeys", (request) => passkeys(request).list());
  // The app's own routes: a real app protects these with its CSRF defence.
  app.post<{ Body: { id: string; name: string } }>("/passkeys/rename", (request) =>
    passkeys(request).rename(request.body.id, request.body.name),
  );
  app.post<{ Body: { id: string } }>("/passkeys/delete", (request) =>
    passkeys(request).delete(request.body.id),
  );
  app.get("/csrf", async (request) => (await actionRunner(request)({ action: "csrf" })).body);
  await app.ready();
});
afterAll(() => app.close());

/** The app's passkey routes, through `app.inject`, for a browser with `cookie`. */
const routesFor = (cookie: string | undefined) =>
  passkeyRoutes(cookie, async ({ path, method, headers, body }) =>
    (await app.inject({ url: path, method, headers, ...(body && { payload: body }) })).json(),
  );

describe("server functions in a Fastify app", () => {
  it("passkeys(request) manages the signed-in user's passkeys and refuses another user's (IDOR)", async () => {
    await expectOwnPasskeysOnly(fixture, routesFor);
  });

  it("actionRunner(request) sets the cookies an action answers on the reply", async () => {
    const response = await app.inject({ method: "GET", url: "/csrf" });
    expect(response.json().csrfToken).toMatch(/^[0-9a-f]{64}$/);
    expect(response.headers["set-cookie"]).toEqual([expect.stringMatching(/^authjs\.csrf-token=/)]);
  });
});
