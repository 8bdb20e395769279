import { Kysely, PostgresDialect } from "kysely";
import type { PoolConfig as PgPoolConfig } from "pg";
import { importDriver } from "./driver.js";
import { type DriverHandle, registerDriver } from "./native.js";
import type { TesseraDatabase } from "./schema.js";

// Apart from the other drivers' factories so that `@tessera/sql/postgres` loads pg and nothing
// else: a Cloudflare Worker (pg over workerd's sockets, with nodejs_compat) must not bundle
// better-sqlite3's native module or mysql2.

/** How long a connection attempt may take before the query that needed it rejects. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** Options of pg's `Pool` (its `PoolConfig`): the usual ones named, any other passed through. */
export interface PostgresPoolConfig {
  connectionString?: string;
  connectionTimeoutMillis?: number;
  idleTimeoutMillis?: number;
  max?: number;
  ssl?: boolean | Record<string, unknown>;
  [option: string]: unknown;
}

/**
 * A Kysely instance over a PostgreSQL connection pool (pg). Connection attempts give up after 5 s
 * unless `connectionTimeoutMillis` says otherwise, and a connection the server drops while idle
 * is discarded instead of crashing the process with an unhandled `error` event.
 *
 * @param config a connection string (`postgres://user@host:5432/db`) or a `pg.PoolConfig`.
 *
 * @example
 * ```ts
 * const db = createPostgresDb({ connectionString: process.env.DATABASE_URL, max: 20 })
 * ```
 */
export function createPostgresDb<DB = TesseraDatabase>(
  config: string | PostgresPoolConfig,
): Kysely<DB> {
  const poolConfig: PostgresPoolConfig =
    typeof config === "string" ? { connectionString: config } : config;
  const driver: DriverHandle & { kind: "postgres" } = { kind: "postgres" };
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({
      pool: async () => {
        const { default: pg } = await importDriver("pg", () => import("pg"));
        const pool = new pg.Pool({
          connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
          ...(poolConfig as PgPoolConfig),
        });
        // The pool has already removed the broken idle client; the next query opens a new one.
        pool.on("error", () => {});
        // A client handed out just as its connection dies emits "error" with no listener (the
        // pool removes its own while the client is checked out), which would crash the process.
        // The query in flight already rejects with that error, so the event itself is dropped.
        pool.on("connect", (client) => {
          client.on("error", () => {});
        });
        driver.pool = pool;
        return pool;
      },
    }),
  });
  registerDriver(db, driver);
  return db;
}
