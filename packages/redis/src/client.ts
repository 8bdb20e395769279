import { Redis, type RedisOptions } from "ioredis";

/** The longest wait between two reconnection attempts, so a returning Redis is used within it. */
const MAX_RECONNECT_DELAY_MS = 250;

/**
 * The delay before reconnection attempt `attempt` (1, 2, …): 50 ms more each time, at most
 * 250 ms. ioredis' own back-off grows to 5 s, so an instance could go on failing for 5 s after
 * Redis was back.
 *
 * @example
 * ```ts
 * new Redis(url, { retryStrategy: reconnectDelay }) // 50, 100, 150, 200, 250, 250, … ms
 * ```
 */
export function reconnectDelay(attempt: number): number {
  return Math.min(50 * attempt, MAX_RECONNECT_DELAY_MS);
}

/**
 * Defaults that make an unreachable Redis fail requests at once and a returning one serve them
 * again within a quarter of a second: ioredis' own defaults keep a command queued through 20
 * reconnection attempts (which looks like a hung sign-in) and wait up to 5 s between attempts.
 * Cluster clients take these as `redisOptions`; a cluster reconnects by its own
 * `clusterRetryStrategy`.
 */
export const FAIL_FAST_OPTIONS = {
  connectTimeout: 1_000,
  commandTimeout: 5_000,
  maxRetriesPerRequest: 1,
  retryStrategy: reconnectDelay,
} as const satisfies RedisOptions;

/**
 * An ioredis client for the adapter and store, with {@link FAIL_FAST_OPTIONS} under the given
 * options. It keeps reconnecting in the background, so it works again as soon as Redis is back.
 * A command sent while the connection is down waits for the first reconnection attempt (a dropped
 * connection to a healthy Redis costs no request); once that attempt has failed, Redis is taken
 * for down and commands are refused at once (the offline queue is off) until it answers again.
 * Commands sent before the first connection wait for it, so the client can be used as soon as
 * it is created. Pass `enableOfflineQueue` to choose yourself.
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
  const redis = new Redis(url, { ...FAIL_FAST_OPTIONS, ...options });
  if (options.enableOfflineQueue === undefined) {
    // A sign-in waiting in the queue through an outage would hang instead of failing closed;
    // ioredis reads the option on every command.
    let reconnections = 0;
    redis.on("reconnecting", () => {
      reconnections++;
      if (reconnections >= 2) redis.options.enableOfflineQueue = false;
    });
    redis.on("ready", () => {
      reconnections = 0;
      redis.options.enableOfflineQueue = true;
    });
  }
  return redis;
}
