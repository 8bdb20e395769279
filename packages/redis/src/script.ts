import { createHash } from "node:crypto";
import type { Cluster, Redis } from "ioredis";

/** A Lua script bound to a client, taking one key and string arguments. */
export type CachedScript = (key: string, ...args: string[]) => Promise<unknown>;

/**
 * Runs `lua` by its SHA-1 (EVALSHA), sending the text only when Redis lacks it (a restarted or
 * flushed script cache answers NOSCRIPT). Every script touches one key, so it runs on a cluster.
 *
 * @example
 * ```ts
 * const incr = cachedScript(redis, "return redis.call('INCR', KEYS[1])")
 * await incr("counter")
 * ```
 */
export function cachedScript(redis: Redis | Cluster, lua: string): CachedScript {
  const sha = createHash("sha1").update(lua).digest("hex");
  return async (key, ...args) => {
    try {
      return await redis.evalsha(sha, 1, key, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return redis.eval(lua, 1, key, ...args);
    }
  };
}
