import { randomUUID } from "node:crypto";
import type { AdapterAccount } from "@tessera/core/adapters";
import { describe, expect, test } from "vitest";
import { accountFixture } from "../fixtures.js";
import { type SuiteContext, settled } from "./context.js";

/** The token fields an OAuth account may carry (snake_case, as providers send them). */
const TOKEN_FIELDS = [
  "access_token",
  "refresh_token",
  "id_token",
  "token_type",
  "scope",
  "expires_at",
  "session_state",
] as const;

/**
 * `linkAccount`, `unlinkAccount`, `getUserByAccount`. Stored accounts are read back through the
 * storage readers: `getAccount` belongs to WebAuthn (see `authenticatorTests`).
 */
export function accountTests(context: SuiteContext): void {
  const { adapter, db, createdUser, features } = context;

  describe("accounts", () => {
    test("linkAccount stores every OAuth token field", async () => {
      const user = await createdUser();
      const account = accountFixture(user.id);
      const linked = await adapter().linkAccount(account);
      // Returning the account is optional; when it is returned it must be this one.
      if (linked) expect(linked).toMatchObject(account);
      expect(await db.account(account)).toMatchObject(account);
    });

    test("linkAccount keeps expires_at beyond 2038 as a number of seconds", async () => {
      const user = await createdUser();
      const account = accountFixture(user.id, { expires_at: 4_102_444_800 });
      await adapter().linkAccount(account);
      expect((await db.account(account))?.expires_at).toBe(4_102_444_800);
    });

    test("linkAccount stores an account that carries no tokens", async () => {
      const user = await createdUser();
      const account: AdapterAccount = {
        userId: user.id,
        type: "email",
        provider: "email",
        providerAccountId: user.email,
      };
      await adapter().linkAccount(account);
      const stored = await db.account(account);
      expect(stored).toMatchObject(account);
      for (const field of TOKEN_FIELDS) expect(stored?.[field] ?? null).toBeNull();
    });

    test("getUserByAccount returns the user a linked account belongs to", async () => {
      const user = await createdUser();
      const account = accountFixture(user.id);
      await adapter().linkAccount(account);
      expect(
        await adapter().getUserByAccount({
          provider: account.provider,
          providerAccountId: account.providerAccountId,
        }),
      ).toMatchObject(user);
    });

    test("getUserByAccount returns null for an unknown provider account", async () => {
      expect(
        await adapter().getUserByAccount({ provider: "github", providerAccountId: randomUUID() }),
      ).toBeNull();
    });

    test("getUserByAccount does not match the same account id at another provider", async () => {
      const user = await createdUser();
      const account = accountFixture(user.id, { provider: "github" });
      await adapter().linkAccount(account);
      expect(
        await adapter().getUserByAccount({
          provider: "gitlab",
          providerAccountId: account.providerAccountId,
        }),
      ).toBeNull();
    });

    test("a user can link accounts at several providers", async () => {
      const user = await createdUser();
      const github = accountFixture(user.id, { provider: "github", type: "oauth" });
      const google = accountFixture(user.id, { provider: "google" });
      await adapter().linkAccount(github);
      await adapter().linkAccount(google);
      expect(await adapter().getUserByAccount(github)).toMatchObject(user);
      expect(await adapter().getUserByAccount(google)).toMatchObject(user);
    });

    test("unlinkAccount removes the account and keeps the user and its other accounts", async () => {
      const user = await createdUser();
      const unlinked = accountFixture(user.id, { provider: "github", type: "oauth" });
      const kept = accountFixture(user.id, { provider: "google" });
      await adapter().linkAccount(unlinked);
      await adapter().linkAccount(kept);

      await adapter().unlinkAccount({
        provider: unlinked.provider,
        providerAccountId: unlinked.providerAccountId,
      });

      expect(await db.account(unlinked)).toBeNull();
      expect(await adapter().getUserByAccount(unlinked)).toBeNull();
      expect(await db.account(kept)).toMatchObject(kept);
      expect(await adapter().getUser(user.id)).toMatchObject(user);
      expect(await adapter().getUserByAccount(kept)).toMatchObject(user);
    });

    /** Links a provider account to one user, then tries to link it to another. */
    async function linkedTwice() {
      const owner = await createdUser();
      const other = await createdUser();
      const account = accountFixture(owner.id);
      await adapter().linkAccount(account);
      return {
        owner,
        account,
        second: settled(() => adapter().linkAccount({ ...account, userId: other.id })),
      };
    }

    if (features.uniqueAccount) {
      test("linkAccount rejects a provider account that is already linked", async () => {
        const { owner, account, second } = await linkedTwice();
        await expect(second).rejects.toThrow();
        expect(await adapter().getUserByAccount(account)).toMatchObject(owner);
      });
    } else {
      test("linkAccount accepts a provider account that is already linked, as declared by uniqueAccount: false", async () => {
        await expect((await linkedTwice()).second).resolves.not.toThrow();
      });
    }
  });
}
