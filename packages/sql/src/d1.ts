/**
 * `@tessera/sql/d1`: the SQL adapter, shared store and migrations on Cloudflare D1, from an entry
 * point that loads in workerd without `nodejs_compat` (no `node:` module, no database driver).
 *
 * @example
 * ```ts
 * import { createD1Db, type D1DatabaseHandle, SqlAdapter } from "@tessera/sql/d1"
 * declare const env: { DB: D1DatabaseHandle }
 * const adapter = SqlAdapter(createD1Db(env.DB), { dialect: "sqlite" })
 * ```
 */
import { Kysely } from "kysely";
import { registerAtomicBatch } from "./batch.js";
import { type D1DatabaseHandle, D1Dialect, d1QueryResult, d1Statement } from "./d1-dialect.js";
import type { TesseraDatabase } from "./schema.js";

export { SqlAdapter, type SqlAdapterOptions } from "./adapter.js";
export {
  type D1DatabaseHandle,
  D1Dialect,
  type D1ResultHandle,
  type D1StatementHandle,
  D1UnsupportedError,
} from "./d1-dialect.js";
export { readBoolean, readDate, readInteger } from "./dialect.js";
export {
  dropSchema,
  type MigrationOptions,
  migrate,
  TableClashError,
  tesseraMigrations,
} from "./migrations.js";
export type { SqlDialect, TesseraDatabase } from "./schema.js";
export { type SqlStoreOptions, sqlStore } from "./store.js";

/**
 * A Kysely instance over a Cloudflare D1 binding, for {@link SqlAdapter}, {@link sqlStore} and
 * {@link migrate} with `dialect: "sqlite"`. D1 has no interactive transactions; where the adapter,
 * the store and the migrations need several statements to succeed or fail together, they send
 * them as one `batch()` (which D1 runs atomically). That works for the instance this function
 * returns: a `withPlugin` copy of it, or a Kysely built elsewhere, has no batch and fails those
 * calls with a `D1UnsupportedError`.
 *
 * D1 enforces foreign keys, so deleting a user also cascades as on the other databases.
 *
 * @param binding the D1 binding from the Worker's `env` (`env.DB`), or Miniflare's
 *   `getD1Database()`.
 *
 * @example
 * ```ts
 * import { createD1Db, type D1DatabaseHandle, migrate, SqlAdapter, sqlStore } from "@tessera/sql/d1"
 * declare const env: { DB: D1DatabaseHandle }
 * const db = createD1Db(env.DB)
 * await migrate(db, { dialect: "sqlite" })
 * const adapter = SqlAdapter(db, { dialect: "sqlite" })
 * const store = sqlStore(db, { dialect: "sqlite" })
 * ```
 */
export function createD1Db<DB = TesseraDatabase>(binding: D1DatabaseHandle): Kysely<DB> {
  const db = new Kysely<DB>({ dialect: new D1Dialect(binding) });
  registerAtomicBatch(db, async (queries) => {
    const results = await binding.batch(queries.map((query) => d1Statement(binding, query)));
    return results.map((result, index) =>
      d1QueryResult(queries[index] as (typeof queries)[number], result),
    );
  });
  return db;
}
