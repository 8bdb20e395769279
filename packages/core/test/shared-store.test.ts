import { runSharedStoreConformance } from "@tessera/adapter-test";
import { describe, expect, test } from "vitest";
import { BoundedExpiringMap } from "../src/lib/store/bounded-map.js";
import { memoryStore, slideWindow } from "../src/store.js";

runSharedStoreConformance("memoryStore", { store: memoryStore() });

describe("sliding-window counter", () => {
  const minute = 60_000;

  test("weights the previous window by how much of it the sliding window still covers", () => {
    const start = 100 * minute;
    // 10 attempts filled the previous window; a quarter into this one, 7.5 of them still count.
    const state = { start: start - minute, current: 10, previous: 0 };
    const step = slideWindow(state, start + minute / 4, minute, 10);
    expect(step.result).toMatchObject({ allowed: true, remaining: 1 });
    expect(step.next).toEqual({ start, current: 1, previous: 10 });
  });

  test("names the wait until the previous window has faded enough", () => {
    const start = 100 * minute;
    const state = { start, current: 0, previous: 10 };
    // At the window's start all 10 previous attempts count: one fits once 10 × (1 − t) ≤ 9.
    const step = slideWindow(state, start, minute, 10);
    expect(step.result).toEqual({ allowed: false, remaining: 0, retryAfter: 6 });
  });

  test("a full current window waits for the next window and the fading of this one", () => {
    const start = 100 * minute;
    const state = { start, current: 10, previous: 0 };
    const step = slideWindow(state, start + minute / 2, minute, 10);
    // 30 s to the next window, then 10 × (1 − t) ≤ 9 after another 6 s.
    expect(step.result).toEqual({ allowed: false, remaining: 0, retryAfter: 36 });
  });

  test("forgets a state older than two windows", () => {
    const start = 100 * minute;
    const state = { start: start - 2 * minute, current: 10, previous: 10 };
    expect(slideWindow(state, start, minute, 10).result).toMatchObject({ allowed: true });
  });
});

describe("memoryStore bounds", () => {
  test("a flood of keys never grows the map beyond maxKeys, forgetting the idlest first", () => {
    const map = new BoundedExpiringMap<number>(3);
    const later = Date.now() + 60_000;
    map.set("a", 1, later);
    map.set("b", 2, later);
    map.set("c", 3, later);
    map.set("a", 4, later); // written again: now the youngest
    map.set("d", 5, later);
    expect(map.size).toBe(3);
    expect([map.get("a"), map.get("b"), map.get("c"), map.get("d")]).toEqual([4, undefined, 3, 5]);
  });

  test("expired entries are dropped before live ones when the map is full", () => {
    const map = new BoundedExpiringMap<number>(2);
    const now = Date.now();
    map.set("live", 1, now + 60_000, now);
    map.set("stale", 2, now + 10, now);
    map.set("new", 3, now + 60_000, now + 20);
    expect([map.get("live", now + 20), map.get("new", now + 20)]).toEqual([1, 3]);
  });

  test("expired entries are dropped as their time passes, without their keys being read again", () => {
    const map = new BoundedExpiringMap<number>(100);
    const now = Date.now();
    for (let i = 0; i < 50; i++) map.set(`short-${i}`, i, now + 1_000 + i, now);
    map.set("long", 1, now + 60_000, now);
    expect(map.size).toBe(51);
    // Any operation after the expiry drops them: here the read of another key.
    expect(map.get("long", now + 1_025)).toBe(1);
    expect(map.size).toBe(25); // short-0 … short-25 expired at +1000 … +1025
    map.delete("absent");
    expect(map.get("long", now + 2_000)).toBe(1);
    expect(map.size).toBe(1);
    // A key written again expires at its new time, not at the first one.
    map.set("moved", 1, now + 2_100, now + 2_000);
    map.set("moved", 2, now + 5_000, now + 2_050);
    expect(map.get("moved", now + 3_000)).toBe(2);
    expect(map.get("moved", now + 5_000)).toBeUndefined();
    expect(map.size).toBe(1);
  });

  test("a protected entry is never evicted by unprotected ones, and protected ones take at most half the map", () => {
    const map = new BoundedExpiringMap<number>(4);
    const later = Date.now() + 60_000;
    map.set("locked", 1, later, undefined, { protect: true });
    for (let i = 0; i < 1_000; i++) map.set(`fresh-${i}`, i, later);
    expect(map.get("locked")).toBe(1);
    expect(map.size).toBe(4);
    // Protected entries make room for one another only: two of four, the oldest goes first.
    map.set("locked-2", 2, later, undefined, { protect: true });
    map.set("locked-3", 3, later, undefined, { protect: true });
    expect([map.get("locked"), map.get("locked-2"), map.get("locked-3")]).toEqual([
      undefined,
      2,
      3,
    ]);
    map.set("fresh-again", 4, later);
    expect(map.get("fresh-again")).toBe(4);
    expect(map.size).toBe(4);
    // Written again without protection, an entry is an ordinary one: the flood evicts it.
    map.set("locked-2", 2, later);
    for (let i = 0; i < 4; i++) map.set(`flood-${i}`, i, later);
    expect([map.get("locked-2"), map.get("locked-3")]).toEqual([undefined, 3]);
  });

  test("flush attack: 100,000 fresh keys in one window leave a locked-out key locked", async () => {
    const store = memoryStore();
    for (let i = 0; i < 10; i++) expect((await store.consume("victim", 60, 10)).allowed).toBe(true);
    expect((await store.consume("victim", 60, 10)).allowed).toBe(false);
    for (let i = 0; i < 100_000; i++) await store.consume(`fresh-${i}`, 60, 10);
    for (let i = 0; i < 10; i++)
      expect((await store.consume("victim", 60, 10)).allowed).toBe(false);
  });

  test("a window that is refusing attempts is not evicted by a flood of windows that are not", async () => {
    // The attempt that fills the window protects it, before any refusal is written.
    const store = memoryStore({ maxKeys: 10 });
    for (let i = 0; i < 3; i++) await store.consume("victim", 60, 3);
    for (let i = 0; i < 1_000; i++) await store.consume(`fresh-${i}`, 60, 3);
    expect((await store.consume("victim", 60, 3)).allowed).toBe(false);
    // An account two attempts short of the limit is an ordinary window: forgotten under a flood.
    await store.consume("partial", 60, 3);
    for (let i = 0; i < 10; i++) await store.consume(`more-${i}`, 60, 3);
    expect((await store.consume("partial", 60, 3)).remaining).toBe(2);
  });

  test("memoryStore({ maxKeys }) refuses a maxKeys that is not a positive integer", () => {
    expect(() => memoryStore({ maxKeys: 0 })).toThrow(/positive integer/);
  });
});
