import { randomUUID } from "node:crypto";
import type { SharedStore } from "@tessera/core/store";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/** Options of {@link runSharedStoreConformance}. */
export interface SharedStoreConformanceOptions {
  /** The store, or a function creating it (after `connect`). */
  store: SharedStore | (() => SharedStore | Promise<SharedStore>);
  /** Runs once before the suite (open connections, run migrations). */
  connect?(): void | Promise<void>;
  /** Runs once after the suite (drop test tables, close connections). */
  disconnect?(): void | Promise<void>;
  /** How many parallel calls race for one key in the atomicity tests (default 40). */
  parallelCalls?: number;
}

/** Resolves after `ms` milliseconds. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Registers a vitest suite that certifies a `SharedStore` (`@tessera/core/store`): sliding-window
 * rate limits that refuse over `max`, name a `retryAfter`, forget on `resetLimit` and let a client
 * in again once the window has passed; `add` that stores only absent or expired keys; and both
 * atomic under parallel calls. Keys are random, so the suite can share a store with others.
 *
 * @example
 * ```ts
 * import { runSharedStoreConformance } from "@tessera/adapter-test"
 * runSharedStoreConformance("redis", { store: () => redisStore(redis, { prefix: "test:" }) })
 * ```
 */
export function runSharedStoreConformance(
  name: string,
  options: SharedStoreConformanceOptions,
): void {
  const parallel = options.parallelCalls ?? 40;
  let resolved: SharedStore | undefined;
  const store = (): SharedStore => {
    if (!resolved) throw new Error("the store was not created: did connect() fail?");
    return resolved;
  };
  const key = (label: string) => `conformance:${label}:${randomUUID()}`;

  describe(`${name}: shared store conformance`, () => {
    beforeAll(async () => {
      await options.connect?.();
      resolved = typeof options.store === "function" ? await options.store() : options.store;
    });
    afterAll(async () => {
      await options.disconnect?.();
    });

    test("consume allows max attempts in a window, counting down remaining, then refuses", async () => {
      const limit = key("limit");
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await store().consume(limit, 60, 3));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
      expect(results.slice(0, 3).every((r) => r.retryAfter === 0)).toBe(true);
      // Refused in a 60 s window: the wait is positive, and the attempts fade from a sliding
      // window within two fixed windows at most.
      expect(results[3]?.retryAfter).toBeGreaterThan(0);
      expect(results[3]?.retryAfter).toBeLessThanOrEqual(120);
    });

    test("a refused attempt is not counted, and other keys have their own windows", async () => {
      const limit = key("refused");
      expect((await store().consume(limit, 60, 1)).allowed).toBe(true);
      for (let i = 0; i < 3; i++) expect((await store().consume(limit, 60, 1)).allowed).toBe(false);
      expect((await store().consume(key("other"), 60, 1)).allowed).toBe(true);
      await store().resetLimit(limit);
      // Had refusals counted, the key would still be over its limit after one more attempt.
      expect(await store().consume(limit, 60, 1)).toMatchObject({ allowed: true, remaining: 0 });
    });

    test("resetLimit forgets the attempts of a key, and resetting an unknown key is harmless", async () => {
      const limit = key("reset");
      await store().consume(limit, 60, 1);
      expect((await store().consume(limit, 60, 1)).allowed).toBe(false);
      await store().resetLimit(limit);
      expect((await store().consume(limit, 60, 1)).allowed).toBe(true);
      await expect(store().resetLimit(key("unknown"))).resolves.toBeUndefined();
    });

    test("a client that waits out the window is let in again", async () => {
      const limit = key("window");
      // A one-second window: after two of them, nothing of the first attempts weighs any more.
      expect((await store().consume(limit, 1, 2)).allowed).toBe(true);
      expect((await store().consume(limit, 1, 2)).allowed).toBe(true);
      const refused = await store().consume(limit, 1, 2);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfter).toBeLessThanOrEqual(2);
      await pause(2_050);
      expect((await store().consume(limit, 1, 2)).allowed).toBe(true);
    });

    test(`consume is atomic: of ${parallel} parallel attempts on one key exactly max are allowed`, async () => {
      const limit = key("parallel");
      const results = await Promise.all(
        Array.from({ length: parallel }, () => store().consume(limit, 60, 7)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(7);
      expect(
        results
          .filter((r) => r.allowed)
          .map((r) => r.remaining)
          .sort(),
      ).toEqual([0, 1, 2, 3, 4, 5, 6]);
    });

    test("add stores an absent key once; get reads it; delete removes it", async () => {
      const entry = key("add");
      expect(await store().get(entry)).toBeNull();
      expect(await store().add(entry, "first", 60)).toBe(true);
      expect(await store().add(entry, "second", 60)).toBe(false);
      expect(await store().get(entry)).toBe("first");
      await store().delete(entry);
      expect(await store().get(entry)).toBeNull();
      expect(await store().add(entry, "third", 60)).toBe(true);
      expect(await store().get(entry)).toBe("third");
      await expect(store().delete(key("absent"))).resolves.toBeUndefined();
    });

    test("deleteIf removes a key only while it holds the given value (a lock's owner)", async () => {
      const lock = key("owned");
      expect(await store().add(lock, "owner-a", 60)).toBe(true);
      expect(await store().deleteIf(lock, "owner-b")).toBe(false);
      expect(await store().get(lock)).toBe("owner-a");
      expect(await store().deleteIf(lock, "owner-a")).toBe(true);
      expect(await store().get(lock)).toBeNull();
      expect(await store().deleteIf(lock, "owner-a")).toBe(false);
      expect(await store().deleteIf(key("absent-owned"), "x")).toBe(false);
    });

    test("an added value expires after its TTL, and then the key can be added again", async () => {
      const entry = key("ttl");
      expect(await store().add(entry, "short", 1)).toBe(true);
      expect(await store().get(entry)).toBe("short");
      await pause(1_100);
      expect(await store().get(entry)).toBeNull();
      expect(await store().add(entry, "again", 60)).toBe(true);
      expect(await store().get(entry)).toBe("again");
    });

    test("keys of any length and characters are kept apart", async () => {
      const long = `${key("long")}:${"x".repeat(400)}`;
      const longer = `${long}y`;
      const odd = `${key("odd")}:{ü}:%20 ' " ;--`;
      expect(await store().add(long, "a", 60)).toBe(true);
      expect(await store().add(longer, "b", 60)).toBe(true);
      expect(await store().add(odd, "c", 60)).toBe(true);
      expect([await store().get(long), await store().get(longer), await store().get(odd)]).toEqual([
        "a",
        "b",
        "c",
      ]);
    });

    test("keys that differ only in letter case or trailing spaces are different keys", async () => {
      // Keys are often base64url digests: a store comparing them case-insensitively (MySQL's
      // default collations) or padding them with spaces would let two of them share one value.
      const base = key("Case");
      const variants = [base, base.toUpperCase(), base.toLowerCase(), `${base} `];
      for (const [i, variant] of variants.entries())
        expect(await store().add(variant, `value-${i}`, 60), variant).toBe(true);
      expect(await Promise.all(variants.map((variant) => store().get(variant)))).toEqual(
        variants.map((_, i) => `value-${i}`),
      );
      await store().consume(base, 60, 1);
      for (const variant of variants.slice(1))
        expect((await store().consume(variant, 60, 1)).allowed, variant).toBe(true);
    });

    test(`add is atomic: of ${parallel} parallel adds of one key exactly one stores it (a lock)`, async () => {
      const lock = key("lock");
      const results = await Promise.all(
        Array.from({ length: parallel }, (_, i) => store().add(lock, `owner-${i}`, 60)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store().get(lock)).toBe(`owner-${results.indexOf(true)}`);
    });
  });
}
