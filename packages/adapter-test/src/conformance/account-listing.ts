import type { AdapterAccount } from "@tessera/core/adapters";
import { describe, expect, test } from "vitest";
import { accountFixture } from "../fixtures.js";
import type { SuiteContext } from "./context.js";

/** Tessera's extension: `listAccountsByUserId`. */
export function accountListingTests(context: SuiteContext): void {
  const { adapter, createdUser, absentUserId } = context;
  const byProvider = (a: AdapterAccount, b: AdapterAccount) => a.provider.localeCompare(b.provider);

  describe("account listing (Tessera extension)", () => {
    test("listAccountsByUserId returns every account of the user and none of others", async () => {
      const user = await createdUser();
      const other = await createdUser();
      const accounts = [
        accountFixture(user.id, { provider: "github" }),
        accountFixture(user.id, { provider: "google" }),
      ];
      for (const account of accounts) await adapter().linkAccount(account);
      await adapter().linkAccount(accountFixture(other.id, { provider: "github" }));
      const listed = await adapter().listAccountsByUserId(user.id);
      expect([...listed].sort(byProvider)).toMatchObject([...accounts].sort(byProvider));
    });

    test("listAccountsByUserId leaves out an unlinked account", async () => {
      const user = await createdUser();
      const kept = accountFixture(user.id, { provider: "github" });
      const dropped = accountFixture(user.id, { provider: "gitlab" });
      await adapter().linkAccount(kept);
      await adapter().linkAccount(dropped);
      await adapter().unlinkAccount(dropped);
      expect(await adapter().listAccountsByUserId(user.id)).toMatchObject([kept]);
    });

    test("listAccountsByUserId returns an empty array for an unknown user", async () => {
      expect(await adapter().listAccountsByUserId(await absentUserId())).toEqual([]);
    });
  });
}
