import { accountFixture, userFixture } from "@tessera/adapter-test";
import type { AdapterAccount, AdapterSession } from "@tessera/core/adapters";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dropSchema, migrate, SqlAdapter } from "../src/index.js";
import { targets, uniqueTablePrefix } from "./support.js";

// A statement keyed by an undefined value must not run: depending on the driver it would match
// no row, fail obscurely, or (with the key left out) touch every row of the table. The casts
// below pass what a JavaScript caller without types can pass.

for (const target of targets) {
  describe(`SqlAdapter row keys on ${target.label}`, () => {
    const db = target.connect();
    const tablePrefix = uniqueTablePrefix();
    const adapter = SqlAdapter(db, { dialect: target.dialect, tablePrefix });

    beforeAll(() => migrate(db, { dialect: target.dialect, tablePrefix }));
    afterAll(async () => {
      await dropSchema(db, { dialect: target.dialect, tablePrefix });
      await db.destroy();
    });

    test("unlinkAccount with an undefined providerAccountId throws and leaves the accounts", async () => {
      const user = await adapter.createUser(userFixture());
      const account = accountFixture(user.id);
      await adapter.linkAccount(account);
      const key = { provider: account.provider } as AdapterAccount;
      await expect(adapter.unlinkAccount(key)).rejects.toThrow(/incomplete row key/);
      expect(await adapter.getUserByAccount(account)).toMatchObject(user);
    });

    test("updateSession with an undefined session token throws", async () => {
      const key = { expires: new Date() } as AdapterSession;
      await expect(adapter.updateSession(key)).rejects.toThrow(/incomplete row key/);
    });
  });
}
