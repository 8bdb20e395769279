/**
 * `@tessera/redis`: an ioredis adapter for Tessera (and Auth.js v5), for a single Redis or a
 * Redis Cluster, with self-expiring sessions and verification tokens.
 *
 * @example
 * ```ts
 * import { createRedisClient, RedisAdapter } from "@tessera/redis"
 * const adapter = RedisAdapter(createRedisClient("redis://127.0.0.1:6379"), { prefix: "auth:" })
 * ```
 */
export { RedisAdapter, type RedisAdapterOptions } from "./adapter.js";
export { createRedisClient, FAIL_FAST_OPTIONS } from "./client.js";
export { type KeyScheme, keyScheme } from "./keys.js";
export { type RedisStoreOptions, redisStore } from "./store.js";
