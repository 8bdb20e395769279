/**
 * The {@link SharedStore} contract, declared here so that the implementations under `lib/store/`
 * and the public entry `@tessera/core/store` (which re-exports it) need not import each other.
 */

/** The answer of {@link SharedStore.consume}: whether one more attempt fits in the window. */
export interface RateLimitResult {
  /** True when the attempt was counted within `max`; false when the key is over its limit. */
  allowed: boolean;
  /** Attempts left in the current window after this one (0 when refused). */
  remaining: number;
  /** Seconds until another attempt would be allowed (0 when `allowed`); feeds `Retry-After`. */
  retryAfter: number;
}

/** Shared, expiring key-value state; see the module comment for the atomicity rule. */
export interface SharedStore {
  /**
   * Counts one attempt under `key` in a sliding window of `windowSeconds` and tells whether it
   * is within `max`. A refused attempt is not counted, so a client that waits is let in again.
   */
  consume(key: string, windowSeconds: number, max: number): Promise<RateLimitResult>;
  /** Forgets the attempts counted under `key` (for example after a successful sign-in). */
  resetLimit(key: string): Promise<void>;
  /**
   * Stores `value` under `key` for `ttlSeconds` unless the key is present; true when this call
   * stored it. Locks (single-flight refresh), replay markers (`jti` of a logout token) and
   * denylist entries are all one `add`.
   */
  add(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** The value under `key`, or null when absent or expired. */
  get(key: string): Promise<string | null>;
  /** Removes `key`. Removing an absent key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Removes `key` only while it holds `value`, in one atomic step; true when this call removed
   * it. Releases a lock: a holder whose lock expired and was taken by another instance must not
   * remove the new holder's lock (compare-and-delete; a `get` then `delete` would race).
   *
   * @example
   * ```ts
   * if (await store.add(lock, owner, 60)) try { await work() } finally { await store.deleteIf(lock, owner) }
   * ```
   */
  deleteIf(key: string, value: string): Promise<boolean>;
}
