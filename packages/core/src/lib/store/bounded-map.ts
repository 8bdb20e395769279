/**
 * A map whose entries expire and whose size is capped, for state a single process keeps in
 * memory on behalf of many clients (rate-limit windows, denylists, attempt counts). Client input
 * chooses the keys, so the map must never grow without bound, and no operation may cost more as
 * it fills: a flood of fresh keys would otherwise slow every request of the process.
 *
 * - Expired entries are dropped as their time passes, by the next operation on the map, through
 *   an index of keys by expiry time: each operation walks only the milliseconds gone by since
 *   the previous one (or the index's keys, if fewer), never the whole map.
 * - When the map is full, the least recently written entry goes first, in constant time.
 * - Entries written as `protect`ed (a rate-limit window that is refusing attempts) are kept apart
 *   and only ever make room for one another: a flood of ordinary keys cannot evict them. At most
 *   half the map is protected, so ordinary keys always keep room too.
 */

/** An entry, the time (ms since the epoch) it stops counting, and which part of the map holds it. */
interface Expiring<V> {
  value: V;
  expiresAt: number;
  /** The expiry slot (ms) of the index that lists the key: `expiresAt`, or later. */
  slot: number;
  isProtected: boolean;
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
  /** Insertion order is write order: the first key is the one written longest ago. */
  readonly #ordinary = new Map<string, Expiring<V>>();
  readonly #protected = new Map<string, Expiring<V>>();
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
    const entry = this.#ordinary.get(key) ?? this.#protected.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.#remove(key, entry);
    return undefined;
  }

  /** Whether `key` holds a live entry written with `protect`. */
  isProtected(key: string, now = Date.now()): boolean {
    const entry = this.#protected.get(key);
    return entry !== undefined && entry.expiresAt > now;
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
    if (isProtected && this.#protected.size >= this.#maxProtected) this.#evictOldest(true);
    if (this.size >= this.maxKeys) this.#evictOldest(this.#ordinary.size === 0);
    // A slot already swept (a `now` behind an earlier call's) would never be walked again.
    const slot = Math.max(Math.ceil(expiresAt), this.#sweptTo + 1);
    (isProtected ? this.#protected : this.#ordinary).set(key, {
      value,
      expiresAt,
      slot,
      isProtected,
    });
    const listed = this.#expiring.get(slot);
    if (listed === undefined) this.#expiring.set(slot, key);
    else if (typeof listed === "string") this.#expiring.set(slot, new Set([listed, key]));
    else listed.add(key);
  }

  /** Removes `key`; absent keys are ignored. */
  delete(key: string): void {
    const entry = this.#ordinary.get(key) ?? this.#protected.get(key);
    if (entry) this.#remove(key, entry);
  }

  /** Entries currently held; expired ones are gone by the next operation after they expire. */
  get size(): number {
    return this.#ordinary.size + this.#protected.size;
  }

  #remove(key: string, entry: Expiring<V>): void {
    (entry.isProtected ? this.#protected : this.#ordinary).delete(key);
    const listed = this.#expiring.get(entry.slot);
    if (listed === key) this.#expiring.delete(entry.slot);
    else if (typeof listed === "object") {
      listed.delete(key);
      if (listed.size === 0) this.#expiring.delete(entry.slot);
    }
  }

  /** Memory exhaustion by a flood of keys: forget the entry written longest ago. */
  #evictOldest(fromProtected: boolean): void {
    const entries = fromProtected ? this.#protected : this.#ordinary;
    const oldest = entries.entries().next();
    if (!oldest.done) this.#remove(oldest.value[0], oldest.value[1]);
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
      const entry = this.#ordinary.get(key) ?? this.#protected.get(key);
      if (entry?.slot === slot) (entry.isProtected ? this.#protected : this.#ordinary).delete(key);
    }
  }
}
