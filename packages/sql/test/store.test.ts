import { rm } from "node:fs/promises";
import { runSharedStoreConformance } from "@tessera/adapter-test";
import type { Kysely } from "kysely";
import {
  createMysqlDb,
  createPostgresDb,
  createSqliteDb,
  dropSchema,
  migrate,
  type SqlDialect,
  sqlStore,
  type TesseraDatabase,
} from "../src/index.js";
import { MYSQL_URL, POSTGRES_URL, sqliteFile, uniqueTablePrefix } from "./support.js";

/** Runs the shared-store suite on a fresh table prefix, dropped afterwards. */
function certify(
  label: string,
  dialect: SqlDialect,
  db: Kysely<TesseraDatabase>,
  afterClose?: () => Promise<void>,
): void {
  const tablePrefix = uniqueTablePrefix();
  runSharedStoreConformance(`sqlStore on ${label}`, {
    connect: () => migrate(db, { dialect, tablePrefix }).then(() => undefined),
    store: () => sqlStore(db, { dialect, tablePrefix }),
    async disconnect() {
      try {
        await dropSchema(db, { dialect, tablePrefix });
      } finally {
        await db.destroy();
        await afterClose?.();
      }
    },
  });
}

{
  const file = sqliteFile();
  certify("SQLite", "sqlite", createSqliteDb(file), async () => {
    await rm(file, { force: true });
    await rm(`${file}-wal`, { force: true });
    await rm(`${file}-shm`, { force: true });
  });
}
certify("PostgreSQL", "postgres", createPostgresDb(POSTGRES_URL));
certify("MariaDB (mysql dialect)", "mysql", createMysqlDb(MYSQL_URL));
certify("MariaDB (mariadb dialect)", "mariadb", createMysqlDb(MYSQL_URL));
