/**
 * Running `oidc-provider` quietly and without a database: its storage in a Map, and its import
 * without the start-up notice about Node.js 20. Used by the demo's OpenID Provider and by the
 * test suite's (packages/core/test/fixtures/oidc-provider.ts).
 */
import type { Adapter, AdapterPayload } from "oidc-provider";

/**
 * oidc-provider's storage (sessions, codes, grants) in a Map. Its built-in one works too but
 * warns on every start that it is for development; this one is no more than the demo and the
 * tests need.
 */
export function memoryStorage(): (name: string) => Adapter {
  const records = new Map<string, { payload: AdapterPayload; expiresAt?: number }>();
  const key = (model: string, id: string) => `${model}:${id}`;
  const live = (entry: { payload: AdapterPayload; expiresAt?: number } | undefined) =>
    entry && (entry.expiresAt === undefined || entry.expiresAt > Date.now())
      ? entry.payload
      : undefined;
  return (model) => ({
    async upsert(id, payload, expiresIn) {
      records.set(key(model, id), {
        payload,
        ...(expiresIn !== undefined && { expiresAt: Date.now() + expiresIn * 1000 }),
      });
    },
    async find(id) {
      return live(records.get(key(model, id)));
    },
    async findByUid(uid) {
      for (const [name, entry] of records)
        if (name.startsWith(`${model}:`) && entry.payload.uid === uid) return live(entry);
      return undefined;
    },
    async findByUserCode(userCode) {
      for (const [name, entry] of records)
        if (name.startsWith(`${model}:`) && entry.payload.userCode === userCode) return live(entry);
      return undefined;
    },
    async consume(id) {
      const entry = records.get(key(model, id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id) {
      records.delete(key(model, id));
    },
    async revokeByGrantId(grantId) {
      for (const [name, entry] of records)
        if (entry.payload.grantId === grantId) records.delete(name);
    },
  });
}

/**
 * Loads oidc-provider without its start-up notice that Node.js 20 is not its preferred runtime
 * (the demo and its tests run it on Node 20 without trouble), keeping `npm start` output clean.
 * Every other console warning still goes through.
 */
export async function loadOidcProvider(): Promise<typeof import("oidc-provider").default> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].includes("Unsupported runtime")) return;
    warn(...args);
  };
  try {
    return (await import("oidc-provider")).default;
  } finally {
    console.warn = warn;
  }
}
