/**
 * `migrate` next to tables it did not create: a table of the same name stops it before anything
 * is created, with an error that suggests a table prefix; on PostgreSQL and SQLite a migration
 * that fails half-way is rolled back.
 */
import { type Kysely, Migrator, sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import {
  dropSchema,
  migrate,
  TableClashError,
  type TesseraDatabase,
  tesseraMigrations,
} from "../src/index.js";
import { targets, uniqueTablePrefix } from "./support.js";

/** The tables whose names start with `prefix`, read from each database's catalogue. */
async function tablesWithPrefix(
  db: Kysely<TesseraDatabase>,
  dialect: string,
  prefix: string,
): Promise<string[]> {
  const query =
    dialect === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table'`
      : dialect === "postgres"
        ? sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema()`
        : sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = database()`;
  const { rows } = await query.execute(db);
  return rows
    .map((row) => row.name)
    .filter((name) => name.startsWith(prefix))
    .sort();
}

describe.each(targets)("migrate beside foreign tables on $label", ({ dialect, connect }) => {
  const db = connect();
  const cleanups: string[] = [];

  afterAll(async () => {
    for (const table of cleanups) await sql`drop table if exists ${sql.table(table)}`.execute(db);
    await db.destroy();
  });

  it("refuses a table it would create that exists already, suggests a prefix and creates nothing", async () => {
    const prefix = uniqueTablePrefix();
    // The application's own accounts table, which happens to have Tessera's name for it.
    await sql`create table ${sql.table(`${prefix}accounts`)} (id integer primary key)`.execute(db);
    cleanups.push(`${prefix}accounts`);

    const failure = await migrate(db, { dialect, tablePrefix: prefix }).catch((error) => error);
    expect(failure).toBeInstanceOf(TableClashError);
    expect((failure as TableClashError).tables).toEqual([`${prefix}accounts`]);
    expect((failure as Error).message).toContain(`"${prefix}accounts" already exists`);
    expect((failure as Error).message).toContain("--table-prefix");
    expect(await tablesWithPrefix(db, dialect, prefix)).toEqual([`${prefix}accounts`]);

    // With its own prefix, Tessera's tables sit beside the application's.
    const own = `${prefix}auth_`;
    await migrate(db, { dialect, tablePrefix: own });
    expect(await tablesWithPrefix(db, dialect, own)).toContain(`${own}accounts`);
    await dropSchema(db, { dialect, tablePrefix: own });
  });

  it("refuses a clash with a later migration's table once earlier ones are applied", async () => {
    const prefix = uniqueTablePrefix();
    // A database migrated by an earlier release: only the first migration applied.
    const earlier = new Migrator({
      db,
      provider: { getMigrations: async () => tesseraMigrations({ dialect, tablePrefix: prefix }) },
      migrationTableName: `${prefix}tessera_migration`,
      migrationLockTableName: `${prefix}tessera_migration_lock`,
    });
    expect((await earlier.migrateTo("0001_create_tables")).error).toBeUndefined();
    await sql`create table ${sql.table(`${prefix}store_values`)} (id integer)`.execute(db);
    cleanups.push(`${prefix}store_values`);
    const before = await tablesWithPrefix(db, dialect, prefix);

    const failure = await migrate(db, { dialect, tablePrefix: prefix }).catch((error) => error);
    expect(failure).toBeInstanceOf(TableClashError);
    expect((failure as TableClashError).tables).toEqual([`${prefix}store_values`]);
    expect(await tablesWithPrefix(db, dialect, prefix)).toEqual(before);

    await sql`drop table ${sql.table(`${prefix}store_values`)}`.execute(db);
    expect(await migrate(db, { dialect, tablePrefix: prefix })).not.toEqual([]);
    // Its own tables are no clash: running again over an up-to-date schema does nothing.
    expect(await migrate(db, { dialect, tablePrefix: prefix })).toEqual([]);
    await dropSchema(db, { dialect, tablePrefix: prefix });
  });

  if (dialect === "sqlite" || dialect === "postgres") {
    it("rolls back a migration that fails half-way, leaving none of its tables", async () => {
      const prefix = uniqueTablePrefix();
      // An index already holding the name of the index migration 0001 creates last but two: on
      // SQLite and PostgreSQL index names share one namespace, so creating it fails after the
      // users, accounts and sessions tables exist.
      await sql`create table ${sql.table(`${prefix}other`)} (id integer)`.execute(db);
      cleanups.push(`${prefix}other`);
      await sql`create index ${sql.id(`${prefix}sessions_userId_idx`)} on ${sql.table(`${prefix}other`)} (id)`.execute(
        db,
      );

      await expect(migrate(db, { dialect, tablePrefix: prefix })).rejects.toThrow(
        /Tessera migration failed/,
      );
      const left = await tablesWithPrefix(db, dialect, prefix);
      expect(left).not.toContain(`${prefix}users`);
      expect(left).not.toContain(`${prefix}accounts`);
      expect(left).not.toContain(`${prefix}sessions`);
      for (const table of left) if (table !== `${prefix}other`) cleanups.push(table);
    });
  }
});
