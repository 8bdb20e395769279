import { randomUUID } from "node:crypto";
import type { AdapterAuthenticator } from "@tessera/core/adapters";
import { describe, expect, test } from "vitest";
import { accountFixture, authenticatorFixture } from "../fixtures.js";
import { type SuiteContext, settled, withoutAbsentFields } from "./context.js";

/**
 * WebAuthn: `getAccount` (Auth.js calls it only to find a passkey's account), `createAuthenticator`,
 * `getAuthenticator`, `listAuthenticatorsByUserId`, `updateAuthenticatorCounter`, and `deleteUser`
 * reaching the authenticators.
 */
export function authenticatorTests(context: SuiteContext): void {
  const { adapter, createdUser, absentUserId, readAuthenticator, features } = context;

  /** An authenticator of `userId` with its passkey account, as a WebAuthn registration stores it. */
  async function createdAuthenticator(
    userId: string,
    overrides: Partial<AdapterAuthenticator> = {},
  ): Promise<AdapterAuthenticator> {
    const authenticator = authenticatorFixture(userId, overrides);
    await adapter().linkAccount(
      accountFixture(userId, {
        type: "webauthn",
        provider: "passkey",
        providerAccountId: authenticator.providerAccountId,
      }),
    );
    return adapter().createAuthenticator(authenticator);
  }

  describe("WebAuthn: getAccount and authenticators", () => {
    test("getAccount returns a linked account with every OAuth token field", async () => {
      const user = await createdUser();
      const account = accountFixture(user.id, { expires_at: 4_102_444_800 });
      await adapter().linkAccount(account);
      const found = await adapter().getAccount(account.providerAccountId, account.provider);
      expect(found).toMatchObject(account);
      expect(found?.expires_at).toBe(4_102_444_800);
    });

    test("getAccount returns null for an unknown provider account", async () => {
      expect(await adapter().getAccount(randomUUID(), "example-idp")).toBeNull();
    });

    test("getAccount does not match the same account id at another provider", async () => {
      const user = await createdUser();
      const account = accountFixture(user.id, { provider: "github" });
      await adapter().linkAccount(account);
      expect(await adapter().getAccount(account.providerAccountId, "gitlab")).toBeNull();
    });

    test("getAccount returns null once the account is unlinked", async () => {
      const user = await createdUser();
      const account = accountFixture(user.id);
      await adapter().linkAccount(account);
      await adapter().unlinkAccount(account);
      expect(await adapter().getAccount(account.providerAccountId, account.provider)).toBeNull();
    });

    test("createAuthenticator stores the authenticator and returns it", async () => {
      const user = await createdUser();
      const authenticator = authenticatorFixture(user.id);
      const created = await adapter().createAuthenticator(authenticator);
      expect(created).toMatchObject(authenticator);
      expect(await readAuthenticator(authenticator.credentialID)).toMatchObject(authenticator);
      expect(await adapter().getAuthenticator(authenticator.credentialID)).toMatchObject(
        authenticator,
      );
    });

    test("getAuthenticator returns null for an unknown credential id", async () => {
      expect(await adapter().getAuthenticator(randomUUID())).toBeNull();
    });

    test("getAuthenticator matches the credential id exactly, including letter case", async () => {
      const user = await createdUser();
      const credentialID = `CredId_${randomUUID()}`;
      await createdAuthenticator(user.id, { credentialID });
      expect(await adapter().getAuthenticator(credentialID.toLowerCase())).toBeNull();
      expect(await adapter().getAuthenticator(credentialID.toUpperCase())).toBeNull();
    });

    test("an authenticator stored with transports null is read back with transports null", async () => {
      const user = await createdUser();
      const created = await createdAuthenticator(user.id, { transports: null });
      expect(created.transports ?? null).toBeNull();
      const stored = await adapter().getAuthenticator(created.credentialID);
      expect(stored).not.toBeNull();
      expect(stored?.transports ?? null).toBeNull();
    });

    test("an authenticator stored without transports is read back without transports", async () => {
      const user = await createdUser();
      const { transports: _ignored, ...withoutTransports } = authenticatorFixture(user.id);
      await adapter().createAuthenticator(withoutTransports);
      const stored = await adapter().getAuthenticator(withoutTransports.credentialID);
      expect(stored).toMatchObject(withoutTransports);
      expect(stored?.transports ?? null).toBeNull();
    });

    test("credentialBackedUp false is read back as the boolean false", async () => {
      const user = await createdUser();
      const created = await createdAuthenticator(user.id, {
        credentialBackedUp: false,
        credentialDeviceType: "singleDevice",
      });
      const stored = await adapter().getAuthenticator(created.credentialID);
      expect(stored?.credentialBackedUp).toBe(false);
      expect(stored?.credentialDeviceType).toBe("singleDevice");
    });

    test("listAuthenticatorsByUserId returns all authenticators of the user and no others", async () => {
      const user = await createdUser();
      const other = await createdUser();
      const first = await createdAuthenticator(user.id);
      const second = await createdAuthenticator(user.id, { transports: null });
      await createdAuthenticator(other.id);
      const listed = await adapter().listAuthenticatorsByUserId(user.id);
      const byId = (a: Partial<AdapterAuthenticator>, b: Partial<AdapterAuthenticator>) =>
        String(a.credentialID).localeCompare(String(b.credentialID));
      expect([...listed].sort(byId)).toMatchObject(
        [first, second].map(withoutAbsentFields).sort(byId),
      );
    });

    test("listAuthenticatorsByUserId returns an empty array for an unknown user", async () => {
      expect(await adapter().listAuthenticatorsByUserId(await absentUserId())).toEqual([]);
    });

    test("updateAuthenticatorCounter stores the new counter and returns the authenticator", async () => {
      const user = await createdUser();
      const created = await createdAuthenticator(user.id);
      const updated = await adapter().updateAuthenticatorCounter(created.credentialID, 42);
      expect(updated).toMatchObject({ ...created, counter: 42 });
      expect((await readAuthenticator(created.credentialID))?.counter).toBe(42);
      expect((await adapter().getAuthenticator(created.credentialID))?.counter).toBe(42);
    });

    test("updateAuthenticatorCounter keeps counters up to 2^32 - 1 exactly", async () => {
      const user = await createdUser();
      const created = await createdAuthenticator(user.id);
      const counter = 2 ** 32 - 1;
      await adapter().updateAuthenticatorCounter(created.credentialID, counter);
      expect((await adapter().getAuthenticator(created.credentialID))?.counter).toBe(counter);
    });

    test("updateAuthenticatorCounter rejects for an unknown credential id", async () => {
      await expect(
        settled(() => adapter().updateAuthenticatorCounter(`missing-${randomUUID()}`, 1)),
      ).rejects.toThrow();
    });

    if (features.uniqueCredentialId) {
      test("createAuthenticator rejects a credential id that is already registered", async () => {
        const user = await createdUser();
        const created = await createdAuthenticator(user.id);
        await expect(
          settled(() => adapter().createAuthenticator({ ...created, counter: 99 })),
        ).rejects.toThrow();
        expect((await adapter().getAuthenticator(created.credentialID))?.counter).toBe(
          created.counter,
        );
      });
    } else {
      test("createAuthenticator accepts a credential id that is already registered, as declared by uniqueCredentialId: false", async () => {
        const user = await createdUser();
        const created = await createdAuthenticator(user.id);
        await expect(
          settled(() => adapter().createAuthenticator({ ...created, counter: 99 })),
        ).resolves.not.toThrow();
      });
    }

    test("deleteUser cascades to the user's WebAuthn authenticators", async () => {
      const user = await createdUser();
      const authenticator = await createdAuthenticator(user.id);

      await adapter().deleteUser(user.id);

      expect(await readAuthenticator(authenticator.credentialID)).toBeNull();
      expect(await adapter().getAuthenticator(authenticator.credentialID)).toBeNull();
      expect(await adapter().listAuthenticatorsByUserId(user.id)).toEqual([]);
    });
  });
}
