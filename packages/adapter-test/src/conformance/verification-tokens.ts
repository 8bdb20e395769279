import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { verificationTokenFixture } from "../fixtures.js";
import type { SuiteContext } from "./context.js";

/** `createVerificationToken`, `useVerificationToken`: single use, also under concurrency. */
export function verificationTokenTests(context: SuiteContext): void {
  const { adapter, db, parallelTokenUses } = context;

  describe("verification tokens", () => {
    test("createVerificationToken stores the token", async () => {
      const token = verificationTokenFixture(`vt.${randomUUID()}@example.com`);
      const created = await adapter().createVerificationToken(token);
      // The contract allows returning nothing; when a token is returned it must be this one.
      if (created) expect(created).toMatchObject(token);
      expect(await db.verificationToken(token)).toMatchObject(token);
    });

    test("useVerificationToken returns the token with its exact expiry and deletes it", async () => {
      const token = verificationTokenFixture(`vt.${randomUUID()}@example.com`);
      await adapter().createVerificationToken(token);
      const used = await adapter().useVerificationToken({
        identifier: token.identifier,
        token: token.token,
      });
      expect(used).toMatchObject(token);
      expect(used?.expires).toBeInstanceOf(Date);
      expect(used?.expires.getTime()).toBe(token.expires.getTime());
      expect(await db.verificationToken(token)).toBeNull();
    });

    test("useVerificationToken returns null on the second use of a token", async () => {
      const token = verificationTokenFixture(`vt.${randomUUID()}@example.com`);
      await adapter().createVerificationToken(token);
      expect(await adapter().useVerificationToken(token)).not.toBeNull();
      expect(await adapter().useVerificationToken(token)).toBeNull();
    });

    test("useVerificationToken returns null for an unknown token", async () => {
      expect(
        await adapter().useVerificationToken({
          identifier: `vt.${randomUUID()}@example.com`,
          token: randomUUID(),
        }),
      ).toBeNull();
    });

    test("useVerificationToken returns null for another identifier and keeps the token", async () => {
      const token = verificationTokenFixture(`vt.${randomUUID()}@example.com`);
      await adapter().createVerificationToken(token);
      expect(
        await adapter().useVerificationToken({
          identifier: `intruder.${randomUUID()}@example.com`,
          token: token.token,
        }),
      ).toBeNull();
      expect(await db.verificationToken(token)).toMatchObject(token);
    });

    test("two tokens of the same identifier are used independently", async () => {
      const identifier = `vt.${randomUUID()}@example.com`;
      const first = verificationTokenFixture(identifier);
      const second = verificationTokenFixture(identifier);
      await adapter().createVerificationToken(first);
      await adapter().createVerificationToken(second);
      expect(await adapter().useVerificationToken(first)).toMatchObject(first);
      expect(await db.verificationToken(second)).toMatchObject(second);
      expect(await adapter().useVerificationToken(second)).toMatchObject(second);
    });

    test(`${parallelTokenUses} parallel useVerificationToken calls on one token let exactly one caller have it`, async () => {
      const token = verificationTokenFixture(`race.${randomUUID()}@example.com`);
      await adapter().createVerificationToken(token);
      const results = await Promise.all(
        Array.from({ length: parallelTokenUses }, () =>
          adapter().useVerificationToken({ identifier: token.identifier, token: token.token }),
        ),
      );
      const winners = results.filter((result) => result !== null);
      expect(winners).toMatchObject([token]);
      expect(await db.verificationToken(token)).toBeNull();
    });
  });
}
