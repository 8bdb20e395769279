/**
 * `node:crypto`'s `createHash`, reached without a static import so that this module (imported
 * by the adapter) also loads on Cloudflare D1's entry point, where no `node:` module exists.
 * Node, Bun, Deno and workerd with `nodejs_compat` have it through `process.getBuiltinModule`.
 */
function nodeCreateHash(): typeof import("node:crypto").createHash | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const crypto = proc?.getBuiltinModule?.("node:crypto") as
      | typeof import("node:crypto")
      | undefined;
    return crypto?.createHash;
  } catch {
    return undefined;
  }
}

/**
 * The session read (`getSessionAndUser`) runs on every request of a database-session app, and on
 * SQLite and PostgreSQL most of its cost is not the lookup but the query path around it:
 * Kysely's SQLite driver prepares the statement again for each query (better-sqlite3's `prepare`
 * costs more than the indexed lookup itself), and an unnamed PostgreSQL statement is parsed and
 * planned by the server on every call. When the Kysely instance is one that
 * `createSqliteDb`/`createPostgresDb` made, the adapter therefore runs that one statement on the
 * driver below Kysely: a statement prepared once (SQLite), or a named prepared statement, parsed
 * once per connection (PostgreSQL). Such an instance has no plugins (`withPlugin` returns a new
 * instance, which is not registered), so nothing that Kysely would do to the query is skipped.
 *
 * The driver types are written structurally: better-sqlite3 and pg are optional peers.
 */

/** The part of better-sqlite3's `Statement` the direct read uses. */
export interface SqliteStatementHandle {
  get(...parameters: unknown[]): unknown;
  raw(toggle: boolean): SqliteStatementHandle;
}

/** The part of better-sqlite3's `Database` the direct read uses. */
export interface SqliteDatabaseHandle {
  prepare(sql: string): SqliteStatementHandle;
  readonly inTransaction: boolean;
}

/** The part of pg's `Pool` the direct read uses. */
export interface PostgresPoolHandle {
  query(config: {
    name?: string;
    text: string;
    values: unknown[];
    rowMode: "array";
  }): Promise<{ rows: unknown[] }>;
}

/** The driver below a Kysely instance a factory made; set once Kysely has opened it. */
export type DriverHandle =
  | { kind: "sqlite"; database?: SqliteDatabaseHandle }
  | { kind: "postgres"; pool?: PostgresPoolHandle };

const handles = new WeakMap<object, DriverHandle>();

/** Records the driver behind `db`, for {@link directReader}. */
export function registerDriver(db: object, handle: DriverHandle): void {
  handles.set(db, handle);
}

/**
 * Runs one fixed SELECT on the driver directly and returns its rows, each the array of its
 * values in the SELECT's column order, or `undefined` when it cannot (the driver is not open yet,
 * or not safe to use now), in which case the caller runs the query through Kysely as usual.
 * Arrays, because a row object built by the driver costs more than the lookup's own work (on
 * better-sqlite3, 12 columns: 6.7 µs as objects, 5.5 µs as arrays mapped in JavaScript).
 */
export type DirectReader = (
  parameters: unknown[],
) => DirectRows | undefined | Promise<DirectRows | undefined>;

/** Rows of a {@link DirectReader}: the values of each, in the SELECT's column order. */
export type DirectRows = readonly (readonly unknown[])[];

/** Options of {@link directReader}. */
export interface DirectReaderOptions {
  /** PostgreSQL: use a named prepared statement (otherwise an unnamed one, parsed every call). */
  preparedStatements: boolean;
}

/**
 * A {@link DirectReader} for `sql` on the driver behind `db`, or `undefined` when `db` was not
 * made by one of this package's factories (an application's own Kysely, or one with plugins).
 */
export function directReader(
  db: object,
  sql: string,
  options: DirectReaderOptions,
): DirectReader | undefined {
  const handle = handles.get(db);
  if (handle?.kind === "sqlite") return sqliteReader(handle, sql);
  if (handle?.kind === "postgres") return postgresReader(handle, sql, options.preparedStatements);
  return undefined;
}

function sqliteReader(handle: { database?: SqliteDatabaseHandle }, sql: string): DirectReader {
  let statement: SqliteStatementHandle | undefined;
  let preparedOn: SqliteDatabaseHandle | undefined;
  return (parameters) => {
    const database = handle.database;
    // SQLite has one connection, which Kysely lends to one transaction at a time: a read made
    // beside an open transaction would see its uncommitted rows, so it waits in Kysely's queue.
    if (!database || database.inTransaction) return undefined;
    try {
      if (preparedOn !== database) {
        statement = database.prepare(sql).raw(true);
        preparedOn = database;
      }
      const values = (statement as SqliteStatementHandle).get(...parameters);
      return values === undefined ? [] : [values as unknown[]];
    } catch {
      // The connection is busy streaming another query's rows, or closed, or the table is gone:
      // Kysely's path waits for the connection or raises the error as it always has.
      return undefined;
    }
  };
}

/**
 * PostgreSQL errors a named statement can meet where an unnamed one would not: a connection
 * pooler that moves clients between server connections (PgBouncer before 1.21 in transaction
 * mode) loses or duplicates statements (26000, 42P05), and a table altered under a prepared plan
 * refuses to change its result type (0A000).
 */
const NAMED_STATEMENT_ERRORS = new Set(["26000", "42P05", "0A000"]);

function postgresReader(
  handle: { pool?: PostgresPoolHandle },
  sql: string,
  preparedStatements: boolean,
): DirectReader {
  // The name is derived from the text: pg refuses one name for two texts on a connection, and
  // two adapters with different table prefixes share a pool.
  const createHash = nodeCreateHash();
  const name = createHash
    ? `tessera_${createHash("sha256").update(sql).digest("base64url").slice(0, 22)}`
    : "";
  // Without node:crypto (pg on a runtime that lacks it) the statement stays unnamed.
  let named = preparedStatements && createHash !== undefined;
  return async (parameters) => {
    const pool = handle.pool;
    if (!pool) return undefined;
    if (!named) return queryArrays(pool, sql, parameters);
    try {
      return await queryArrays(pool, sql, parameters, name);
    } catch (error) {
      if (!NAMED_STATEMENT_ERRORS.has(postgresErrorCode(error))) throw error;
      // Once is enough to know the path to the server cannot keep statements: stay unnamed.
      named = false;
      return queryArrays(pool, sql, parameters);
    }
  };
}

/** Runs `sql` on `pool` with rows as arrays, as a named statement when `name` is given. */
async function queryArrays(
  pool: PostgresPoolHandle,
  sql: string,
  values: unknown[],
  name?: string,
): Promise<DirectRows> {
  const config = { text: sql, values, rowMode: "array" as const };
  const { rows } = await pool.query(name === undefined ? config : { ...config, name });
  // pg's types say `unknown[]` for any row mode; in "array" mode each row is an array.
  return rows as unknown[][];
}

function postgresErrorCode(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
}
