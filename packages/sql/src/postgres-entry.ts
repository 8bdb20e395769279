/**
 * `@tessera/sql/postgres`: the SQL adapter, shared store and migrations with PostgreSQL's driver
 * (pg) only. For Cloudflare Workers (with `nodejs_compat`, pg connects through workerd's TCP
 * sockets), where `@tessera/sql` would make the bundler take in better-sqlite3 and mysql2 as well.
 *
 * @example
 * ```ts
 * import { createPostgresDb, SqlAdapter } from "@tessera/sql/postgres"
 * const adapter = SqlAdapter(createPostgresDb(process.env.DATABASE_URL!), { dialect: "postgres" })
 * ```
 */
export { SqlAdapter, type SqlAdapterOptions } from "./adapter.js";
export { readBoolean, readDate, readInteger } from "./dialect.js";
export { type DriverPackage, MissingDriverError } from "./driver.js";
export {
  dropSchema,
  type MigrationOptions,
  migrate,
  TableClashError,
  tesseraMigrations,
} from "./migrations.js";
export { createPostgresDb, type PostgresPoolConfig } from "./postgres.js";
export type { SqlDialect, TesseraDatabase } from "./schema.js";
export { type SqlStoreOptions, sqlStore } from "./store.js";
