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

  test("memoryStore({ maxKeys }) refuses a maxKeys that is not a positive integer", () => {
    expect(() => memoryStore({ maxKeys: 0 })).toThrow(/positive integer/);
  });
});
