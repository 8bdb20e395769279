import { randomUUID } from "node:crypto";
import { silentServer, timed, userFixture } from "@tessera/adapter-test";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createMysqlDb,
  createPostgresDb,
  dropSchema,
  migrate,
  SqlAdapter,
  type SqlDialect,
  type TesseraDatabase,
} from "../src/index.js";
import { MYSQL_URL, POSTGRES_URL, uniqueTablePrefix } from "./support.js";

interface ServerUnderTest {
  label: string;
  dialect: SqlDialect;
  /** A database on `host:port` that gives up connecting after one second. */
  at(host: string, port: number): Kysely<TesseraDatabase>;
  /** A database on the real server limited to one connection. */
  single(): Kysely<TesseraDatabase>;
  /** This connection's id on the server. */
  connectionId(db: Kysely<TesseraDatabase>): Promise<string>;
  /** Ends that connection from another one, like a server restart or a proxy timeout would. */
  kill(admin: Kysely<TesseraDatabase>, id: string): Promise<void>;
  admin(): Kysely<TesseraDatabase>;
}

const servers: ServerUnderTest[] = [
  {
    label: "PostgreSQL",
    dialect: "postgres",
    at: (host, port) =>
      createPostgresDb({
        connectionString: `postgres://postgres@${host}:${port}/test`,
        connectionTimeoutMillis: 1_000,
      }),
    single: () => createPostgresDb({ connectionString: POSTGRES_URL, max: 1 }),
    admin: () => createPostgresDb(POSTGRES_URL),
    connectionId: async (db) =>
      String((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]?.pid),
    kill: async (admin, id) => {
      await sql`select pg_terminate_backend(${Number(id)})`.execute(admin);
    },
  },
  {
    label: "MariaDB",
    dialect: "mysql",
    at: (host, port) =>
      createMysqlDb({ uri: `mysql://root@${host}:${port}/test`, connectTimeout: 1_000 }),
    single: () => createMysqlDb({ uri: MYSQL_URL, connectionLimit: 1 }),
    admin: () => createMysqlDb(MYSQL_URL),
    connectionId: async (db) =>
      String((await sql<{ id: number }>`select connection_id() as id`.execute(db)).rows[0]?.id),
    kill: async (admin, id) => {
      await sql`kill ${sql.raw(String(Number(id)))}`.execute(admin);
    },
  },
];

for (const server of servers) {
  describe(`SqlAdapter on ${server.label} when the database goes away`, () => {
    const { dialect } = server;
    const tablePrefix = uniqueTablePrefix();
    const admin = server.admin();

    beforeAll(async () => {
      await migrate(admin, { dialect, tablePrefix });
    });

    afterAll(async () => {
      await dropSchema(admin, { dialect, tablePrefix });
      await admin.destroy();
    });

    test("calls reject at once when nothing listens on the port", async () => {
      const db = server.at("127.0.0.1", 1);
      const adapter = SqlAdapter(db, { dialect, tablePrefix });
      const { ms, error } = await timed(() => adapter.getUser(randomUUID()));
      expect(error).toBeInstanceOf(Error);
      expect(ms).toBeLessThan(3_000);
      // A second call fails the same way instead of hanging on a broken pool.
      const again = await timed(() => adapter.getSessionAndUser(randomUUID()));
      expect(again.error).toBeInstanceOf(Error);
      expect(again.ms).toBeLessThan(3_000);
      await db.destroy();
    });

    test("calls reject after the connect timeout when the server accepts but never answers", async () => {
      const silent = await silentServer();
      const db = server.at("127.0.0.1", silent.port);
      const adapter = SqlAdapter(db, { dialect, tablePrefix });
      try {
        const { ms, error } = await timed(() => adapter.getUserByEmail("a@example.com"));
        expect(error).toBeInstanceOf(Error);
        expect(ms).toBeLessThan(4_000);
      } finally {
        await db.destroy().catch(() => {});
        await silent.close();
      }
    });

    test("a fresh connection to the restored server works after failed attempts", async () => {
      const broken = server.at("127.0.0.1", 1);
      await expect(SqlAdapter(broken, { dialect, tablePrefix }).getUser("x")).rejects.toThrow();
      await broken.destroy();

      const db = server.single();
      const adapter = SqlAdapter(db, { dialect, tablePrefix });
      const user = await adapter.createUser(userFixture());
      expect(await adapter.getUser(user.id)).toEqual(user);
      await db.destroy();
    });

    test("the adapter reconnects after the server ends its connection", async () => {
      const db = server.single();
      const adapter = SqlAdapter(db, { dialect, tablePrefix });
      const user = await adapter.createUser(userFixture());
      const before = await server.connectionId(db);

      await server.kill(admin, before);
      // Let the driver notice the closed socket, as it would between two requests.
      await new Promise((resolve) => setTimeout(resolve, 200));

      expect(await adapter.getUser(user.id)).toEqual(user);
      expect(await server.connectionId(db)).not.toBe(before);
      await db.destroy();
    });
  });
}
