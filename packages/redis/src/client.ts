import { Redis, type RedisOptions } from "ioredis";

/**
 * Defaults that make an unreachable Redis fail requests within seconds: ioredis' own defaults
 * keep a command queued through 20 reconnection attempts, which looks like a hung sign-in.
 */
export const FAIL_FAST_OPTIONS = {
  connectTimeout: 5_000,
  commandTimeout: 5_000,
  maxRetriesPerRequest: 1,
} as const satisfies RedisOptions;

/**
 * An ioredis client for the adapter, with {@link FAIL_FAST_OPTIONS} under the given options. It
 * keeps reconnecting in the background, so the adapter works again as soon as Redis is back.
 *
 * @param url a `redis://` or `rediss://` URL; `options` override the defaults and the URL.
 *
 * @example
 * ```ts
 * const redis = createRedisClient("redis://127.0.0.1:6379/0", { commandTimeout: 2_000 })
 * const adapter = RedisAdapter(redis)
 * ```
 */
export function createRedisClient(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { ...FAIL_FAST_OPTIONS, ...options });
}
