import { runAdapterConformance, userFixture } from "@tessera/adapter-test";
import { describe, expect, test } from "vitest";
import {
  accountStoreKey,
  createMemoryStore,
  MemoryAdapter,
  verificationTokenStoreKey,
} from "../src/index.js";

const store = createMemoryStore();

runAdapterConformance("MemoryAdapter", {
  adapter: MemoryAdapter(store),
  db: {
    user: (id) => store.users.get(id) ?? null,
    account: (key) => store.accounts.get(accountStoreKey(key)) ?? null,
    session: (sessionToken) => store.sessions.get(sessionToken) ?? null,
    verificationToken: (key) =>
      store.verificationTokens.get(verificationTokenStoreKey(key)) ?? null,
    authenticator: (credentialID) => store.authenticators.get(credentialID) ?? null,
  },
  features: {
    twoFactor: true,
    organizations: true,
    organizationRoles: true,
    password: true,
    admin: true,
  },
});

describe("MemoryAdapter isolation", () => {
  test("mutating the object passed to createUser does not change the stored user", async () => {
    const adapter = MemoryAdapter();
    const user = userFixture({ name: "Before" });
    await adapter.createUser(user);
    user.name = "After";
    user.emailVerified?.setTime(0);
    const stored = await adapter.getUser(user.id);
    expect(stored?.name).toBe("Before");
    expect(stored?.emailVerified?.getTime()).not.toBe(0);
  });

  test("mutating a returned user or session does not change the stored one", async () => {
    const adapter = MemoryAdapter();
    const user = await adapter.createUser(userFixture({ name: "Kept" }));
    const expires = new Date(Date.now() + 60_000);
    await adapter.createSession({ sessionToken: "token", userId: user.id, expires });

    const found = await adapter.getSessionAndUser("token");
    if (!found) throw new Error("session not found");
    found.user.name = "Changed";
    found.session.expires.setTime(0);

    const again = await adapter.getSessionAndUser("token");
    expect(again?.user.name).toBe("Kept");
    expect(again?.session.expires.getTime()).toBe(expires.getTime());
  });

  test("a nested value an application stores on its user is copied deeply", async () => {
    const adapter = MemoryAdapter();
    const user = { ...userFixture(), roles: ["reader"], profile: { since: new Date(1000) } };
    await adapter.createUser(user);
    user.roles.push("admin");
    const found = (await adapter.getUser(user.id)) as typeof user | null;
    expect(found?.roles).toEqual(["reader"]);
    found?.profile.since.setTime(0);
    found?.roles.push("owner");
    const again = (await adapter.getUser(user.id)) as typeof user | null;
    expect(again?.roles).toEqual(["reader"]);
    expect(again?.profile.since.getTime()).toBe(1000);
  });

  test("two adapters without a shared store do not see each other's data", async () => {
    const first = MemoryAdapter();
    const second = MemoryAdapter();
    const user = await first.createUser(userFixture());
    expect(await second.getUser(user.id)).toBeNull();
  });

  test("updateUser ignores fields given as undefined", async () => {
    const adapter = MemoryAdapter();
    const user = await adapter.createUser(userFixture({ name: "Ada" }));
    const updated = await adapter.updateUser({ id: user.id, name: undefined, image: "x.png" });
    expect(updated).toEqual({ ...user, image: "x.png" });
  });
});
