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
export { type MemoryStoreOptions, memoryStore } from "./lib/store/memory.js";
export type { RateLimitResult, SharedStore } from "./lib/store/shared-store.js";
export { slideWindow, type WindowState, type WindowStep } from "./lib/store/sliding-window.js";
