/**
 * State that several app instances share: rate-limit windows, the JWT revocation denylist,
 * refresh locks and replay markers. One small interface, so the core never assumes one process:
 * `@tessera/memory` (single process), `@tessera/redis` and `@tessera/sql` implement it beside
 * their adapters, and an app passes the same store to every instance.
 *
 * Every method must be atomic across the processes sharing the store (Redis scripts or `SET NX`,
 * SQL upserts in one statement): a check-then-write split over two round trips lets parallel
 * requests sent to different instances slip past a limit or take a lock twice.
 *
 * @example
 * ```ts
 * import { redisStore } from "@tessera/redis"
 * const store = redisStore(new Redis())
 * const config = { rateLimit: { storage: store }, jwt: { revocation: store } }
 * ```
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
  /** Removes `key` (releases a lock). Removing an absent key is not an error. */
  delete(key: string): Promise<void>;
}
