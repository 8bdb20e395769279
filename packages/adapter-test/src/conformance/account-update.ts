import { describe, expect, test } from "vitest";
import { accountFixture } from "../fixtures.js";
import { type SuiteContext, withoutAbsentFields } from "./context.js";

/** Tessera's extension: `updateAccount`, which stores refreshed OAuth tokens. */
export function accountUpdateTests(context: SuiteContext): void {
  const { adapter, db, createdUser } = context;

  describe("account update (Tessera extension)", () => {
    test("updateAccount writes refreshed tokens and keeps the fields it was not given", async () => {
      const user = await createdUser();
      const account = accountFixture(user.id);
      await adapter().linkAccount(account);
      const returned = await adapter().updateAccount({
        provider: account.provider,
        providerAccountId: account.providerAccountId,
        access_token: "refreshed-access-token",
        refresh_token: "rotated-refresh-token",
        // Past 2038 on purpose, as in linkAccount: a 32-bit column would overflow.
        expires_at: 4_102_448_400,
      });
      const expected = {
        ...account,
        access_token: "refreshed-access-token",
        refresh_token: "rotated-refresh-token",
        expires_at: 4_102_448_400,
      };
      expect(returned).toMatchObject(expected);
      expect(await db.account(account)).toMatchObject(expected);
      expect(await adapter().getUserByAccount(account)).toMatchObject({ id: user.id });
    });

    test("updateAccount clears a field given as null", async () => {
      const user = await createdUser();
      const account = accountFixture(user.id);
      await adapter().linkAccount(account);
      await adapter().updateAccount({
        provider: account.provider,
        providerAccountId: account.providerAccountId,
        refresh_token: null,
      });
      const stored = withoutAbsentFields((await db.account(account)) ?? {});
      expect(stored).not.toHaveProperty("refresh_token");
      expect(stored).toMatchObject({ access_token: account.access_token });
    });

    test("updateAccount changes only the account it names", async () => {
      const user = await createdUser();
      const updated = accountFixture(user.id, { provider: "github" });
      const untouched = accountFixture(user.id, { provider: "gitlab" });
      const sameIdElsewhere = accountFixture(user.id, {
        provider: "google",
        providerAccountId: updated.providerAccountId,
      });
      for (const account of [updated, untouched, sameIdElsewhere])
        await adapter().linkAccount(account);
      await adapter().updateAccount({
        provider: updated.provider,
        providerAccountId: updated.providerAccountId,
        access_token: "only-this-one",
      });
      expect(await db.account(untouched)).toMatchObject(untouched);
      expect(await db.account(sameIdElsewhere)).toMatchObject(sameIdElsewhere);
    });

    test("updateAccount returns null for an unknown account and creates none", async () => {
      const key = { provider: "example-idp", providerAccountId: `absent-${Date.now()}` };
      expect(await adapter().updateAccount({ ...key, access_token: "x" })).toBeNull();
      expect(await db.account(key)).toBeNull();
    });
  });
}
