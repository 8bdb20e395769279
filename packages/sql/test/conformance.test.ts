import { rm } from "node:fs/promises";
import { runAdapterConformance } from "@tessera/adapter-test";
import { createMysqlDb, createPostgresDb, createSqliteDb, SqlAdapter } from "../src/index.js";
import {
  MYSQL_URL,
  POSTGRES_URL,
  sqlConformanceDb,
  sqliteFile,
  uniqueTablePrefix,
} from "./support.js";

{
  const file = sqliteFile();
  const db = createSqliteDb(file);
  const tablePrefix = uniqueTablePrefix();
  runAdapterConformance("SqlAdapter on SQLite", {
    adapter: SqlAdapter(db, { dialect: "sqlite", tablePrefix }),
    db: sqlConformanceDb(db, {
      dialect: "sqlite",
      tablePrefix,
      afterClose: () => rm(file, { force: true }).then(() => rm(`${file}-wal`, { force: true })),
    }),
    features: {
      twoFactor: true,
      organizations: true,
      organizationRoles: true,
      password: true,
      admin: true,
    },
  });
}

{
  const db = createPostgresDb(POSTGRES_URL);
  const tablePrefix = uniqueTablePrefix();
  runAdapterConformance("SqlAdapter on PostgreSQL", {
    adapter: SqlAdapter(db, { dialect: "postgres", tablePrefix }),
    db: sqlConformanceDb(db, { dialect: "postgres", tablePrefix }),
    features: {
      twoFactor: true,
      organizations: true,
      organizationRoles: true,
      password: true,
      admin: true,
    },
  });
}

{
  const db = createMysqlDb(MYSQL_URL);
  const tablePrefix = uniqueTablePrefix();
  runAdapterConformance("SqlAdapter on MariaDB, mysql dialect (SELECT … FOR UPDATE)", {
    adapter: SqlAdapter(db, { dialect: "mysql", tablePrefix }),
    db: sqlConformanceDb(db, { dialect: "mysql", tablePrefix }),
    features: {
      twoFactor: true,
      organizations: true,
      organizationRoles: true,
      password: true,
      admin: true,
    },
  });
}

{
  const db = createMysqlDb(MYSQL_URL);
  const tablePrefix = uniqueTablePrefix();
  runAdapterConformance("SqlAdapter on MariaDB, mariadb dialect (DELETE … RETURNING)", {
    adapter: SqlAdapter(db, { dialect: "mariadb", tablePrefix }),
    db: sqlConformanceDb(db, { dialect: "mariadb", tablePrefix }),
    features: {
      twoFactor: true,
      organizations: true,
      organizationRoles: true,
      password: true,
      admin: true,
    },
  });
}
