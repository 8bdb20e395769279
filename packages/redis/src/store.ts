/**
 * `redisStore`: Tessera's {@link SharedStore} over ioredis, for rate limits, the JWT revocation
 * denylist, refresh locks and replay markers shared by every app instance using one Redis (or
 * Redis Cluster: each call touches a single key).
 */
import type { RateLimitResult, SharedStore } from "@tessera/core/store";
import type { Cluster, Redis } from "ioredis";
import { cachedScript } from "./script.js";

/** Compare-and-delete in one step (KEYS[1] holds ARGV[1] → DEL); 1 when it deleted. */
const DELETE_IF_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

/**
 * One sliding-window step, atomically: the arithmetic of `slideWindow` in `@tessera/core/store`,
 * on the hash at KEYS[1] (`s` window start in ms, `c` current count, `p` previous count), timed by
 * the Redis server's clock so that app instances with skewed clocks count alike.
 * ARGV: window (ms, integer), max. Returns {allowed (0|1), remaining, retryAfter (s)}.
 */
const CONSUME_LUA = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local windowMs = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local start = math.floor(now / windowMs) * windowMs
local stored = redis.call('HMGET', KEYS[1], 's', 'c', 'p')
local storedStart = tonumber(stored[1])
local current, previous = 0, 0
if storedStart == start then
  current = tonumber(stored[2]) or 0
  previous = tonumber(stored[3]) or 0
elseif storedStart == start - windowMs then
  previous = tonumber(stored[2]) or 0
end
local elapsed = (now - start) / windowMs
local estimate = previous * (1 - elapsed) + current
if estimate + 1 <= max then
  redis.call('HSET', KEYS[1], 's', string.format('%d', start), 'c', current + 1, 'p', previous)
  redis.call('PEXPIREAT', KEYS[1], string.format('%d', start + 2 * windowMs))
  return {1, math.floor(max - estimate - 1), 0}
end
local waitMs
if current + 1 <= max and previous > 0 then
  waitMs = ((1 - (max - 1 - current) / previous) - elapsed) * windowMs
else
  local needed = 0
  if current > 0 then needed = math.max(0, 1 - (max - 1) / current) end
  waitMs = (start + windowMs - now) + needed * windowMs
end
return {0, 0, math.max(1, math.ceil(waitMs / 1000))}
`;

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /**
   * Prepended to every key (default `"tessera:store:"`), so several apps or test runs can share
   * one Redis. Must not contain `{` or `}` (Redis Cluster hash tags).
   */
  prefix?: string;
}

/**
 * A {@link SharedStore} on Redis 6.2+ (single node or Cluster). Rate limits are one Lua script
 * per attempt (a sliding-window counter in a hash that expires after two windows); `add` is
 * `SET NX PX`; all values expire by themselves, so nothing needs cleaning up.
 *
 * @example
 * ```ts
 * import { createRedisClient, redisStore } from "@tessera/redis"
 * const store = redisStore(createRedisClient(process.env.REDIS_URL!))
 * export const config = { rateLimit: { storage: store }, jwt: { revocation: store }, providers }
 * ```
 */
export function redisStore(redis: Redis | Cluster, options: RedisStoreOptions = {}): SharedStore {
  const prefix = options.prefix ?? "tessera:store:";
  if (/[{}]/.test(prefix))
    throw new TypeError("redisStore: the prefix must not contain { or } (hash tag characters)");
  const consume = cachedScript(redis, CONSUME_LUA);
  const deleteIfEqual = cachedScript(redis, DELETE_IF_LUA);
  const limitKey = (key: string) => `${prefix}limit:${key}`;
  const valueKey = (key: string) => `${prefix}value:${key}`;
  return {
    async consume(key, windowSeconds, max): Promise<RateLimitResult> {
      const windowMs = Math.max(1, Math.round(windowSeconds * 1000));
      const [allowed, remaining, retryAfter] = (await consume(
        limitKey(key),
        String(windowMs),
        String(max),
      )) as [number, number, number];
      return { allowed: allowed === 1, remaining, retryAfter };
    },
    async resetLimit(key) {
      await redis.del(limitKey(key));
    },
    async add(key, value, ttlSeconds) {
      const ttlMs = Math.max(1, Math.ceil(ttlSeconds * 1000));
      return (await redis.set(valueKey(key), value, "PX", ttlMs, "NX")) === "OK";
    },
    async get(key) {
      return redis.get(valueKey(key));
    },
    async delete(key) {
      await redis.del(valueKey(key));
    },
    async deleteIf(key, value) {
      return (await deleteIfEqual(valueKey(key), value)) === 1;
    },
  };
}
