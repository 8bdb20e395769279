/**
 * The server functions of @tessera/hono in a Hono app's own routes, in-process (`app.request`):
 * `passkeys(c)` lists, renames and deletes the signed-in user's passkeys and refuses another
 * user's (IDOR), and `actionRunner(c)` sets the cookies an action answers on `c`'s response.
 * Real Hono and the memory adapter; nothing is mocked.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import {
  expectOwnPasskeysOnly,
  passkeyFixture,
  passkeyRoutes,
} from "../../core/test/fixtures/passkeys.js";
import { actionRunner, authHandler, initAuthConfig, passkeys } from "../src/index.js";

const fixture = passkeyFixture();
const app = new Hono();
app.use(
  "*",
  initAuthConfig(() => ({ ...fixture.config, trustHost: true })),
);
app.use("/api/auth/*", authHandler());
app.get("/passkeys", async (c) => c.json(await passkeys(c).list()));
// The app's own routes: a real app protects these with its CSRF defence.
app.post("/passkeys/rename", async (c) => {
  const { id, name } = await c.req.json<{ id: string; name: string }>();
  return c.json(await passkeys(c).rename(id, name));
});
app.post("/passkeys/delete", async (c) => {
  const { id } = await c.req.json<{ id: string }>();
  return c.json(await passkeys(c).delete(id));
});
app.get("/csrf", async (c) => c.json((await actionRunner(c)({ action: "csrf" })).body));

/** The app's passkey routes, in-process, for a browser with `cookie`. */
const routesFor = (cookie: string | undefined) =>
  passkeyRoutes(cookie, async ({ path, ...init }) =>
    (await app.request(`http://127.0.0.1:3000${path}`, init)).json(),
  );

describe("server functions in a Hono app", () => {
  it("passkeys(c) manages the signed-in user's passkeys and refuses another user's (IDOR)", async () => {
    await expectOwnPasskeysOnly(fixture, routesFor);
  });

  it("actionRunner(c) sets the cookies an action answers on the route's response", async () => {
    const response = await app.request("http://127.0.0.1:3000/csrf");
    const { csrfToken } = (await response.json()) as { csrfToken: string };
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
    expect(response.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^authjs\.csrf-token=/),
    ]);
  });
});
