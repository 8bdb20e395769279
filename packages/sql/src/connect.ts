import type { Options as BetterSqlite3Options } from "better-sqlite3";
import { Kysely, MysqlDialect, SqliteDialect } from "kysely";
import type { PoolOptions as Mysql2PoolOptions } from "mysql2";
import { SqlAdapter, type SqlAdapterOptions } from "./adapter.js";
import { importDriver } from "./driver.js";
import { type DriverHandle, registerDriver } from "./native.js";
import { CONNECT_TIMEOUT_MS, createPostgresDb } from "./postgres.js";
import type { SqlDialect, TesseraDatabase } from "./schema.js";

export { createPostgresDb, type PostgresPoolConfig } from "./postgres.js";

// Drivers are imported when a factory's database is first used, so an application that talks to
// PostgreSQL never loads better-sqlite3's native module (and the other way round); one that is
// not installed fails with MissingDriverError, which names the package to install.

// The drivers' option types are restated below rather than imported into the public
// signatures: the drivers are optional peer dependencies, and the declaration files must
// type-check (even with `skipLibCheck: false`) where only the application's own driver is
// installed.

/** Options of better-sqlite3's `Database` constructor (its `Options`). */
export interface SqliteOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  /** Milliseconds to wait for a locked database. */
  timeout?: number;
  verbose?: (message?: unknown, ...additionalArgs: unknown[]) => void;
  nativeBinding?: string;
}

/** Options of mysql2's `createPool` (its `PoolOptions`): the usual ones named, any other passed through. */
export interface MysqlPoolOptions {
  uri?: string;
  connectTimeout?: number;
  connectionLimit?: number;
  timezone?: string;
  ssl?: string | Record<string, unknown>;
  [option: string]: unknown;
}

/**
 * A Kysely instance over a SQLite file (better-sqlite3), with foreign keys enforced (they cascade
 * `deleteUser`), a 5 s busy timeout and, for files, write-ahead logging so readers never wait for
 * the writer.
 *
 * @param filename a file path, or `":memory:"` (the default) for a private in-memory database.
 *
 * @example
 * ```ts
 * const db = createSqliteDb("./auth.sqlite")
 * await migrate(db, { dialect: "sqlite" })
 * const adapter = SqlAdapter(db, { dialect: "sqlite" })
 * ```
 */
export function createSqliteDb<DB = TesseraDatabase>(
  filename = ":memory:",
  options: SqliteOptions = {},
): Kysely<DB> {
  const driver: DriverHandle & { kind: "sqlite" } = { kind: "sqlite" };
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({
      database: async () => {
        const { default: Database } = await importDriver(
          "better-sqlite3",
          () => import("better-sqlite3"),
        );
        const database = new Database(filename, options as BetterSqlite3Options);
        database.pragma("foreign_keys = ON");
        database.pragma("busy_timeout = 5000");
        if (filename !== ":memory:" && filename !== "") database.pragma("journal_mode = WAL");
        driver.database = database;
        return database;
      },
    }),
  });
  registerDriver(db, driver);
  return db;
}

/**
 * A Kysely instance over a MySQL or MariaDB connection pool (mysql2). Dates are exchanged in UTC
 * (`timezone: "Z"`), so the stored values do not depend on the server's or the process's time
 * zone; connection attempts give up after 5 s unless `connectTimeout` says otherwise.
 *
 * @param config a URI (`mysql://root@127.0.0.1:3306/db`) or mysql2 pool options.
 *
 * @example
 * ```ts
 * const db = createMysqlDb("mysql://auth:secret@127.0.0.1:3306/app")
 * await migrate(db, { dialect: "mysql" })
 * ```
 */
export function createMysqlDb<DB = TesseraDatabase>(config: string | MysqlPoolOptions): Kysely<DB> {
  const poolOptions: MysqlPoolOptions = typeof config === "string" ? { uri: config } : config;
  return new Kysely<DB>({
    dialect: new MysqlDialect({
      pool: async () => {
        const { createPool } = await importDriver("mysql2", () => import("mysql2"));
        return createPool({
          timezone: "Z",
          connectTimeout: CONNECT_TIMEOUT_MS,
          ...(poolOptions as Mysql2PoolOptions),
        });
      },
    }),
  });
}

/** What {@link createDbFromUrl} returns. */
export interface DbFromUrl<DB> {
  db: Kysely<DB>;
  dialect: SqlDialect;
}

/**
 * A Kysely instance for a database URL, choosing the driver by scheme: `sqlite:` or `file:`
 * (path after the colon; `sqlite::memory:` for memory), `postgres:`/`postgresql:`, `mysql:`, and
 * `mariadb:` (MySQL protocol, MariaDB dialect).
 *
 * @example
 * ```ts
 * const { db, dialect } = createDbFromUrl(process.env.DATABASE_URL ?? "sqlite:./auth.sqlite")
 * await migrate(db, { dialect })
 * ```
 */
export function createDbFromUrl<DB = TesseraDatabase>(url: string): DbFromUrl<DB> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case "sqlite":
    case "file": {
      const path = url.slice(scheme.length + 1).replace(/^\/\//, "");
      return { db: createSqliteDb<DB>(path || ":memory:"), dialect: "sqlite" };
    }
    case "postgres":
    case "postgresql":
      return { db: createPostgresDb<DB>(url), dialect: "postgres" };
    case "mysql":
      return { db: createMysqlDb<DB>(url), dialect: "mysql" };
    case "mariadb":
      return { db: createMysqlDb<DB>(`mysql:${url.slice("mariadb:".length)}`), dialect: "mariadb" };
    default:
      throw new TypeError(
        `Unsupported database URL scheme ${JSON.stringify(scheme ?? url)}: use sqlite:, postgres:, mysql: or mariadb:`,
      );
  }
}

/** What {@link sqlAdapterFromUrl} returns: the adapter and the database it uses. */
export interface SqlAdapterFromUrl extends DbFromUrl<TesseraDatabase> {
  adapter: ReturnType<typeof SqlAdapter>;
}

/**
 * An adapter for a database URL (see {@link createDbFromUrl}), with the database and dialect it
 * chose, so the caller can migrate and later close it.
 *
 * @example
 * ```ts
 * const { adapter, db, dialect } = sqlAdapterFromUrl(process.env.DATABASE_URL!)
 * await migrate(db, { dialect })
 * ```
 */
export function sqlAdapterFromUrl(
  url: string,
  options: Omit<SqlAdapterOptions, "dialect"> = {},
): SqlAdapterFromUrl {
  const { db, dialect } = createDbFromUrl(url);
  return { db, dialect, adapter: SqlAdapter(db, { ...options, dialect }) };
}
