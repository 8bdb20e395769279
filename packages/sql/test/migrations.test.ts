import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { accountFixture, authenticatorFixture, userFixture } from "@tessera/adapter-test";
import Database from "better-sqlite3";
import { type Kysely, Kysely as KyselyClass, Migrator, SqliteDialect, sql } from "kysely";
import { afterAll, describe, expect, test } from "vitest";
import {
  createDbFromUrl,
  dropSchema,
  migrate,
  SqlAdapter,
  type SqlDialect,
  sqlAdapterFromUrl,
  sqlStore,
  type TesseraDatabase,
  tesseraMigrations,
} from "../src/index.js";
import { sqliteFile, targets, uniqueTablePrefix } from "./support.js";

/** Every migration, in order: what `migrate` applies to an empty database. */
const ALL_MIGRATIONS = [
  "0001_create_tables",
  "0002_session_metadata_and_shared_store",
  "0003_exact_store_keys",
  "0004_two_factor",
  "0005_passkey_details",
  "0006_organizations",
  "0007_passwords",
  "0008_admin_user_roles_and_bans",
  "0009_organization_roles",
];

/** A user with an account, a session and an authenticator, created through the adapter. */
async function userWithData(adapter: ReturnType<typeof SqlAdapter>) {
  const user = await adapter.createUser(userFixture());
  const account = accountFixture(user.id);
  await adapter.linkAccount(account);
  const session = await adapter.createSession({
    sessionToken: randomUUID(),
    userId: user.id,
    expires: new Date(Date.now() + 60_000),
  });
  const authenticator = await adapter.createAuthenticator(authenticatorFixture(user.id));
  return { user, account, session, authenticator };
}

interface IndexShape {
  columns: string[];
  unique: boolean;
}

/** The indexes of one table as (columns, unique) pairs, read from each database's catalogue. */
async function indexesOf(
  db: Kysely<TesseraDatabase>,
  dialect: SqlDialect,
  table: string,
): Promise<IndexShape[]> {
  if (dialect === "sqlite") {
    const list = await sql<{ name: string; unique: number }>`
      select name, "unique" from pragma_index_list(${table})`.execute(db);
    const shapes: IndexShape[] = [];
    for (const index of list.rows) {
      const info = await sql<{ name: string }>`
        select name from pragma_index_info(${index.name}) order by seqno`.execute(db);
      shapes.push({ columns: info.rows.map((row) => row.name), unique: index.unique === 1 });
    }
    return shapes;
  }
  if (dialect === "postgres") {
    const result = await sql<{ columns: string[]; unique: boolean }>`
      select array_agg(a.attname::text order by k.ord) as columns, ix.indisunique as unique
      from pg_class t
      join pg_index ix on ix.indrelid = t.oid
      cross join lateral unnest(ix.indkey) with ordinality as k(attnum, ord)
      join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
      where t.relname = ${table} and t.relnamespace = 'public'::regnamespace
      group by ix.indexrelid, ix.indisunique`.execute(db);
    return result.rows.map((row) => ({ columns: row.columns, unique: row.unique }));
  }
  const result = await sql<{ indexName: string; nonUnique: number; columnName: string }>`
    select index_name as indexName, non_unique as nonUnique, column_name as columnName
    from information_schema.statistics
    where table_schema = database() and table_name = ${table}
    order by index_name, seq_in_index`.execute(db);
  const byName = new Map<string, IndexShape>();
  for (const row of result.rows) {
    const shape = byName.get(row.indexName) ?? { columns: [], unique: Number(row.nonUnique) === 0 };
    shape.columns.push(row.columnName);
    byName.set(row.indexName, shape);
  }
  return [...byName.values()];
}

function sortShapes(shapes: IndexShape[]): IndexShape[] {
  return [...shapes].sort((a, b) => a.columns.join().localeCompare(b.columns.join()));
}

for (const target of targets) {
  describe(`migrations on ${target.label}`, () => {
    const db = target.connect();
    const { dialect } = target;
    const prefixes: string[] = [];
    function freshPrefix(): string {
      const prefix = uniqueTablePrefix();
      prefixes.push(prefix);
      return prefix;
    }

    afterAll(async () => {
      for (const tablePrefix of prefixes) await dropSchema(db, { dialect, tablePrefix });
      await db.destroy();
    });

    test("migrate applies the schema once; running it again changes nothing", async () => {
      const tablePrefix = freshPrefix();
      expect(await migrate(db, { dialect, tablePrefix })).toEqual(ALL_MIGRATIONS);
      expect(await migrate(db, { dialect, tablePrefix })).toEqual([]);
      const adapter = SqlAdapter(db, { dialect, tablePrefix });
      const user = await adapter.createUser(userFixture());
      expect(await migrate(db, { dialect, tablePrefix })).toEqual([]);
      expect(await adapter.getUser(user.id)).toEqual(user);
    });

    test("applies every migration under a 20-character table prefix (MySQL's 64-character names)", async () => {
      // Every table, key and index name carries the prefix; MySQL and MariaDB refuse a name over
      // 64 characters, so the longest of them must leave room for a prefix of this length.
      const tablePrefix = `${freshPrefix()}pad_pad_`.slice(0, 20);
      prefixes.push(tablePrefix);
      expect(await migrate(db, { dialect, tablePrefix })).toEqual(ALL_MIGRATIONS);
    });

    test("two concurrent migrate calls apply the schema exactly once", async () => {
      const tablePrefix = freshPrefix();
      const results = await Promise.all([
        migrate(db, { dialect, tablePrefix }),
        migrate(db, { dialect, tablePrefix }),
      ]);
      expect(results.flat()).toEqual(ALL_MIGRATIONS);
    });

    test("migrate creates the unique keys and the lookup indexes the adapter queries by", async () => {
      const tablePrefix = freshPrefix();
      await migrate(db, { dialect, tablePrefix });
      const expected: Record<string, IndexShape[]> = {
        users: [
          { columns: ["email"], unique: true },
          { columns: ["id"], unique: true },
        ],
        accounts: [
          { columns: ["provider", "providerAccountId"], unique: true },
          { columns: ["userId"], unique: false },
        ],
        sessions: [
          { columns: ["sessionToken"], unique: true },
          { columns: ["userId"], unique: false },
        ],
        verification_tokens: [{ columns: ["identifier", "token"], unique: true }],
        authenticators: [
          { columns: ["credentialID"], unique: true },
          { columns: ["userId"], unique: false },
        ],
        store_values: [
          { columns: ["expires"], unique: false },
          { columns: ["key"], unique: true },
        ],
        store_limits: [
          { columns: ["expires"], unique: false },
          { columns: ["key"], unique: true },
        ],
        two_factor: [{ columns: ["userId"], unique: true }],
        two_factor_backup_codes: [{ columns: ["userId", "hash"], unique: true }],
        organizations: [
          { columns: ["id"], unique: true },
          { columns: ["slug"], unique: true },
        ],
        organization_members: [
          { columns: ["organizationId", "userId"], unique: true },
          { columns: ["userId"], unique: false },
        ],
        passwords: [{ columns: ["userId"], unique: true }],
        user_roles: [{ columns: ["userId"], unique: true }],
        user_bans: [{ columns: ["userId"], unique: true }],
      };
      for (const [table, shapes] of Object.entries(expected)) {
        const actual = await indexesOf(db, dialect, `${tablePrefix}${table}`);
        // SQLite has no index for an INTEGER PRIMARY KEY, but all of ours are text.
        expect(sortShapes(actual), table).toEqual(sortShapes(shapes));
      }
    });

    test("0004_two_factor, 0007_passwords and 0008_admin_user_roles_and_bans add tables of their own and leave Auth.js's tables as they were", async () => {
      const tablePrefix = freshPrefix();
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => tesseraMigrations({ dialect, tablePrefix }) },
        migrationTableName: `${tablePrefix}tessera_migration`,
        migrationLockTableName: `${tablePrefix}tessera_migration_lock`,
      });
      expect((await migrator.migrateTo("0003_exact_store_keys")).error).toBeUndefined();
      const authjsTables = [
        "users",
        "accounts",
        "sessions",
        "verification_tokens",
        "authenticators",
      ];
      const shape = async () => {
        const tables = await db.introspection.getTables();
        return Object.fromEntries(
          await Promise.all(
            authjsTables.map(async (table) => {
              const found = tables.find((t) => t.name === `${tablePrefix}${table}`);
              const columns = found?.columns.map((c) => `${c.name}:${c.dataType}:${c.isNullable}`);
              return [
                table,
                { columns, indexes: await indexesOf(db, dialect, `${tablePrefix}${table}`) },
              ];
            }),
          ),
        );
      };
      const before = await shape();
      expect(await migrate(db, { dialect, tablePrefix })).toEqual([
        "0004_two_factor",
        "0005_passkey_details",
        "0006_organizations",
        "0007_passwords",
        "0008_admin_user_roles_and_bans",
        "0009_organization_roles",
      ]);
      expect(await shape()).toEqual(before);
      expect((await migrator.migrateTo("0003_exact_store_keys")).error).toBeUndefined();
      expect(await shape()).toEqual(before);
      const names = (await db.introspection.getTables()).map((t) => t.name);
      expect(names).not.toContain(`${tablePrefix}two_factor`);
      expect(names).not.toContain(`${tablePrefix}passwords`);
      expect(names).not.toContain(`${tablePrefix}user_roles`);
      expect(names).not.toContain(`${tablePrefix}user_bans`);
    });

    test("a database created by the first release upgrades in place: its sessions keep working, new ones record their device", async () => {
      const tablePrefix = freshPrefix();
      const migrations = tesseraMigrations({ dialect, tablePrefix });
      const firstRelease = new Migrator({
        db,
        provider: { getMigrations: async () => migrations },
        migrationTableName: `${tablePrefix}tessera_migration`,
        migrationLockTableName: `${tablePrefix}tessera_migration_lock`,
      });
      expect((await firstRelease.migrateTo("0001_create_tables")).error).toBeUndefined();
      const adapter = SqlAdapter(db, { dialect, tablePrefix });
      const user = await adapter.createUser(userFixture());
      // A session row as the first release wrote it (this release's adapter writes the new columns).
      const session = {
        sessionToken: randomUUID(),
        userId: user.id,
        expires: new Date(Date.now() + 60_000),
      };
      await (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
        .insertInto(`${tablePrefix}sessions`)
        .values({
          ...session,
          expires: dialect === "sqlite" ? session.expires.getTime() : session.expires,
        })
        .execute();

      expect(await migrate(db, { dialect, tablePrefix })).toEqual(ALL_MIGRATIONS.slice(1));
      const listed = await adapter.listSessionsByUserId(user.id);
      expect(listed).toEqual([session]);
      expect(listed[0]).not.toHaveProperty("createdAt");

      const createdAt = new Date(Date.now() - 1_000);
      const recorded = await adapter.createSession({
        sessionToken: randomUUID(),
        userId: user.id,
        expires: new Date(Date.now() + 60_000),
        createdAt,
        lastSeenAt: createdAt,
        ip: "192.0.2.7",
        userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
      });
      expect((await adapter.getSessionAndUser(recorded.sessionToken))?.session).toEqual({
        ...recorded,
        createdAt,
        lastSeenAt: createdAt,
      });
    });

    test("0005 adds passkey_details and leaves every table Auth.js defines as it was; a passkey made before it lists with empty details", async () => {
      const tablePrefix = freshPrefix();
      const migrations = tesseraMigrations({ dialect, tablePrefix });
      const earlier = new Migrator({
        db,
        provider: { getMigrations: async () => migrations },
        migrationTableName: `${tablePrefix}tessera_migration`,
        migrationLockTableName: `${tablePrefix}tessera_migration_lock`,
      });
      expect((await earlier.migrateTo("0004_two_factor")).error).toBeUndefined();
      const shape = async () => {
        const tables = await db.introspection.getTables();
        return Object.fromEntries(
          tables
            .filter((table) => table.name.startsWith(tablePrefix))
            .map((table) => [
              table.name,
              table.columns.map((column) => [column.name, column.dataType]),
            ]),
        );
      };
      const adapter = SqlAdapter(db, { dialect, tablePrefix });
      const user = await adapter.createUser(userFixture());
      const authenticator = await adapter.createAuthenticator(authenticatorFixture(user.id));
      const before = await shape();

      const { error, results } = await earlier.migrateTo("0005_passkey_details");
      expect(error).toBeUndefined();
      expect(results?.map((result) => result.migrationName)).toEqual(["0005_passkey_details"]);
      const after = await shape();
      const added = `${tablePrefix}passkey_details`;
      expect(Object.keys(after).sort()).toEqual([...Object.keys(before), added].sort());
      for (const [table, columns] of Object.entries(before))
        expect(after[table], table).toEqual(columns);
      expect(await adapter.listPasskeysByUserId(user.id)).toEqual([
        { ...authenticator, name: null, createdAt: null, lastUsedAt: null, userHandle: null },
      ]);
    });

    test("a shared store made before 0003 keeps its keys, then tells a key from the same key with a trailing space", async () => {
      const tablePrefix = freshPrefix();
      const migrations = tesseraMigrations({ dialect, tablePrefix });
      const earlier = new Migrator({
        db,
        provider: { getMigrations: async () => migrations },
        migrationTableName: `${tablePrefix}tessera_migration`,
        migrationLockTableName: `${tablePrefix}tessera_migration_lock`,
      });
      expect(
        (await earlier.migrateTo("0002_session_metadata_and_shared_store")).error,
      ).toBeUndefined();
      const store = sqlStore(db, { dialect, tablePrefix });
      const key = `marker:${randomUUID()}`;
      await store.add(key, "kept", 60);
      await store.consume(key, 60, 1);

      expect(await migrate(db, { dialect, tablePrefix })).toEqual([
        "0003_exact_store_keys",
        "0004_two_factor",
        "0005_passkey_details",
        "0006_organizations",
        "0007_passwords",
        "0008_admin_user_roles_and_bans",
        "0009_organization_roles",
      ]);
      expect(await store.get(key)).toBe("kept");
      expect((await store.consume(key, 60, 1)).allowed).toBe(false);
      // MySQL's PAD SPACE comparison made these one key before 0003.
      expect(await store.add(`${key} `, "another", 60)).toBe(true);
      expect(await store.get(`${key} `)).toBe("another");
      expect((await store.consume(`${key} `, 60, 1)).allowed).toBe(true);
    });

    test("deleting a user row in plain SQL cascades to its accounts, sessions and authenticators", async () => {
      const tablePrefix = freshPrefix();
      await migrate(db, { dialect, tablePrefix });
      const adapter = SqlAdapter(db, { dialect, tablePrefix });
      const { user, account, session, authenticator } = await userWithData(adapter);

      await sql`delete from ${sql.table(`${tablePrefix}users`)} where id = ${user.id}`.execute(db);

      expect(await adapter.getAccount(account.providerAccountId, account.provider)).toBeNull();
      expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull();
      expect(await adapter.listSessionsByUserId(user.id)).toEqual([]);
      expect(await adapter.getAuthenticator(authenticator.credentialID)).toBeNull();
    });

    test("a session of a user that does not exist is refused by the foreign key", async () => {
      const tablePrefix = freshPrefix();
      await migrate(db, { dialect, tablePrefix });
      const adapter = SqlAdapter(db, { dialect, tablePrefix });
      await expect(
        adapter.createSession({
          sessionToken: randomUUID(),
          userId: randomUUID(),
          expires: new Date(Date.now() + 60_000),
        }),
      ).rejects.toThrow();
    });

    test("dropSchema removes every table the migration created", async () => {
      const tablePrefix = uniqueTablePrefix();
      await migrate(db, { dialect, tablePrefix });
      await dropSchema(db, { dialect, tablePrefix });
      const tables = await db.introspection.getTables();
      expect(tables.filter((table) => table.name.startsWith(tablePrefix))).toEqual([]);
    });
  });
}

describe("SQL adapter configuration", () => {
  test("a table prefix that is not a plain identifier is rejected before any SQL runs", () => {
    const db = createDbFromUrl("sqlite::memory:").db;
    expect(() =>
      SqlAdapter(db, { dialect: "sqlite", tablePrefix: 'x"; drop table users; --' }),
    ).toThrow(/tablePrefix/);
    expect(() => tesseraMigrations({ dialect: "sqlite", tablePrefix: "1abc" })).toThrow(
      /tablePrefix/,
    );
  });

  test("an unknown dialect is rejected", () => {
    const db = createDbFromUrl("sqlite::memory:").db;
    expect(() => SqlAdapter(db, { dialect: "oracle" as SqlDialect })).toThrow(/dialect/);
  });

  test("createDbFromUrl picks the dialect from the URL scheme", async () => {
    const cases: [string, SqlDialect][] = [
      ["sqlite::memory:", "sqlite"],
      ["file:./x.sqlite", "sqlite"],
      ["postgres://u@127.0.0.1/db", "postgres"],
      ["postgresql://u@127.0.0.1/db", "postgres"],
      ["mysql://u@127.0.0.1/db", "mysql"],
      ["mariadb://u@127.0.0.1/db", "mariadb"],
    ];
    for (const [url, dialect] of cases) {
      const created = createDbFromUrl(url);
      expect(created.dialect, url).toBe(dialect);
      // Nothing connected yet: the drivers connect on first use.
      await created.db.destroy();
    }
    expect(() => createDbFromUrl("mongodb://127.0.0.1/db")).toThrow(/Unsupported database URL/);
  });

  test("sqlAdapterFromUrl returns a working adapter for an in-memory SQLite URL", async () => {
    const { adapter, db, dialect } = sqlAdapterFromUrl("sqlite::memory:");
    await migrate(db, { dialect });
    const user = await adapter.createUser(userFixture());
    expect(await adapter.getUserByEmail(user.email)).toEqual(user);
    await db.destroy();
  });

  test("deleteUser removes a user's data even on a SQLite connection without foreign keys", async () => {
    const file = sqliteFile();
    const raw = new Database(file);
    raw.pragma("foreign_keys = OFF");
    const db = new KyselyClass<TesseraDatabase>({ dialect: new SqliteDialect({ database: raw }) });
    try {
      await migrate(db, { dialect: "sqlite" });
      const adapter = SqlAdapter(db, { dialect: "sqlite" });
      const { user, session, authenticator } = await userWithData(adapter);

      await adapter.deleteUser(user.id);

      const leftovers = await Promise.all([
        db
          .selectFrom("sessions")
          .selectAll()
          .where("sessionToken", "=", session.sessionToken)
          .execute(),
        db.selectFrom("accounts").selectAll().where("userId", "=", user.id).execute(),
        db
          .selectFrom("authenticators")
          .selectAll()
          .where("credentialID", "=", authenticator.credentialID)
          .execute(),
      ]);
      expect(leftovers).toEqual([[], [], []]);
    } finally {
      await db.destroy();
      await rm(file, { force: true });
    }
  });
});
