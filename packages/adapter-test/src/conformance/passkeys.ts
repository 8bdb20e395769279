import type { AdapterAuthenticator } from "@tessera/core/adapters";
import { describe, expect, test } from "vitest";
import { accountFixture, authenticatorFixture, dateWithMilliseconds } from "../fixtures.js";
import type { SuiteContext } from "./context.js";

/**
 * Tessera's passkey-management extension: `listPasskeysByUserId`, `updatePasskey` and
 * `deletePasskey`, each scoped to the passkey's owner.
 */
export function passkeyTests(context: SuiteContext): void {
  const { adapter, createdUser, absentUserId, readAuthenticator } = context;

  async function createdAuthenticator(userId: string): Promise<AdapterAuthenticator> {
    const authenticator = authenticatorFixture(userId);
    await adapter().linkAccount(
      accountFixture(userId, {
        type: "webauthn",
        provider: "passkey",
        providerAccountId: authenticator.providerAccountId,
      }),
    );
    return adapter().createAuthenticator(authenticator);
  }

  const noDetails = { name: null, createdAt: null, lastUsedAt: null, userHandle: null };

  describe("passkey management (Tessera extension)", () => {
    test("listPasskeysByUserId returns the user's authenticators with empty details, and no one else's", async () => {
      const user = await createdUser();
      const other = await createdUser();
      const mine = await createdAuthenticator(user.id);
      await createdAuthenticator(other.id);
      expect(await adapter().listPasskeysByUserId(user.id)).toEqual([
        expect.objectContaining({ ...mine, ...noDetails }),
      ]);
    });

    test("listPasskeysByUserId returns an empty array for an unknown user", async () => {
      expect(await adapter().listPasskeysByUserId(await absentUserId())).toEqual([]);
    });

    test("updatePasskey stores name, dates (to the millisecond) and user handle, and changes only the fields given", async () => {
      const user = await createdUser();
      const authenticator = await createdAuthenticator(user.id);
      const key = { userId: user.id, credentialID: authenticator.credentialID };
      const createdAt = dateWithMilliseconds(-60_000);
      const first = await adapter().updatePasskey({ ...key, createdAt, userHandle: "aGFuZGxl" });
      expect(first).toMatchObject({
        ...authenticator,
        name: null,
        createdAt,
        userHandle: "aGFuZGxl",
      });
      const lastUsedAt = dateWithMilliseconds(-1_000);
      await adapter().updatePasskey({ ...key, lastUsedAt });
      await adapter().updatePasskey({ ...key, name: "Work laptop — ü" });
      const [listed] = await adapter().listPasskeysByUserId(user.id);
      expect(listed).toMatchObject({
        name: "Work laptop — ü",
        createdAt,
        lastUsedAt,
        userHandle: "aGFuZGxl",
      });
      expect(listed?.createdAt).toBeInstanceOf(Date);
      await adapter().updatePasskey({ ...key, name: null });
      expect((await adapter().listPasskeysByUserId(user.id))[0]?.name).toBeNull();
    });

    test("updatePasskey refuses another user's credential (IDOR) and an unknown one with null", async () => {
      const owner = await createdUser();
      const attacker = await createdUser();
      const authenticator = await createdAuthenticator(owner.id);
      expect(
        await adapter().updatePasskey({
          userId: attacker.id,
          credentialID: authenticator.credentialID,
          name: "mine now",
        }),
      ).toBeNull();
      expect((await adapter().listPasskeysByUserId(owner.id))[0]?.name).toBeNull();
      expect(
        await adapter().updatePasskey({
          userId: owner.id,
          credentialID: authenticatorFixture(owner.id).credentialID,
          name: "ghost",
        }),
      ).toBeNull();
    });

    test("deletePasskey deletes the owner's authenticator and details and returns them", async () => {
      const user = await createdUser();
      const kept = await createdAuthenticator(user.id);
      const gone = await createdAuthenticator(user.id);
      const key = { userId: user.id, credentialID: gone.credentialID };
      await adapter().updatePasskey({ ...key, name: "Old phone" });
      expect(await adapter().deletePasskey(key)).toMatchObject({ ...gone, name: "Old phone" });
      expect(await adapter().getAuthenticator(gone.credentialID)).toBeNull();
      if (context.db.authenticator) expect(await readAuthenticator(gone.credentialID)).toBeNull();
      expect((await adapter().listPasskeysByUserId(user.id)).map((p) => p.credentialID)).toEqual([
        kept.credentialID,
      ]);
      expect(await adapter().deletePasskey(key)).toBeNull();
    });

    test("deletePasskey refuses another user's credential (IDOR): it stays", async () => {
      const owner = await createdUser();
      const attacker = await createdUser();
      const authenticator = await createdAuthenticator(owner.id);
      expect(
        await adapter().deletePasskey({
          userId: attacker.id,
          credentialID: authenticator.credentialID,
        }),
      ).toBeNull();
      expect(await adapter().getAuthenticator(authenticator.credentialID)).toMatchObject(
        authenticator,
      );
    });

    test("deleteUser removes the user's passkeys with their details", async () => {
      const user = await createdUser();
      const authenticator = await createdAuthenticator(user.id);
      await adapter().updatePasskey({
        userId: user.id,
        credentialID: authenticator.credentialID,
        name: "Laptop",
      });
      await adapter().deleteUser(user.id);
      expect(await adapter().listPasskeysByUserId(user.id)).toEqual([]);
      expect(await adapter().getAuthenticator(authenticator.credentialID)).toBeNull();
    });
  });
}
