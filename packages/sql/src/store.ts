/**
 * `sqlStore`: Tessera's {@link SharedStore} in the SQL database the adapter uses (SQLite,
 * PostgreSQL, MySQL/MariaDB), in the `store_values` and `store_limits` tables that `migrate`
 * creates. For apps whose instances share a database but no Redis.
 */
import { type RateLimitResult, type SharedStore, slideWindow } from "@tessera/core/store";
import type { Kysely, Transaction } from "kysely";
import { type AtomicBatch, atomicBatch } from "./batch.js";
import { dialectTraits, readDate, readInteger } from "./dialect.js";
import { type SqlDialect, type TesseraTables, tableNames, validTablePrefix } from "./schema.js";

/** Options of {@link sqlStore}: the same `dialect` and `tablePrefix` as given to `migrate`. */
export interface SqlStoreOptions {
  dialect: SqlDialect;
  tablePrefix?: string;
}

/** Longest key stored as is; longer keys are stored as their SHA-256 (the column is indexed). */
const MAX_PLAIN_KEY = 191;

/** One call in this many also deletes the expired rows of its table, so neither grows forever. */
const PURGE_EVERY = 100;

/** MySQL error 1213: InnoDB chose this transaction as a deadlock victim; retrying is safe. */
const MYSQL_DEADLOCK_ERRNO = 1213;

/** The key as stored: itself, or `sha256:<hex>` when longer than {@link MAX_PLAIN_KEY}. */
async function storedKey(key: string): Promise<string> {
  if (key.length <= MAX_PLAIN_KEY) return key;
  // WebCrypto, not node:crypto: the store also runs on D1 in workerd without nodejs_compat.
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0"));
  return `sha256:${hex.join("")}`;
}

async function retryingDeadlocks<T>(run: () => Promise<T>, attempts = 10): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const errno = (error as { errno?: unknown } | null)?.errno;
      if (attempt >= attempts || errno !== MYSQL_DEADLOCK_ERRNO) throw error;
    }
  }
}

/**
 * A {@link SharedStore} over a Kysely instance. Run `migrate` first (same options): it creates
 * the two tables. Atomicity:
 * - `consume` is one transaction that first inserts the key's row if absent, then reads it
 *   `FOR UPDATE` (SQLite: the insert already holds the database's write lock), so parallel
 *   attempts from any number of processes are counted one after the other; on D1, which has no
 *   transactions, the new window is written by a compare-and-set update, retried when it lost;
 * - `add` deletes the key's expired row, then inserts ignoring a conflict: exactly one of
 *   concurrent callers inserts the row.
 *
 * @example
 * ```ts
 * import { createPostgresDb, migrate, sqlStore } from "@tessera/sql"
 * const db = createPostgresDb(process.env.DATABASE_URL!)
 * await migrate(db, { dialect: "postgres" })
 * export const config = { rateLimit: { storage: sqlStore(db, { dialect: "postgres" }) }, providers }
 * ```
 */
export function sqlStore<DB>(database: Kysely<DB>, options: SqlStoreOptions): SharedStore {
  const db = database as unknown as Kysely<TesseraTables>;
  const { dialect } = options;
  const traits = dialectTraits(dialect);
  const { table } = tableNames(validTablePrefix(options.tablePrefix));
  const isMysql = dialect === "mysql" || dialect === "mariadb";
  let calls = 0;

  /** Now and then, deletes the expired rows of `name` (not awaited by the caller's answer). */
  async function purgeSometimes(name: "store_values" | "store_limits"): Promise<void> {
    calls = (calls + 1) % PURGE_EVERY;
    if (calls !== 0) return;
    await db.deleteFrom(table(name)).where("expires", "<=", traits.date(new Date())).execute();
  }

  async function step(
    trx: Transaction<TesseraTables>,
    key: string,
    windowMs: number,
    max: number,
  ): Promise<RateLimitResult> {
    const now = Date.now();
    const insert = trx.insertInto(table("store_limits")).values({
      key,
      windowStart: 0,
      current: 0,
      previous: 0,
      expires: traits.date(new Date(now + 2 * windowMs)),
    });
    // MySQL: a no-op update on a duplicate takes the row's exclusive lock at once; INSERT IGNORE
    // would take a shared one, and parallel upgrades to FOR UPDATE then deadlock each other.
    await (isMysql
      ? insert.onDuplicateKeyUpdate({ current: (eb) => eb.ref("current") })
      : insert.onConflict((oc) => oc.column("key").doNothing())
    ).execute();
    const select = trx.selectFrom(table("store_limits")).selectAll().where("key", "=", key);
    const row = await (dialect === "sqlite"
      ? select
      : select.forUpdate()
    ).executeTakeFirstOrThrow();
    const state =
      readDate(row.expires).getTime() > now
        ? {
            start: readInteger(row.windowStart),
            current: readInteger(row.current),
            previous: readInteger(row.previous),
          }
        : undefined;
    const { result, next } = slideWindow(state, now, windowMs, max);
    if (result.allowed) {
      await trx
        .updateTable(table("store_limits"))
        .set({
          windowStart: next.start,
          current: next.current,
          previous: next.previous,
          expires: traits.date(new Date(next.start + 2 * windowMs)),
        })
        .where("key", "=", key)
        .execute();
    }
    return result;
  }

  /**
   * {@link step} without a transaction (D1): the row is created and read in one batch, and the
   * new window written only if the row is still as read (compare-and-set), else read again. Of
   * parallel attempts on one key each is counted once: a lost race costs a retry, not a count.
   */
  async function stepByCompareAndSet(
    batch: AtomicBatch,
    key: string,
    windowMs: number,
    max: number,
  ): Promise<RateLimitResult> {
    const readRow = db.selectFrom(table("store_limits")).selectAll().where("key", "=", key);
    type LimitRow = TesseraTables["store_limits"];
    let row: LimitRow | undefined;
    for (;;) {
      const now = Date.now();
      if (!row) {
        const [, read] = await batch([
          db
            .insertInto(table("store_limits"))
            .values({
              key,
              windowStart: 0,
              current: 0,
              previous: 0,
              expires: traits.date(new Date(now + 2 * windowMs)),
            })
            .onConflict((oc) => oc.column("key").doNothing())
            .compile(),
          readRow.compile(),
        ]);
        row = read?.rows[0] as LimitRow | undefined;
        if (!row) continue;
      }
      const state =
        readDate(row.expires).getTime() > now
          ? {
              start: readInteger(row.windowStart),
              current: readInteger(row.current),
              previous: readInteger(row.previous),
            }
          : undefined;
      const { result, next } = slideWindow(state, now, windowMs, max);
      if (!result.allowed) return result;
      // The row is read again in the same batch: a lost race retries from it, one round trip.
      const [written, reread] = await batch([
        db
          .updateTable(table("store_limits"))
          .set({
            windowStart: next.start,
            current: next.current,
            previous: next.previous,
            expires: traits.date(new Date(next.start + 2 * windowMs)),
          })
          .where("key", "=", key)
          .where("windowStart", "=", row.windowStart)
          .where("current", "=", row.current)
          .where("previous", "=", row.previous)
          .where("expires", "=", row.expires)
          .compile(),
        readRow.compile(),
      ]);
      if (Number(written?.numAffectedRows ?? 0) === 1) return result;
      row = reread?.rows[0] as LimitRow | undefined;
    }
  }

  return {
    async consume(key, windowSeconds, max) {
      const windowMs = Math.max(1, Math.round(windowSeconds * 1000));
      const stored = await storedKey(key);
      const batch = atomicBatch(database);
      const result = batch
        ? await stepByCompareAndSet(batch, stored, windowMs, max)
        : await retryingDeadlocks(() =>
            db.transaction().execute((trx) => step(trx, stored, windowMs, max)),
          );
      await purgeSometimes("store_limits");
      return result;
    },
    async resetLimit(key) {
      await db
        .deleteFrom(table("store_limits"))
        .where("key", "=", await storedKey(key))
        .execute();
    },
    async add(key, value, ttlSeconds) {
      const stored = await storedKey(key);
      const now = new Date();
      // An expired entry must not block a new one; only this key's row is touched.
      await db
        .deleteFrom(table("store_values"))
        .where("key", "=", stored)
        .where("expires", "<=", traits.date(now))
        .execute();
      const insert = db.insertInto(table("store_values")).values({
        key: stored,
        value,
        expires: traits.date(new Date(now.getTime() + Math.max(1, ttlSeconds * 1000))),
      });
      const result = await (isMysql
        ? insert.ignore()
        : insert.onConflict((oc) => oc.column("key").doNothing())
      ).executeTakeFirst();
      await purgeSometimes("store_values");
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async get(key) {
      const row = await db
        .selectFrom(table("store_values"))
        .select("value")
        .where("key", "=", await storedKey(key))
        .where("expires", ">", traits.date(new Date()))
        .executeTakeFirst();
      return row?.value ?? null;
    },
    async delete(key) {
      await db
        .deleteFrom(table("store_values"))
        .where("key", "=", await storedKey(key))
        .execute();
    },
    async deleteIf(key, value) {
      // One statement, so compare and delete are atomic.
      const result = await db
        .deleteFrom(table("store_values"))
        .where("key", "=", await storedKey(key))
        .where("value", "=", value)
        .where("expires", ">", traits.date(new Date()))
        .executeTakeFirst();
      return Number(result.numDeletedRows ?? 0) > 0;
    },
  };
}
