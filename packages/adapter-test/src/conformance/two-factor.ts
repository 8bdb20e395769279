import type { TwoFactorAdapter } from "@tessera/core/two-factor";
import { describe, expect, test } from "vitest";
import type { SuiteContext } from "./context.js";

/**
 * Tessera's two-factor methods (`@tessera/core/two-factor`'s `TwoFactorAdapter`): the factor
 * record, replay refusal by time step and single-use backup codes, both atomic under concurrency.
 */
export function twoFactorTests(context: SuiteContext): void {
  const { createdUser } = context;
  const adapter = () => context.adapter() as unknown as TwoFactorAdapter;
  const record = (userId: string) => ({
    userId,
    secret: `sealed-${userId}-${"x".repeat(300)}`,
    enabledAt: null,
    lastUsedStep: null,
  });

  describe("two-factor (Tessera extension)", () => {
    test("setTwoFactor stores a pending factor that getTwoFactor returns; activation replaces it", async () => {
      const user = await createdUser();
      expect(await adapter().getTwoFactor(user.id)).toBeNull();
      await adapter().setTwoFactor(record(user.id));
      expect(await adapter().getTwoFactor(user.id)).toEqual(record(user.id));
      const enabledAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 123);
      await adapter().setTwoFactor({ ...record(user.id), enabledAt, lastUsedStep: 58_000_000 });
      const active = await adapter().getTwoFactor(user.id);
      expect(active?.enabledAt).toBeInstanceOf(Date);
      expect(active?.enabledAt?.getTime()).toBe(enabledAt.getTime());
      expect(active?.lastUsedStep).toBe(58_000_000);
    });

    test("useTotpStep accepts a later step only: a replay or an earlier step is refused", async () => {
      const user = await createdUser();
      await adapter().setTwoFactor(record(user.id));
      expect(await adapter().useTotpStep(user.id, 100)).toBe(true);
      expect(await adapter().useTotpStep(user.id, 100)).toBe(false);
      expect(await adapter().useTotpStep(user.id, 99)).toBe(false);
      expect(await adapter().useTotpStep(user.id, 101)).toBe(true);
      expect((await adapter().getTwoFactor(user.id))?.lastUsedStep).toBe(101);
      const other = await createdUser();
      expect(await adapter().useTotpStep(other.id, 102)).toBe(false);
    });

    test("useTotpStep: of parallel uses of one step exactly one passes", async () => {
      const user = await createdUser();
      await adapter().setTwoFactor(record(user.id));
      const results = await Promise.all(
        Array.from({ length: 20 }, () => adapter().useTotpStep(user.id, 500)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    test("backup codes: single use, counted, replaced as a set, another user's never match", async () => {
      const user = await createdUser();
      const other = await createdUser();
      await adapter().setTwoFactor(record(user.id));
      await adapter().setBackupCodes(user.id, ["a".repeat(64), "b".repeat(64)]);
      expect(await adapter().countBackupCodes(user.id)).toBe(2);
      expect(await adapter().useBackupCode(other.id, "a".repeat(64))).toBe(false);
      expect(await adapter().useBackupCode(user.id, "a".repeat(64))).toBe(true);
      expect(await adapter().useBackupCode(user.id, "a".repeat(64))).toBe(false);
      expect(await adapter().useBackupCode(user.id, "A".repeat(64))).toBe(false);
      await adapter().setBackupCodes(user.id, ["c".repeat(64)]);
      expect(await adapter().useBackupCode(user.id, "b".repeat(64))).toBe(false);
      expect(await adapter().countBackupCodes(user.id)).toBe(1);
    });

    test("backup-code race: of parallel uses of one code exactly one passes", async () => {
      const user = await createdUser();
      await adapter().setTwoFactor(record(user.id));
      await adapter().setBackupCodes(user.id, ["d".repeat(64)]);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => adapter().useBackupCode(user.id, "d".repeat(64))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await adapter().countBackupCodes(user.id)).toBe(0);
    });

    test("deleteTwoFactor removes the factor and its backup codes", async () => {
      const user = await createdUser();
      await adapter().setTwoFactor(record(user.id));
      await adapter().setBackupCodes(user.id, ["e".repeat(64)]);
      await adapter().deleteTwoFactor(user.id);
      expect(await adapter().getTwoFactor(user.id)).toBeNull();
      expect(await adapter().countBackupCodes(user.id)).toBe(0);
      await adapter().deleteTwoFactor(user.id);
    });
  });
}
