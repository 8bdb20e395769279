// A custom adapter typed `Adapter`, and one wrapping an existing adapter, as the Auth.js adapter
// guide shows.
import type { AuthConfig } from "@tessera/core";
import type { Adapter, AdapterSession, AdapterUser } from "@tessera/core/adapters";
import { MemoryAdapter } from "@tessera/memory";

const users = new Map<string, AdapterUser>();

export const tiny: Adapter = {
  async createUser(user) {
    users.set(user.id, user);
    return user;
  },
  async getUser(id) {
    return users.get(id) ?? null;
  },
  async getUserByEmail(email) {
    return [...users.values()].find((user) => user.email === email) ?? null;
  },
};

export function withAudit(adapter: Adapter): Adapter {
  return {
    ...adapter,
    async createSession(session: AdapterSession) {
      const created = await adapter.createSession?.(session);
      if (!created) throw new Error("no session");
      return created;
    },
  };
}

export const config: AuthConfig = {
  adapter: withAudit(MemoryAdapter()),
  session: { strategy: "database", maxAge: 30 * 24 * 60 * 60 },
  providers: [],
};

export const wrongAdapter: Adapter = {
  // @ts-expect-error getUser resolves to a user or null, not a string
  getUser: async () => "user",
};
