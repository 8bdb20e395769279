/**
 * The session read on the driver below Kysely (src/native.ts), for instances made by
 * `createSqliteDb` and `createPostgresDb`: a statement prepared once on SQLite, a named prepared
 * statement on PostgreSQL. These tests pin what that path must keep from Kysely's: transaction
 * isolation on SQLite's single connection, a connection busy streaming, and PostgreSQL servers
 * or poolers that lose prepared statements. All run against the real databases.
 */
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createPostgresDb,
  createSqliteDb,
  dropSchema,
  migrate,
  SqlAdapter,
  type TesseraDatabase,
} from "../src/index.js";
import { POSTGRES_URL, seedSession, sqliteFile, uniqueTablePrefix } from "./support.js";

/**
 * A user with every column set and a session with every metadata column set: the direct read
 * maps its values by position, so a column out of place shows up as a field that differs.
 */
async function seedFullSession(adapter: ReturnType<typeof SqlAdapter>): Promise<string> {
  const user = await adapter.createUser({
    id: randomUUID(),
    name: "Ada Lovelace",
    email: `${randomUUID()}@example.com`,
    emailVerified: new Date("2026-01-02T03:04:05.000Z"),
    image: "https://example.com/ada.png",
  });
  const sessionToken = randomUUID();
  await adapter.createSession({
    sessionToken,
    userId: user.id,
    expires: new Date("2036-01-01T00:00:00.000Z"),
    createdAt: new Date("2026-11-01T10:00:00.000Z"),
    lastSeenAt: new Date("2026-11-02T11:00:00.000Z"),
    ip: "203.0.113.7",
    userAgent: "Mozilla/5.0 (test)",
  });
  return sessionToken;
}

/** An instance with a plugin that changes nothing: its reads go through Kysely's path. */
function throughKysely(db: Kysely<TesseraDatabase>): Kysely<TesseraDatabase> {
  return db.withPlugin({
    transformQuery: ({ node }) => node,
    transformResult: async ({ result }) => result,
  }) as Kysely<TesseraDatabase>;
}

/** Reads a fully set session through `direct` and through `viaKysely`: every field agrees. */
async function expectSameAsKysely(
  direct: ReturnType<typeof SqlAdapter>,
  viaKysely: ReturnType<typeof SqlAdapter>,
): Promise<void> {
  const token = await seedFullSession(direct);
  const found = await direct.getSessionAndUser(token);
  expect(found).toEqual(await viaKysely.getSessionAndUser(token));
  expect(found?.session).toMatchObject({ ip: "203.0.113.7", userAgent: "Mozilla/5.0 (test)" });
  expect(found?.user.emailVerified).toEqual(new Date("2026-01-02T03:04:05.000Z"));
}

describe("SQLite: the session read on better-sqlite3", () => {
  const statements: string[] = [];
  const db = createSqliteDb(sqliteFile(), {
    verbose: (message) => statements.push(String(message)),
  });
  const adapter = SqlAdapter(db, { dialect: "sqlite" });
  beforeAll(() => migrate(db, { dialect: "sqlite" }));
  afterAll(() => db.destroy());

  it("runs one SELECT per read and prepares it once", async () => {
    const token = await seedSession(adapter);
    await adapter.getSessionAndUser(token);
    const { default: Database } = await import("better-sqlite3");
    const prepare = vi.spyOn(Database.prototype, "prepare");
    statements.length = 0;
    for (let read = 0; read < 5; read++) {
      expect(await adapter.getSessionAndUser(token)).toMatchObject({
        session: { sessionToken: token },
      });
    }
    expect(prepare).not.toHaveBeenCalled();
    prepare.mockRestore();
    expect(statements).toHaveLength(5);
    expect(statements.every((statement) => /^select .* join /i.test(statement))).toBe(true);
  });

  it("answers every field exactly as Kysely's path does", () =>
    expectSameAsKysely(adapter, SqlAdapter(throughKysely(db), { dialect: "sqlite" })));

  it("does not see the uncommitted delete of a transaction that then rolls back", async () => {
    const token = await seedSession(adapter);
    let readDuringTransaction: unknown;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom("sessions").where("sessionToken", "=", token).execute();
        // The transaction holds SQLite's one connection; the read must wait for its outcome.
        readDuringTransaction = adapter.getSessionAndUser(token);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await readDuringTransaction).toMatchObject({ session: { sessionToken: token } });
  });

  it("answers while another query is streaming rows on the connection", async () => {
    const token = await seedSession(adapter);
    let readDuringStream: unknown;
    for await (const _user of db.selectFrom("users").select("id").stream()) {
      readDuringStream ??= adapter.getSessionAndUser(token);
    }
    expect(await readDuringStream).toMatchObject({ session: { sessionToken: token } });
  });

  it("is not used for an instance with plugins, whose queries Kysely must see", async () => {
    const token = await seedSession(adapter);
    let resultsSeen = 0;
    const withPlugin = db.withPlugin({
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        resultsSeen++;
        return result;
      },
    }) as Kysely<TesseraDatabase>;
    const found = await SqlAdapter(withPlugin, { dialect: "sqlite" }).getSessionAndUser(token);
    expect(found).toMatchObject({ session: { sessionToken: token } });
    expect(resultsSeen).toBe(1);
  });
});

describe("PostgreSQL: the session read as a named prepared statement", () => {
  // One connection, so the statements this test runs share the server session with the reads.
  const db = createPostgresDb({ connectionString: POSTGRES_URL, max: 1 });
  const tablePrefix = uniqueTablePrefix();
  const adapter = SqlAdapter(db, { dialect: "postgres", tablePrefix });
  beforeAll(() => migrate(db, { dialect: "postgres", tablePrefix }));
  afterAll(async () => {
    await dropSchema(db, { dialect: "postgres", tablePrefix });
    await db.destroy();
  });

  async function preparedOnServer(): Promise<string[]> {
    const { rows } = await sql<{
      name: string;
    }>`select name from pg_prepared_statements where name like 'tessera_%'`.execute(db);
    return rows.map((row) => row.name);
  }

  it("is prepared once on the connection and reused", async () => {
    const token = await seedSession(adapter);
    const query = vi.spyOn(pg.Client.prototype, "query");
    for (let read = 0; read < 3; read++) await adapter.getSessionAndUser(token);
    const names = query.mock.calls.map(([config]) => (config as { name?: string }).name);
    query.mockRestore();
    expect(names).toHaveLength(3);
    expect(new Set(names).size).toBe(1);
    expect(await preparedOnServer()).toEqual([names[0]]);
  });

  it("answers every field exactly as Kysely's path does", () =>
    expectSameAsKysely(
      adapter,
      SqlAdapter(throughKysely(db), { dialect: "postgres", tablePrefix }),
    ));

  it("goes on unnamed when the server lost the statement (a pooler switched connections)", async () => {
    const token = await seedSession(adapter);
    await adapter.getSessionAndUser(token);
    // pg still believes the statement is prepared on this connection and sends only a Bind.
    await sql`deallocate all`.execute(db);
    expect(await adapter.getSessionAndUser(token)).toMatchObject({
      session: { sessionToken: token },
    });
    expect(await adapter.getSessionAndUser(token)).toMatchObject({
      session: { sessionToken: token },
    });
    expect(await preparedOnServer()).toEqual([]);
  });

  it("with preparedStatements: false, prepares nothing on the server", async () => {
    await sql`deallocate all`.execute(db);
    const unnamed = SqlAdapter(db, { dialect: "postgres", tablePrefix, preparedStatements: false });
    const token = await seedSession(unnamed);
    expect(await unnamed.getSessionAndUser(token)).toMatchObject({
      session: { sessionToken: token },
    });
    expect(await unnamed.getSessionAndUser(randomUUID())).toBeNull();
    expect(await preparedOnServer()).toEqual([]);
  });
});
