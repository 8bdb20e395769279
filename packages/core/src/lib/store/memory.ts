/**
 * The in-process {@link SharedStore}: Tessera's default when a feature needs shared state and the
 * app named no store. It is shared by nothing but this process, so an app running several
 * instances passes a Redis or SQL store to every instance instead.
 */

import { BoundedExpiringMap } from "./bounded-map.js";
import type { RateLimitResult, SharedStore } from "./shared-store.js";
import { slideWindow, type WindowState } from "./sliding-window.js";

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Keys kept per kind of state (rate-limit windows; added values), default 100 000. Expired
   * keys are dropped as they expire; when full, the key written longest ago goes first. A
   * rate-limit window that is refusing attempts is only ever evicted by another such window (up
   * to half the keys). Size it above the number of revoked sessions that may be alive at once,
   * or a revocation could be forgotten early.
   */
  maxKeys?: number;
}

const DEFAULT_MAX_KEYS = 100_000;

/**
 * A {@link SharedStore} in this process's memory, bounded to `maxKeys` keys per kind. Every method
 * runs synchronously inside one call, so it is atomic within the process.
 *
 * @example
 * ```ts
 * import { memoryStore } from "@tessera/core/store"
 * const store = memoryStore()
 * const config = { rateLimit: { storage: store }, jwt: { revocation: store } }
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): SharedStore {
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const windows = new BoundedExpiringMap<WindowState>(maxKeys);
  const values = new BoundedExpiringMap<string>(maxKeys);
  return {
    async consume(key, windowSeconds, max): Promise<RateLimitResult> {
      const now = Date.now();
      const windowMs = windowSeconds * 1000;
      const step = slideWindow(windows.get(key, now), now, windowMs, max);
      const { allowed, remaining } = step.result;
      // Flush attack: a flood of fresh keys must not evict a window that refuses attempts, or
      // its key would get a fresh budget. Such a window is protected until a write finds it open
      // again; a refusal changes no count, so an already protected window is left as it is.
      const isLimiting = !allowed || remaining === 0;
      if (allowed || !windows.isProtected(key, now))
        // The state matters for two windows: the current one, then as the previous one.
        windows.set(key, step.next, step.next.start + 2 * windowMs, now, { protect: isLimiting });
      return step.result;
    },
    async resetLimit(key) {
      windows.delete(key);
    },
    async add(key, value, ttlSeconds) {
      const now = Date.now();
      if (values.get(key, now) !== undefined) return false;
      values.set(key, value, now + ttlSeconds * 1000, now);
      return true;
    },
    async get(key) {
      return values.get(key) ?? null;
    },
    async delete(key) {
      values.delete(key);
    },
    async deleteIf(key, value) {
      if (values.get(key) !== value) return false;
      values.delete(key);
      return true;
    },
  };
}
