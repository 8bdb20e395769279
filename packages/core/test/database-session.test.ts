import PostgresAdapter from "@auth/pg-adapter";
import type { AuthConfig } from "@tessera/core";
import type { Adapter } from "@tessera/core/adapters";
import Credentials from "@tessera/core/providers/credentials";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useAuthPgSchema } from "./fixtures/auth-pg-schema.js";
import { Client, recordingLogger, SECRET } from "./helpers.js";
import { setCookies } from "./set-cookie.js";

const cookieName = "authjs.session-token";

function config(adapter: Adapter, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter,
    logger: recordingLogger().logger,
    providers: [
      Credentials({
        authorize: (c) =>
          c.password === "pw"
            ? { id: String(c.id ?? "u1"), name: "Ada", email: String(c.email ?? "ada@example.com") }
            : null,
      }),
    ],
    ...overrides,
  };
}

async function signIn(client: Client, form: Record<string, string> = {}) {
  return client.post("/auth/callback/credentials", {
    csrfToken: await client.csrfToken(),
    password: "pw",
    ...form,
  });
}

afterEach(() => vi.useRealTimers());

describe("database sessions (memory adapter)", () => {
  it("is the default strategy with an adapter, and credentials sign-in creates a database session", async () => {
    const store = createMemoryStore();
    const client = new Client(config(MemoryAdapter(store)));
    const response = await signIn(client);
    const token = setCookies(response).get(cookieName)?.value ?? "";
    expect(token).toMatch(/^[0-9a-f-]{36}$/); // the cookie holds only the session token
    expect(store.sessions.get(token)?.userId).toBe("u1");
    expect(store.users.get("u1")?.email).toBe("ada@example.com"); // created on first sign-in
    expect(await client.session()).toMatchObject({
      user: { name: "Ada", email: "ada@example.com" },
    });
  });

  it("signs an existing user in by e-mail without creating a duplicate", async () => {
    const store = createMemoryStore();
    const adapter = MemoryAdapter(store);
    await adapter.createUser({
      id: "existing",
      email: "ada@example.com",
      emailVerified: null,
      name: "Ada",
    });
    const client = new Client(config(adapter));
    await signIn(client, { id: "other-id" });
    expect(store.users.size).toBe(1);
    expect([...store.sessions.values()][0]?.userId).toBe("existing");
  });

  it("gives the session callback the user, and passes trigger update on POST", async () => {
    const seen: unknown[] = [];
    const client = new Client(
      config(MemoryAdapter(), {
        callbacks: {
          session: ({ session, user, trigger, newSession }) => {
            seen.push({ trigger, newSession });
            return { ...session, userId: user.id };
          },
        },
      }),
    );
    await signIn(client);
    expect(await client.session()).toMatchObject({ userId: "u1" });
    const csrfToken = await client.csrfToken();
    await client.postJson("/auth/session", { csrfToken, data: { theme: "dark" } });
    expect(seen.at(-1)).toEqual({ trigger: "update", newSession: { theme: "dark" } });
  });

  it("extends the expiry at most once per updateAge", async () => {
    const store = createMemoryStore();
    const client = new Client(
      config(MemoryAdapter(store), { session: { maxAge: 3600, updateAge: 600 } }),
    );
    await signIn(client);
    const [token] = [...store.sessions.keys()];
    const initial = store.sessions.get(token ?? "")?.expires.valueOf() ?? 0;
    const early = await client.get("/auth/session");
    expect(early.headers.getSetCookie()).toEqual([]);
    expect(store.sessions.get(token ?? "")?.expires.valueOf()).toBe(initial);
    vi.useFakeTimers({ now: Date.now() + 601_000, toFake: ["Date"] });
    const later = await client.get("/auth/session");
    expect(setCookies(later).has(cookieName)).toBe(true);
    expect(store.sessions.get(token ?? "")?.expires.valueOf()).toBeGreaterThan(initial);
  });

  it("deletes an expired session when it is read", async () => {
    const store = createMemoryStore();
    const client = new Client(config(MemoryAdapter(store), { session: { maxAge: 60 } }));
    await signIn(client);
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ["Date"] });
    const response = await client.get("/auth/session");
    expect(await response.json()).toBeNull();
    expect(store.sessions.size).toBe(0);
    expect(setCookies(response).get(cookieName)?.maxAge).toBe(0);
  });

  it("deletes the session on sign-out and emits signOut with it", async () => {
    const store = createMemoryStore();
    const events: unknown[] = [];
    const client = new Client(
      config(MemoryAdapter(store), { events: { signOut: (m) => void events.push(m) } }),
    );
    await signIn(client);
    await client.post("/auth/signout", { csrfToken: await client.csrfToken() });
    expect(store.sessions.size).toBe(0);
    expect(events).toHaveLength(1);
    expect(await client.session()).toBeNull();
  });

  it("answers null and keeps the cookie while the database is down, then recovers", async () => {
    const store = createMemoryStore();
    const adapter = MemoryAdapter(store);
    let down = false;
    const flaky: Adapter = {
      ...adapter,
      getSessionAndUser: async (token) => {
        if (down) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
        return adapter.getSessionAndUser(token);
      },
    };
    const log = recordingLogger();
    const client = new Client(config(flaky, { logger: log.logger }));
    await signIn(client);
    down = true;
    const response = await client.get("/auth/session");
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(log.errors[0]?.name).toBe("SessionTokenError");
    down = false;
    expect(await client.session()).toMatchObject({ user: { name: "Ada" } });
  });

  it("never logs session tokens in clear", async () => {
    const log = recordingLogger();
    const debugLines: string[] = [];
    const client = new Client(
      config(MemoryAdapter(), {
        logger: {
          ...log.logger,
          debug: (m, meta) => void debugLines.push(`${m} ${JSON.stringify(meta ?? "")}`),
        },
      }),
    );
    await signIn(client);
    await client.session();
    const token = client.jar.get(cookieName) ?? "";
    expect(token).not.toBe("");
    for (const line of [...debugLines, ...log.errors.map((e) => e.message)])
      expect(line).not.toContain(token);
  });
});

describe("an existing Auth.js adapter, unchanged: @auth/pg-adapter on PostgreSQL", () => {
  const pool = useAuthPgSchema("tessera_sl");

  it("runs sign-in, session reads, update and sign-out through the Auth.js adapter", async () => {
    const adapter = PostgresAdapter(pool) as unknown as Adapter;
    const client = new Client(config(adapter, { session: { updateAge: 0 } }));
    await signIn(client, { email: "pg@example.com" });
    const { rows: users } = await pool.query("SELECT * FROM users");
    expect(users).toHaveLength(1);
    expect(users[0].email).toBe("pg@example.com");
    const { rows: sessions } = await pool.query('SELECT * FROM sessions WHERE "userId" = $1', [
      users[0].id,
    ]);
    expect(sessions).toHaveLength(1);
    expect(client.jar.get(cookieName)).toBe(sessions[0].sessionToken);

    expect(await client.session()).toMatchObject({ user: { email: "pg@example.com" } });
    const { rows: after } = await pool.query("SELECT expires FROM sessions");
    expect(new Date(after[0].expires).valueOf()).toBeGreaterThanOrEqual(
      new Date(sessions[0].expires).valueOf(),
    );

    await client.post("/auth/signout", { csrfToken: await client.csrfToken() });
    expect((await pool.query("SELECT * FROM sessions")).rowCount).toBe(0);
    expect(await client.session()).toBeNull();
  });
});

describe("session fixation", () => {
  it("replaces the previous database session on a new sign-in", async () => {
    const store = createMemoryStore();
    const client = new Client(config(MemoryAdapter(store)));
    await signIn(client);
    const first = client.jar.get(cookieName);
    await signIn(client);
    const second = client.jar.get(cookieName);
    expect(second).not.toBe(first);
    expect(store.sessions.has(first ?? "")).toBe(false);
    expect(store.sessions.size).toBe(1);
  });
});
