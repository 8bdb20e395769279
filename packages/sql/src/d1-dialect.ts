import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type SchemaMetadata,
  SqliteAdapter,
  SqliteQueryCompiler,
  sql,
  type TableMetadata,
} from "kysely";

/**
 * Kysely over Cloudflare D1. D1 is SQLite behind an asynchronous binding, so Kysely's SQLite
 * adapter, compiler and introspector apply unchanged; only the driver differs. D1 has no
 * interactive transactions (`BEGIN` is refused): atomic multi-statement writes go through
 * `batch()`, which this package uses where other databases use a transaction (see batch.ts).
 *
 * The binding's types are written structurally, so that neither this package nor an application
 * needs `@cloudflare/workers-types` to compile.
 */

/** The part of D1's `D1Result` the driver reads. */
export interface D1ResultHandle {
  results?: unknown[];
  meta?: { changes?: number; last_row_id?: number };
}

/** The part of D1's `D1PreparedStatement` the driver uses. */
export interface D1StatementHandle {
  bind(...values: unknown[]): D1StatementHandle;
  all(): Promise<D1ResultHandle>;
}

/** The part of a D1 binding (`env.DB`, a `D1Database`) the driver uses. */
export interface D1DatabaseHandle {
  prepare(sql: string): D1StatementHandle;
  batch(statements: D1StatementHandle[]): Promise<D1ResultHandle[]>;
}

/**
 * D1 refused something this driver cannot do for it: an interactive transaction (`BEGIN …
 * COMMIT`), or streaming rows. `type` is stable.
 */
export class D1UnsupportedError extends Error {
  readonly type = "D1Unsupported";
  constructor(what: string) {
    super(
      `${what} is not available on Cloudflare D1, which has no interactive transactions or cursors. Send statements that must succeed or fail together as one batch (D1Database.batch); @tessera/sql's adapter, store and migrations already do.`,
    );
    this.name = "D1UnsupportedError";
  }
}

/** D1 binds `null`, numbers, strings, booleans and byte buffers; nothing else reaches it. */
function bindable(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  if (typeof value === "bigint") return Number(value);
  return value;
}

/** Prepares `query` on `database` with its parameters bound. */
export function d1Statement(database: D1DatabaseHandle, query: CompiledQuery): D1StatementHandle {
  const statement = database.prepare(query.sql);
  return query.parameters.length === 0
    ? statement
    : statement.bind(...query.parameters.map(bindable));
}

/** Kysely's result for a D1 result: the rows, and the changed-row count for writes. */
export function d1QueryResult<Row>(query: CompiledQuery, result: D1ResultHandle): QueryResult<Row> {
  const rows = (result.results ?? []) as Row[];
  if (query.query.kind === "SelectQueryNode") return { rows };
  return {
    rows,
    numAffectedRows: BigInt(result.meta?.changes ?? 0),
    ...(query.query.kind === "InsertQueryNode" && result.meta?.last_row_id !== undefined
      ? { insertId: BigInt(result.meta.last_row_id) }
      : {}),
  };
}

class D1Connection implements DatabaseConnection {
  constructor(private readonly database: D1DatabaseHandle) {}

  async executeQuery<Row>(query: CompiledQuery): Promise<QueryResult<Row>> {
    return d1QueryResult<Row>(query, await d1Statement(this.database, query).all());
  }

  // biome-ignore lint/correctness/useYield: D1 has no cursor; the generator only refuses.
  async *streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    throw new D1UnsupportedError("Streaming a query's rows");
  }
}

class D1Driver implements Driver {
  private readonly connection: D1Connection;

  constructor(database: D1DatabaseHandle) {
    this.connection = new D1Connection(database);
  }

  async init(): Promise<void> {}

  // D1 serialises statements itself and holds no connection state, so one object serves every
  // query at once.
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    throw new D1UnsupportedError("A transaction (db.transaction())");
  }

  async commitTransaction(): Promise<void> {
    throw new D1UnsupportedError("A transaction (db.transaction())");
  }

  async rollbackTransaction(): Promise<void> {
    throw new D1UnsupportedError("A transaction (db.transaction())");
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {}
}

/**
 * Kysely's SQLite introspection, minus D1's own tables (`_cf_KV`, `_cf_METADATA`): D1 refuses to
 * describe them (SQLITE_AUTH), and Kysely's introspector, which the migrator uses, describes every
 * table it finds.
 */
class D1Introspector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    return [];
  }

  async getTables(): Promise<TableMetadata[]> {
    const tables = await sql<{ name: string; type: string }>`select name, type from sqlite_master
      where type in ('table', 'view') and name not like 'sqlite%' and substr(name, 1, 4) != '_cf_'
      order by name`.execute(this.db);
    const described: TableMetadata[] = [];
    for (const { name, type } of tables.rows) {
      const columns = await sql<{
        name: string;
        type: string;
        notnull: number;
        dflt_value: unknown;
      }>`select name, type, "notnull", dflt_value from pragma_table_info(${name}) order by cid`.execute(
        this.db,
      );
      described.push({
        name,
        isView: type === "view",
        columns: columns.rows.map((column) => ({
          name: column.name,
          dataType: column.type,
          isNullable: !column.notnull,
          isAutoIncrementing: false,
          hasDefaultValue: column.dflt_value != null,
        })),
      });
    }
    return described;
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** Kysely's SQLite dialect with a driver for a D1 binding. */
export class D1Dialect implements Dialect {
  constructor(private readonly database: D1DatabaseHandle) {}

  createAdapter(): SqliteAdapter {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new D1Driver(this.database);
  }

  createQueryCompiler(): SqliteQueryCompiler {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new D1Introspector(db);
  }
}
