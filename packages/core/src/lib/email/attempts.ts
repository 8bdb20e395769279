/**
 * Wrong verification tokens are counted per address, so that a short custom code
 * (`generateVerificationToken` returning, say, 4 digits) cannot be brute-forced within the
 * link's `maxAge`: once an address has had `maxAttempts` wrong tries, its pending token is void.
 *
 * The adapter contract (Auth.js's) cannot count or list tokens, so the count lives in a
 * {@link VerificationAttemptStore} owned by Tessera. The default keeps it in this process's
 * memory; apps running several instances pass one shared store (Redis, SQL) to every instance.
 */
import { AdapterError } from "../../errors.js";
import { BoundedExpiringMap } from "../store/bounded-map.js";

/** Wrong tries allowed per address before its pending token is void. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** Addresses the default store remembers; the oldest is forgotten first. */
const DEFAULT_MAX_KEYS = 10_000;

/**
 * Where wrong verification tries are counted. Implement it over a shared database to count
 * tries across several app instances; `increment` must be atomic (Redis `INCR` + `EXPIRE`, an
 * SQL upsert), or parallel guesses sent to different instances slip past the limit.
 *
 * @example
 * ```ts
 * // ioredis
 * const attemptStore: VerificationAttemptStore = {
 *   async increment(key, ttlSeconds) {
 *     const [[, count]] = await redis.multi().incr(key).expire(key, ttlSeconds, "NX").exec()
 *     return Number(count)
 *   },
 *   async reset(key) { await redis.del(key) },
 * }
 * Email({ server, from, attemptStore })
 * ```
 */
export interface VerificationAttemptStore {
  /**
   * Adds one to `key`'s count and returns the new count. A count is forgotten `ttlSeconds`
   * after its first increment (the link's lifetime, so it outlives the token it protects).
   */
  increment(key: string, ttlSeconds: number): number | Promise<number>;
  /** Forgets `key`'s count (a new link was sent, or the right token was used). */
  reset(key: string): void | Promise<void>;
}

/**
 * A {@link VerificationAttemptStore} in this process's memory, bounded to `maxKeys` addresses
 * (default 10 000): under a flood of addresses the oldest counts are dropped, memory never grows.
 * It counts per instance only: with several instances, pass a shared store instead.
 *
 * @example
 * ```ts
 * Email({ server, from, attemptStore: createMemoryAttemptStore({ maxKeys: 50_000 }) })
 * ```
 */
export function createMemoryAttemptStore(
  options: { maxKeys?: number } = {},
): VerificationAttemptStore {
  const counts = new BoundedExpiringMap<{ count: number }>(options.maxKeys ?? DEFAULT_MAX_KEYS);
  return {
    increment(key, ttlSeconds) {
      const now = Date.now();
      const entry = counts.get(key, now);
      // The count keeps the lifetime of its first try; it is not extended by later ones.
      if (entry) return ++entry.count;
      counts.set(key, { count: 1 }, now + ttlSeconds * 1000, now);
      return 1;
    },
    reset(key) {
      counts.delete(key);
    },
  };
}

/** Where an app keeps its default attempt store: its state in this process (config/app-state.ts). */
interface AttemptStoreHolder {
  attemptStore?: VerificationAttemptStore;
}

/**
 * The provider's `attemptStore`, else the app's in this process: kept across requests, never
 * shared with another app.
 */
function attemptStoreOf(
  provider: AttemptOptions,
  app: AttemptStoreHolder,
): VerificationAttemptStore {
  if (provider.attemptStore) return provider.attemptStore;
  app.attemptStore ??= createMemoryAttemptStore();
  return app.attemptStore;
}

/**
 * The e-mail provider's `maxAttempts` and `attemptStore` (spelled out rather than picked from
 * `EmailConfig`, as `provider-types.ts` imports this module) and the link's lifetime.
 */
interface AttemptOptions {
  maxAttempts?: number;
  attemptStore?: VerificationAttemptStore;
  maxAge: number;
}

/** The store key of an address. Prefixed, as an app's store may hold other counters. */
function attemptKey(identifier: string): string {
  return `tessera:verification-attempts:${identifier}`;
}

async function withStore<T>(action: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const wrapped = new AdapterError(error as Error);
    wrapped.message = `The verification attempt store failed to ${action}: ${(error as Error)?.message ?? error}. Check the store passed as \`attemptStore\` to the e-mail provider.`;
    throw wrapped;
  }
}

/**
 * Counts one try of a token for `identifier` (the normalised address), before the token is
 * looked up. Returns false when the address has already used up its tries: then even the right
 * token must be refused. Counting first makes the limit hold for guesses sent in parallel.
 *
 * @example
 * ```ts
 * const withinLimit = await countVerificationAttempt(provider, "ada@example.com", config.state)
 * ```
 */
export async function countVerificationAttempt(
  provider: AttemptOptions,
  identifier: string,
  app: AttemptStoreHolder,
): Promise<boolean> {
  const max = provider.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (max === Number.POSITIVE_INFINITY) return true;
  const store = attemptStoreOf(provider, app);
  const count = await withStore("count a try", () =>
    store.increment(attemptKey(identifier), provider.maxAge),
  );
  // This try is counted too: it is within the limit while fewer than `max` tries came before.
  return count <= max;
}

/**
 * Forgets the tries counted for `identifier`: a new link was sent, or the right token was used.
 *
 * @example
 * ```ts
 * await resetVerificationAttempts(provider, "ada@example.com", config.state)
 * ```
 */
export async function resetVerificationAttempts(
  provider: AttemptOptions,
  identifier: string,
  app: AttemptStoreHolder,
): Promise<void> {
  if ((provider.maxAttempts ?? DEFAULT_MAX_ATTEMPTS) === Number.POSITIVE_INFINITY) return;
  const store = attemptStoreOf(provider, app);
  await withStore("reset a count", () => store.reset(attemptKey(identifier)));
}

/**
 * Why `maxAttempts` is unusable, or `undefined` when it is fine (a positive integer, or
 * `Infinity` to turn the limit off).
 *
 * @example
 * ```ts
 * maxAttemptsProblem(0) // "… must be a positive integer …"
 * ```
 */
export function maxAttemptsProblem(maxAttempts: unknown): string | undefined {
  if (maxAttempts === undefined || maxAttempts === Number.POSITIVE_INFINITY) return undefined;
  if (typeof maxAttempts === "number" && Number.isInteger(maxAttempts) && maxAttempts > 0)
    return undefined;
  return `\`maxAttempts\` is ${String(maxAttempts)}: it must be a positive integer (default ${DEFAULT_MAX_ATTEMPTS}), or Infinity to turn the limit off.`;
}
