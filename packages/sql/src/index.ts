/**
 * `@tessera/sql`: one Kysely-based adapter for SQLite, PostgreSQL and MySQL/MariaDB, with the
 * migrations that create its tables and factories for the three drivers.
 *
 * @example
 * ```ts
 * import { createSqliteDb, migrate, SqlAdapter } from "@tessera/sql"
 * const db = createSqliteDb("./auth.sqlite")
 * await migrate(db, { dialect: "sqlite" })
 * const adapter = SqlAdapter(db, { dialect: "sqlite" })
 * ```
 */
export { SqlAdapter, type SqlAdapterOptions } from "./adapter.js";
export {
  createDbFromUrl,
  createMysqlDb,
  createPostgresDb,
  createSqliteDb,
  type DbFromUrl,
  type MysqlPoolOptions,
  type PostgresPoolConfig,
  type SqlAdapterFromUrl,
  type SqliteOptions,
  sqlAdapterFromUrl,
} from "./connect.js";
export { readBoolean, readDate, readInteger } from "./dialect.js";
export { type DriverPackage, MissingDriverError } from "./driver.js";
export {
  dropSchema,
  type MigrationOptions,
  migrate,
  TableClashError,
  tesseraMigrations,
} from "./migrations.js";
export type {
  AccountRow,
  AuthenticatorRow,
  SessionRow,
  SqlDialect,
  StoredBigInt,
  StoredBoolean,
  StoredDate,
  StoreLimitRow,
  StoreValueRow,
  TesseraDatabase,
  TesseraTableName,
  TesseraTables,
  UserRow,
  VerificationTokenRow,
} from "./schema.js";
export { type SqlStoreOptions, sqlStore } from "./store.js";
