import { randomUUID } from "node:crypto";
import type { ConformanceDb } from "@tessera/adapter-test";
import type { Adapter, AdapterAccountType } from "@tessera/core/adapters";
import type { Kysely } from "kysely";
import {
  createMysqlDb,
  createPostgresDb,
  createSqliteDb,
  dropSchema,
  migrate,
  readBoolean,
  readDate,
  readInteger,
  type SqlDialect,
  type TesseraDatabase,
} from "../src/index.js";

export const POSTGRES_URL =
  process.env.TESSERA_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const MYSQL_URL = process.env.TESSERA_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";

/** A table prefix no other test run uses, so parallel files and reruns never collide. */
export function uniqueTablePrefix(): string {
  return `t_${randomUUID().replaceAll("-", "").slice(0, 10)}_`;
}

/** A new user with one session that expires in `days` (30 by default); returns its token. */
export async function seedSession(adapter: Required<Adapter>, days = 30): Promise<string> {
  const user = await adapter.createUser({
    id: randomUUID(),
    email: `${randomUUID()}@example.com`,
    emailVerified: null,
  });
  const sessionToken = randomUUID();
  await adapter.createSession({
    sessionToken,
    userId: user.id,
    expires: new Date(Date.now() + days * 24 * 3600 * 1000),
  });
  return sessionToken;
}

/** A database the tests can reach, per dialect. SQLite lives in a temp file. */
export interface TestTarget {
  label: string;
  dialect: SqlDialect;
  connect(): Kysely<TesseraDatabase>;
}

export function sqliteFile(): string {
  return `${process.env.TMPDIR ?? "/tmp"}/tessera-sql-${randomUUID()}.sqlite`;
}

export const targets: TestTarget[] = [
  { label: "SQLite", dialect: "sqlite", connect: () => createSqliteDb(sqliteFile()) },
  { label: "PostgreSQL", dialect: "postgres", connect: () => createPostgresDb(POSTGRES_URL) },
  { label: "MySQL protocol (MariaDB)", dialect: "mysql", connect: () => createMysqlDb(MYSQL_URL) },
  { label: "MariaDB", dialect: "mariadb", connect: () => createMysqlDb(MYSQL_URL) },
];

/**
 * Reads Tessera's tables directly (raw rows, decoded here rather than by the adapter) so the
 * conformance suite can check what was really stored. `connect` migrates a fresh prefix,
 * `disconnect` drops it and closes the database.
 */
export function sqlConformanceDb(
  // An untyped view: the tables carry a runtime prefix the static type cannot know.
  database: Kysely<TesseraDatabase>,
  options: { dialect: SqlDialect; tablePrefix: string; afterClose?: () => Promise<void> },
): ConformanceDb {
  const db = database as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const { tablePrefix, dialect } = options;
  const from = (table: string) => db.selectFrom(`${tablePrefix}${table}`).selectAll();
  const date = (value: unknown) => readDate(value as Date | number | string);
  const text = (value: unknown) => value as string;

  return {
    async connect() {
      await migrate(database, { dialect, tablePrefix });
    },
    async disconnect() {
      try {
        await dropSchema(database, { dialect, tablePrefix });
      } finally {
        await database.destroy();
        await options.afterClose?.();
      }
    },
    async user(id) {
      const row = await from("users").where("id", "=", id).executeTakeFirst();
      if (!row) return null;
      return {
        id: text(row.id),
        name: row.name as string | null,
        email: text(row.email),
        emailVerified: row.emailVerified === null ? null : date(row.emailVerified),
        image: row.image as string | null,
      };
    },
    async account({ provider, providerAccountId }) {
      const row = await from("accounts")
        .where("provider", "=", provider)
        .where("providerAccountId", "=", providerAccountId)
        .executeTakeFirst();
      if (!row) return null;
      const tokens = Object.fromEntries(
        Object.entries(row).filter(
          ([key, value]) =>
            !["userId", "type", "provider", "providerAccountId"].includes(key) && value !== null,
        ),
      );
      if (row.expires_at !== null) tokens.expires_at = readInteger(row.expires_at as number);
      return {
        ...tokens,
        userId: text(row.userId),
        type: row.type as AdapterAccountType,
        provider: text(row.provider),
        providerAccountId: text(row.providerAccountId),
      };
    },
    async session(sessionToken) {
      const row = await from("sessions")
        .where("sessionToken", "=", sessionToken)
        .executeTakeFirst();
      if (!row) return null;
      return {
        sessionToken: text(row.sessionToken),
        userId: text(row.userId),
        expires: date(row.expires),
      };
    },
    async verificationToken({ identifier, token }) {
      const row = await from("verification_tokens")
        .where("identifier", "=", identifier)
        .where("token", "=", token)
        .executeTakeFirst();
      if (!row) return null;
      return {
        identifier: text(row.identifier),
        token: text(row.token),
        expires: date(row.expires),
      };
    },
    async authenticator(credentialID) {
      const row = await from("authenticators")
        .where("credentialID", "=", credentialID)
        .executeTakeFirst();
      if (!row) return null;
      return {
        credentialID: text(row.credentialID),
        userId: text(row.userId),
        providerAccountId: text(row.providerAccountId),
        credentialPublicKey: text(row.credentialPublicKey),
        counter: readInteger(row.counter as number),
        credentialDeviceType: text(row.credentialDeviceType),
        credentialBackedUp: readBoolean(row.credentialBackedUp as number | boolean),
        transports: row.transports as string | null,
      };
    },
  };
}
