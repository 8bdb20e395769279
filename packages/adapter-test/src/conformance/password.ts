import type { Adapter } from "@tessera/core/adapters";
import type { PasswordAdapter } from "@tessera/core/password";
import { describe, expect, test } from "vitest";
import type { SuiteContext } from "./context.js";

/**
 * Tessera's password methods (`@tessera/core/password`'s `PasswordAdapter`): one hash per user,
 * replaced whole, kept apart from other users, and gone with the user.
 */
export function passwordTests(context: SuiteContext): void {
  const { createdUser } = context;
  const adapter = () => context.adapter() as unknown as PasswordAdapter & Adapter;
  // A real PHC string's shape and length, with the characters a hash may contain.
  const phc = (tag: string) => `$scrypt$ln=17,r=8,p=1$${tag}+/salt0123456789ab$${"k".repeat(43)}`;

  describe("password (Tessera extension)", () => {
    test("a user without a password has none; setPasswordHash stores the PHC string exactly", async () => {
      const user = await createdUser();
      expect(await adapter().getPasswordHash(user.id)).toBeNull();
      await adapter().setPasswordHash(user.id, phc("A"));
      expect(await adapter().getPasswordHash(user.id)).toBe(phc("A"));
    });

    test("setPasswordHash replaces the hash (reset, re-hash) and another user's stays", async () => {
      const user = await createdUser();
      const other = await createdUser();
      await adapter().setPasswordHash(user.id, phc("A"));
      await adapter().setPasswordHash(other.id, phc("B"));
      await adapter().setPasswordHash(user.id, phc("C"));
      expect(await adapter().getPasswordHash(user.id)).toBe(phc("C"));
      expect(await adapter().getPasswordHash(other.id)).toBe(phc("B"));
    });

    test("the hash is case-exact: a hash differing in case is another hash", async () => {
      const user = await createdUser();
      await adapter().setPasswordHash(user.id, phc("a"));
      expect(await adapter().getPasswordHash(user.id)).toBe(phc("a"));
      expect(await adapter().getPasswordHash(user.id)).not.toBe(phc("A"));
    });

    test("deletePasswordHash removes it (twice is harmless); deleteUser removes it too", async () => {
      const user = await createdUser();
      await adapter().setPasswordHash(user.id, phc("D"));
      await adapter().deletePasswordHash(user.id);
      expect(await adapter().getPasswordHash(user.id)).toBeNull();
      await adapter().deletePasswordHash(user.id);
      const gone = await createdUser();
      await adapter().setPasswordHash(gone.id, phc("E"));
      await adapter().deleteUser?.(gone.id);
      expect(await adapter().getPasswordHash(gone.id)).toBeNull();
    });
  });
}
