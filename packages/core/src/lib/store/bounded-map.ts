/**
 * A map whose entries expire and whose size is capped, for state a single process keeps in
 * memory on behalf of many clients (rate-limit windows, denylists, attempt counts). Client input
 * chooses the keys, so the map must never grow without bound, and no operation may cost more as
 * it fills: a flood of fresh keys would otherwise slow every request of the process.
 *
 * - Expired entries are dropped as their time passes, by the next operation on the map, through
 *   an index of keys by expiry time: each operation walks only the milliseconds gone by since
 *   the previous one (or the index's slots, if fewer), never the whole map.
 * - When the map is full, the least recently written entry goes first, in constant time: entries
 *   are chained in write order. (A `Map`'s own insertion order will not do: V8 leaves a hole for
 *   each deleted entry until the table is rebuilt, and finding the first live entry walks them.)
 * - Entries written as `protect`ed (a rate-limit window that is refusing attempts) are chained
 *   apart and only ever make room for one another: a flood of ordinary keys cannot evict them.
 *   At most half the map is protected, so ordinary keys always keep room too.
 */

/** An entry, the time (ms since the epoch) it stops counting, and its place in the map. */
interface Entry<V> {
  key: string;
  value: V;
  expiresAt: number;
  /** The expiry slot (ms) of the index that lists the key: `expiresAt`, or later. */
  slot: number;
  chain: WriteOrder<V>;
  older: Entry<V> | undefined;
  newer: Entry<V> | undefined;
}

/** Entries from the one written longest ago to the latest, as a doubly linked chain. */
class WriteOrder<V> {
  oldest: Entry<V> | undefined;
  newest: Entry<V> | undefined;
  size = 0;

  append(entry: Entry<V>): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
    this.size++;
  }

  unlink(entry: Entry<V>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = undefined;
    this.size--;
  }
}

/**
 * A size-capped map of expiring entries. Writing a key moves it to the young end, so under a flood
 * of new keys the entries that were idle longest are forgotten first; protected entries are
 * forgotten only to make room for other protected entries.
 *
 * @example
 * ```ts
 * const counts = new BoundedExpiringMap<number>(10_000)
 * counts.set("ada", 1, Date.now() + 60_000)
 * counts.get("ada") // 1
 * counts.set("ada", 10, Date.now() + 60_000, Date.now(), { protect: true }) // kept under a flood
 * ```
 */
export class BoundedExpiringMap<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #ordinary = new WriteOrder<V>();
  readonly #protected = new WriteOrder<V>();
  /** Keys by expiry slot: one key as it is, several in a set (most slots hold one). */
  readonly #expiring = new Map<number, string | Set<string>>();
  /** Every slot up to this time (ms) has been dropped. */
  #sweptTo = Number.NEGATIVE_INFINITY;
  readonly #maxProtected: number;

  constructor(readonly maxKeys: number) {
    if (!Number.isInteger(maxKeys) || maxKeys < 1)
      throw new TypeError(`maxKeys must be a positive integer; got ${String(maxKeys)}.`);
    this.#maxProtected = Math.floor(maxKeys / 2);
  }

  /** The live value under `key`, or undefined. */
  get(key: string, now = Date.now()): V | undefined {
    this.#sweep(now);
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.#remove(entry);
    return undefined;
  }

  /** Whether `key` holds a live entry written with `protect`. */
  isProtected(key: string, now = Date.now()): boolean {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.chain === this.#protected && entry.expiresAt > now;
  }

  /**
   * Stores `value` under `key` until `expiresAt` (ms), evicting as described above when full.
   * `protect` keeps the entry from being evicted by unprotected ones.
   */
  set(
    key: string,
    value: V,
    expiresAt: number,
    now = Date.now(),
    options: { protect?: boolean } = {},
  ): void {
    this.#sweep(now);
    this.delete(key);
    if (expiresAt <= now) return;
    const isProtected = options.protect === true && this.#maxProtected > 0;
    if (isProtected && this.#protected.size >= this.#maxProtected)
      this.#evictOldest(this.#protected);
    if (this.size >= this.maxKeys)
      this.#evictOldest(this.#ordinary.size > 0 ? this.#ordinary : this.#protected);
    // A slot already swept (a `now` behind an earlier call's) would never be walked again.
    const slot = Math.max(Math.ceil(expiresAt), this.#sweptTo + 1);
    const chain = isProtected ? this.#protected : this.#ordinary;
    const entry: Entry<V> = {
      key,
      value,
      expiresAt,
      slot,
      chain,
      older: undefined,
      newer: undefined,
    };
    this.#entries.set(key, entry);
    chain.append(entry);
    const listed = this.#expiring.get(slot);
    if (listed === undefined) this.#expiring.set(slot, key);
    else if (typeof listed === "string") this.#expiring.set(slot, new Set([listed, key]));
    else listed.add(key);
  }

  /** Removes `key`; absent keys are ignored. */
  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry) this.#remove(entry);
  }

  /** Entries currently held; expired ones are gone by the next operation after they expire. */
  get size(): number {
    return this.#entries.size;
  }

  #remove(entry: Entry<V>): void {
    this.#entries.delete(entry.key);
    entry.chain.unlink(entry);
    const listed = this.#expiring.get(entry.slot);
    if (listed === entry.key) this.#expiring.delete(entry.slot);
    else if (typeof listed === "object") {
      listed.delete(entry.key);
      if (listed.size === 0) this.#expiring.delete(entry.slot);
    }
  }

  /** Memory exhaustion by a flood of keys: forget the entry written longest ago. */
  #evictOldest(chain: WriteOrder<V>): void {
    if (chain.oldest) this.#remove(chain.oldest);
  }

  /** Drops every entry whose slot has passed; costs the milliseconds (or slots) since the last call. */
  #sweep(now: number): void {
    const to = Math.floor(now);
    if (to <= this.#sweptTo) return;
    if (to - this.#sweptTo <= this.#expiring.size) {
      for (let slot = this.#sweptTo + 1; slot <= to; slot++) this.#dropSlot(slot);
    } else {
      for (const slot of this.#expiring.keys()) if (slot <= to) this.#dropSlot(slot);
    }
    this.#sweptTo = to;
  }

  #dropSlot(slot: number): void {
    const listed = this.#expiring.get(slot);
    if (listed === undefined) return;
    this.#expiring.delete(slot);
    for (const key of typeof listed === "string" ? [listed] : listed) {
      const entry = this.#entries.get(key);
      if (entry?.slot !== slot) continue;
      this.#entries.delete(key);
      entry.chain.unlink(entry);
    }
  }
}
