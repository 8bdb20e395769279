/**
 * A map whose entries expire and whose size is capped, for state a single process keeps in
 * memory on behalf of many clients (rate-limit windows, denylists, attempt counts). Client input
 * chooses the keys, so the map must never grow without bound: when full, expired entries are
 * dropped first, then the least recently written one.
 */

/** An entry and the time (ms since the epoch) it stops counting. */
interface Expiring<V> {
  value: V;
  expiresAt: number;
}

/**
 * A size-capped map of expiring entries. Writing a key moves it to the young end, so under a flood
 * of new keys the entries that were idle longest are forgotten first.
 *
 * @example
 * ```ts
 * const counts = new BoundedExpiringMap<number>(10_000)
 * counts.set("ada", 1, Date.now() + 60_000)
 * counts.get("ada") // 1
 * ```
 */
export class BoundedExpiringMap<V> {
  readonly #entries = new Map<string, Expiring<V>>();

  constructor(readonly maxKeys: number) {
    if (!Number.isInteger(maxKeys) || maxKeys < 1)
      throw new TypeError(`maxKeys must be a positive integer; got ${String(maxKeys)}.`);
  }

  /** The live value under `key`, or undefined (an expired entry is removed on the way). */
  get(key: string, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  /** Stores `value` under `key` until `expiresAt` (ms), evicting as described above when full. */
  set(key: string, value: V, expiresAt: number, now = Date.now()): void {
    // Deleting first moves the key to the young end of the insertion order.
    this.#entries.delete(key);
    if (this.#entries.size >= this.maxKeys) this.#evict(now);
    this.#entries.set(key, { value, expiresAt });
  }

  /** Removes `key`; absent keys are ignored. */
  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Entries currently held, expired ones included until they are next touched or evicted. */
  get size(): number {
    return this.#entries.size;
  }

  #evict(now: number): void {
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
    // Memory exhaustion by a flood of keys: forget the entries idle longest.
    while (this.#entries.size >= this.maxKeys) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }
}
