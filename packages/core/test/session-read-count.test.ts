/**
 * The session read path asks the store as little as it can: a database session read is one
 * `getSessionAndUser`, plus one `updateSession` when the session is due for an extension; a JWT
 * session read touches no adapter at all. The adapter is the real memory adapter, its methods
 * counted on the way through.
 */
import type { AuthConfig } from "@tessera/core";
import type { Adapter } from "@tessera/core/adapters";
import Credentials from "@tessera/core/providers/credentials";
import { MemoryAdapter } from "@tessera/memory";
import { describe, expect, it } from "vitest";
import { Client, SECRET } from "./helpers.js";

/** `adapter` with every call counted by method name. */
function counted(adapter: Adapter): { adapter: Adapter; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(adapter)) {
    if (typeof method !== "function") continue;
    wrapped[name] = (...args: unknown[]) => {
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return (method as (...a: unknown[]) => unknown).apply(adapter, args);
    };
  }
  return { adapter: wrapped as Adapter, calls };
}

function config(adapter: Adapter, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter,
    providers: [
      Credentials({
        authorize: (c) => (c.password === "pw" ? { id: "u1", email: "ada@example.com" } : null),
      }),
    ],
    ...overrides,
  };
}

async function signedIn(cfg: AuthConfig): Promise<Client> {
  const client = new Client(cfg);
  await client.post("/auth/callback/credentials", {
    csrfToken: await client.csrfToken(),
    password: "pw",
  });
  return client;
}

describe("the adapter calls of a session read", () => {
  it("database session, not due: one getSessionAndUser and nothing else", async () => {
    const { adapter, calls } = counted(MemoryAdapter());
    const client = await signedIn(config(adapter, { session: { strategy: "database" } }));
    calls.clear();
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
    expect(Object.fromEntries(calls)).toEqual({ getSessionAndUser: 1 });
  });

  it("database session due for an extension: getSessionAndUser, then one updateSession", async () => {
    const { adapter, calls } = counted(MemoryAdapter());
    const cfg = config(adapter, { session: { strategy: "database", updateAge: 0 } });
    const client = await signedIn(cfg);
    calls.clear();
    await client.session();
    expect(Object.fromEntries(calls)).toEqual({ getSessionAndUser: 1, updateSession: 1 });
  });

  it("JWT session: no adapter call at all, even with an adapter configured", async () => {
    const { adapter, calls } = counted(MemoryAdapter());
    const client = await signedIn(config(adapter, { session: { strategy: "jwt" } }));
    calls.clear();
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
    expect(calls.size).toBe(0);
  });
});
