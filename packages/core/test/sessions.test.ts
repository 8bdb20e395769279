/**
 * Listing and revoking sessions (`GET <basePath>/sessions`, `POST <basePath>/sessions/revoke`,
 * and the in-process `listSessions`/`revokeSession`/`revokeOtherSessions`) on every adapter
 * Tessera ships, against the real databases, and with an unchanged Auth.js adapter.
 */
import { randomUUID } from "node:crypto";
import PostgresAdapter from "@auth/pg-adapter";
import { type AuthConfig, listSessions, revokeOtherSessions, revokeSession } from "@tessera/core";
import type { Adapter, AdapterSession } from "@tessera/core/adapters";
import Credentials from "@tessera/core/providers/credentials";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAuthPgSchema } from "./fixtures/auth-pg-schema.js";
import { emailPasswordCredentials } from "./fixtures/credentials.js";
import { sharedDatabaseTargets } from "./fixtures/shared-database.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const cookieName = "authjs.session-token";
const unique = () => randomUUID().replaceAll("-", "").slice(0, 10);

interface Recorded {
  revoked: { userId?: string; session?: AdapterSession }[];
  signOuts: unknown[];
}

function configFor(adapter: Adapter, recorded: Recorded): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter,
    logger: recordingLogger().logger,
    events: {
      sessionRevoked: (message) => void recorded.revoked.push(message),
      signOut: (message) => void recorded.signOuts.push(message),
    },
    providers: [emailPasswordCredentials()],
  };
}

/** A browser that signs in as `email` with its own cookie jar and User-Agent. */
async function signedIn(config: AuthConfig, email: string, userAgent: string): Promise<Client> {
  const client = new Client(config);
  const response = await client.post(
    "/auth/callback/credentials",
    { csrfToken: await client.csrfToken(), email, password: "pw" },
    { "user-agent": userAgent },
  );
  expect(response.status).toBe(302);
  expect(client.jar.get(cookieName)).toBeTruthy();
  return client;
}

interface Listed {
  id: string;
  current: boolean;
  expires: string;
  createdAt: string | null;
  lastSeenAt: string | null;
  ip: string | null;
  userAgent: string | null;
  device: string | null;
}

async function list(client: Client): Promise<{ status: number; body: Listed[] }> {
  const response = await client.get("/auth/sessions");
  return { status: response.status, body: (await response.json()) as Listed[] };
}

async function revoke(client: Client, form: Record<string, string>) {
  const response = await client.post("/auth/sessions/revoke", {
    csrfToken: await client.csrfToken(),
    ...form,
  });
  return { status: response.status, body: (await response.json()) as { revoked?: number } };
}

for (const target of sharedDatabaseTargets) {
  describe(`sessions: ${target.label}`, () => {
    let adapter: Adapter;
    let close: () => Promise<void>;
    const recorded: Recorded = { revoked: [], signOuts: [] };
    let config: AuthConfig;

    beforeAll(async () => {
      const opened = await target.open(1);
      adapter = opened.adapters[0] as Adapter;
      close = opened.close;
      config = configFor(adapter, recorded);
    });
    afterAll(() => close());

    it("lists the user's sessions from another cookie jar: current first, device metadata, ids that are not tokens", async () => {
      const email = `list-${unique()}@example.com`;
      const laptop = await signedIn(config, email, "Laptop/1.0");
      const phone = await signedIn(config, email, "Phone/2.0");
      await signedIn(config, `other-${unique()}@example.com`, "Someone else");

      const { status, body } = await list(phone);
      expect(status).toBe(200);
      expect(body).toHaveLength(2);
      expect(body.map((s) => [s.current, s.userAgent])).toEqual([
        [true, "Phone/2.0"],
        [false, "Laptop/1.0"],
      ]);
      for (const entry of body) {
        expect(Object.keys(entry).sort()).toEqual([
          "createdAt",
          "current",
          "device",
          "expires",
          "id",
          "ip",
          "lastSeenAt",
          "userAgent",
        ]);
        expect(Date.parse(entry.createdAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
        expect(entry.ip).toBeNull(); // Auth() was given no client IP
        // The handle is opaque: neither session token appears in the answer.
        expect(JSON.stringify(body)).not.toContain(laptop.jar.get(cookieName));
        expect(JSON.stringify(body)).not.toContain(phone.jar.get(cookieName));
      }
      const response = await phone.get("/auth/sessions");
      expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store");
    });

    it("names each device as people do, beside the raw User-Agent", async () => {
      const email = `names-${unique()}@example.com`;
      const iphone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
      const linux =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
      await signedIn(config, email, iphone);
      await signedIn(config, email, "curl/8.5.0");
      const desktop = await signedIn(config, email, linux);
      const { body } = await list(desktop);
      expect(body[0]).toMatchObject({ current: true, device: "Chrome on Linux", userAgent: linux });
      expect(body.slice(1).map((s) => [s.device, s.userAgent])).toEqual(
        expect.arrayContaining([
          ["Safari on iPhone", iphone],
          [null, "curl/8.5.0"],
        ]),
      );
      expect(body).toHaveLength(3);
    });

    it("revokes one session by id from another device; it reads as signed out at once", async () => {
      const email = `one-${unique()}@example.com`;
      const laptop = await signedIn(config, email, "Laptop");
      const phone = await signedIn(config, email, "Phone");
      const { body } = await list(phone);
      const laptopId = body.find((s) => !s.current)?.id ?? "";
      const before = recorded.revoked.length;

      expect(await revoke(phone, { id: laptopId })).toEqual({ status: 200, body: { revoked: 1 } });
      expect(await laptop.session()).toBeNull();
      expect(await phone.session()).toMatchObject({ user: { email } });
      expect((await list(phone)).body).toHaveLength(1);
      expect(recorded.revoked.slice(before)).toMatchObject([
        { userId: expect.any(String), session: { userAgent: "Laptop" } },
      ]);
      expect(recorded.signOuts.length).toBeGreaterThan(0);
      // Revoking the same id again finds nothing: it is gone.
      expect(await revoke(phone, { id: laptopId })).toEqual({ status: 200, body: { revoked: 0 } });
    });

    it("revokes every other session with others=true and keeps the current one", async () => {
      const email = `others-${unique()}@example.com`;
      const devices = [
        await signedIn(config, email, "A"),
        await signedIn(config, email, "B"),
        await signedIn(config, email, "C"),
      ];
      const [a, b, c] = devices as [Client, Client, Client];
      expect(await revoke(b, { others: "true" })).toEqual({ status: 200, body: { revoked: 2 } });
      expect(await a.session()).toBeNull();
      expect(await c.session()).toBeNull();
      expect(await b.session()).toMatchObject({ user: { email } });
      expect((await list(b)).body.map((s) => s.userAgent)).toEqual(["B"]);
    });

    it("revoking the current session by id signs this device out and clears its cookie", async () => {
      const client = await signedIn(config, `self-${unique()}@example.com`, "Self");
      const [current] = (await list(client)).body;
      expect(await revoke(client, { id: current?.id ?? "" })).toEqual({
        status: 200,
        body: { revoked: 1 },
      });
      expect(client.jar.has(cookieName)).toBe(false);
      expect((await list(client)).status).toBe(401);
    });

    it("a session id of another user revokes nothing (no cross-account revocation)", async () => {
      const victim = await signedIn(config, `victim-${unique()}@example.com`, "Victim");
      const attacker = await signedIn(config, `attacker-${unique()}@example.com`, "Attacker");
      const [victimSession] = (await list(victim)).body;
      expect(await revoke(attacker, { id: victimSession?.id ?? "" })).toEqual({
        status: 200,
        body: { revoked: 0 },
      });
      expect(await victim.session()).not.toBeNull();
    });

    it("refuses a revocation without the CSRF token (403), a malformed body (400) and a signed-out client (401)", async () => {
      const client = await signedIn(config, `csrf-${unique()}@example.com`, "X");
      const forged = await client.post("/auth/sessions/revoke", { others: "true" });
      expect(forged.status).toBe(403);
      expect(await client.session()).not.toBeNull();
      expect((await revoke(client, {})).status).toBe(400);
      expect((await revoke(client, { id: "x", others: "true" })).status).toBe(400);
      expect((await revoke(client, { id: "x".repeat(500) })).status).toBe(400);
      expect(
        (await client.post("/auth/sessions", { csrfToken: await client.csrfToken() })).status,
      ).toBe(400);
      expect((await client.get("/auth/sessions/revoke")).status).toBe(400);
      expect((await client.get("/auth/sessions/other")).status).toBe(400);
      const stranger = new Client(config);
      expect((await list(stranger)).status).toBe(401);
      expect((await revoke(stranger, { others: "true" })).status).toBe(401);
    });

    it("moves lastSeenAt when a read extends the session, not on every read (updateAge)", async () => {
      const email = `seen-${unique()}@example.com`;
      const client = await signedIn(config, email, "Seen");
      const [before] = (await list(client)).body;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await client.session(); // default updateAge (a day): not due, nothing written
      expect((await list(client)).body[0]?.lastSeenAt).toBe(before?.lastSeenAt);

      const eager = new Client({ ...config, session: { updateAge: 0 } });
      eager.jar.set(cookieName, client.jar.get(cookieName) ?? "");
      await eager.session(); // due at once: extended, and seen now
      const [after] = (await list(eager)).body;
      expect(Date.parse(after?.lastSeenAt ?? "")).toBeGreaterThan(
        Date.parse(before?.lastSeenAt ?? ""),
      );
      expect(after?.createdAt).toBe(before?.createdAt);
    });

    it("runs in-process for server code: listSessions, revokeSession, revokeOtherSessions", async () => {
      const email = `server-${unique()}@example.com`;
      const first = await signedIn(config, email, "First");
      const second = await signedIn(config, email, "Second");
      const third = await signedIn(config, email, "Third");
      const incoming = (client: Client) =>
        new Request(`${ORIGIN}/dashboard`, { headers: { cookie: client.cookieHeader() } });

      const listed = await listSessions(incoming(first), config);
      expect(listed?.[0]).toMatchObject({ current: true, userAgent: "First" });
      expect(
        listed
          ?.slice(1)
          .map((s) => s.userAgent)
          .sort(),
      ).toEqual(["Second", "Third"]);
      const secondId = listed?.find((s) => s.userAgent === "Second")?.id ?? "";

      // Server functions take no CSRF token: the app's server code answers for that.
      expect(await revokeSession(incoming(first), config, secondId)).toEqual({
        revoked: 1,
        cookies: [],
      });
      expect(await second.session()).toBeNull();
      expect(await revokeOtherSessions(incoming(first), config)).toMatchObject({ revoked: 1 });
      expect(await third.session()).toBeNull();
      expect(await listSessions({ url: `${ORIGIN}/`, headers: new Headers() }, config)).toBeNull();
      const self = await revokeSession(incoming(first), config, listed?.[0]?.id ?? "");
      expect(self.revoked).toBe(1);
      expect(self.cookies.map((c) => [c.name, c.value])).toContainEqual([cookieName, ""]);
    });
  });
}

describe("sessions with an unchanged Auth.js adapter (@auth/pg-adapter) and with JWT sessions", () => {
  const pool = useAuthPgSchema("tessera_sl");

  it("signs in, reads and extends sessions as before; the sessions action answers 404", async () => {
    const adapter = PostgresAdapter(pool) as unknown as Adapter;
    const base = configFor(adapter, { revoked: [], signOuts: [] });
    // The pg adapter assigns serial ids: credentials sign-in looks the user up by e-mail.
    const config: AuthConfig = { ...base, session: { updateAge: 0 } };
    const client = await signedIn(config, "pg@example.com", "Browser");
    expect(await client.session()).toMatchObject({ user: { email: "pg@example.com" } });
    expect(await client.session()).toMatchObject({ user: { email: "pg@example.com" } });
    expect((await client.get("/auth/sessions")).status).toBe(404);
    expect((await revoke(client, { others: "true" })).status).toBe(404);
    await expect(
      listSessions(
        new Request(`${ORIGIN}/`, { headers: { cookie: client.cookieHeader() } }),
        config,
      ),
    ).rejects.toThrow(/database strategy/);
  });

  it("answers 404 with the JWT strategy, where sessions are not stored", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [Credentials({ authorize: () => ({ id: "1", email: "jwt@example.com" }) })],
    };
    const client = await signedIn(config, "jwt@example.com", "Browser");
    expect((await client.get("/auth/sessions")).status).toBe(404);
  });
});
