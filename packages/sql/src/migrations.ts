import {
  type CompiledQuery,
  type CreateTableBuilder,
  CreateTableNode,
  DummyDriver,
  Kysely,
  type Migration,
  type MigrationResult,
  Migrator,
  NO_MIGRATIONS,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from "kysely";
import { type AtomicBatch, atomicBatch } from "./batch.js";
import { dialectTraits } from "./dialect.js";
import { type SqlDialect, type TesseraTableName, validTablePrefix } from "./schema.js";

/** Options of {@link migrate}, {@link dropSchema} and {@link tesseraMigrations}. */
export interface MigrationOptions {
  dialect: SqlDialect;
  /** Prepended to every table, index and constraint name (letters, digits, `_`). */
  tablePrefix?: string;
}

/** A column type as `addColumn` accepts it (Kysely does not export the type by name). */
type DataTypeExpression = Parameters<CreateTableBuilder<string, never>["addColumn"]>[1];

/** Column types per dialect. */
interface ColumnTypes {
  /** Identifiers and other values that are compared, indexed or referenced. */
  key: DataTypeExpression;
  /** WebAuthn credential ids: base64 of up to 1023 bytes per the WebAuthn spec. */
  credentialId: DataTypeExpression;
  /** Unindexed text of any length (tokens, keys, URLs). */
  text: DataTypeExpression;
  date: DataTypeExpression;
  bigint: DataTypeExpression;
  boolean: DataTypeExpression;
}

function columnTypes(dialect: SqlDialect): ColumnTypes {
  switch (dialect) {
    case "sqlite":
      // Dates are epoch milliseconds: SQLite has no date type and text would sort wrongly.
      return {
        key: "text",
        credentialId: "text",
        text: "text",
        date: "integer",
        bigint: "integer",
        boolean: "integer",
      };
    case "postgres":
      return {
        key: "text",
        credentialId: "text",
        text: "text",
        date: "timestamptz(3)",
        bigint: "bigint",
        boolean: "boolean",
      };
    case "mysql":
    case "mariadb":
      // Indexed columns need a length; 255 utf8mb4 characters fit InnoDB's 3072-byte key limit
      // even in the two-column keys. DATETIME (not TIMESTAMP) avoids the 2038 limit.
      return {
        key: "varchar(255)",
        // ASCII (base64 needs no more) lets 1400 characters fit the same key limit.
        credentialId: sql`varchar(1400) character set ascii collate ascii_bin`,
        text: "text",
        date: "datetime(3)",
        bigint: "bigint",
        boolean: "boolean",
      };
  }
}

/**
 * Tessera's schema migrations for Kysely's `Migrator`, for applications that run Tessera's
 * migrations together with their own. Most applications call {@link migrate} instead.
 *
 * @example
 * ```ts
 * const migrator = new Migrator({
 *   db,
 *   provider: { getMigrations: async () => ({ ...tesseraMigrations({ dialect: "postgres" }), ...mine }) },
 * })
 * ```
 */
export function tesseraMigrations(options: MigrationOptions): Record<string, Migration> {
  return refusingTableClashes(plainMigrations(options), options.dialect);
}

/** Tessera's migrations without the clash check that {@link tesseraMigrations} adds. */
function plainMigrations(options: MigrationOptions): Record<string, Migration> {
  const prefix = validTablePrefix(options.tablePrefix);
  const { dialect } = options;
  dialectTraits(dialect);
  const types = columnTypes(dialect);
  const name = (table: TesseraTableName) => `${prefix}${table}`;
  const isMysql = dialect === "mysql" || dialect === "mariadb";

  /** MySQL compares text case-insensitively by default: binary collation makes tokens exact. */
  function withTableOptions<T extends string, C extends string>(
    builder: CreateTableBuilder<T, C>,
  ): CreateTableBuilder<T, C> {
    return isMysql
      ? builder.modifyEnd(sql`engine = InnoDB default character set utf8mb4 collate utf8mb4_bin`)
      : builder;
  }

  /**
   * Creates a table whose rows belong to a user: `userId` references `users(id)`, deleting the
   * user deletes them (as in Auth.js's schema), and an index on `userId` serves per-user lookups.
   */
  async function createUserOwnedTable<C extends string>(
    db: Kysely<unknown>,
    table:
      | "accounts"
      | "sessions"
      | "authenticators"
      | "two_factor"
      | "two_factor_backup_codes"
      | "passwords"
      | "user_roles"
      | "user_bans",
    columns: (
      builder: CreateTableBuilder<string, never>,
    ) => CreateTableBuilder<string, C | "userId">,
    /** False where the primary key starts with `userId` and already serves those lookups. */
    userIndex = true,
  ): Promise<void> {
    const builder = columns(db.schema.createTable(name(table))).addForeignKeyConstraint(
      `${prefix}${table}_userId_fkey`,
      ["userId"],
      name("users"),
      ["id"],
      (fk) => fk.onDelete("cascade"),
    );
    await withTableOptions(builder).execute();
    if (!userIndex) return;
    await db.schema
      .createIndex(`${prefix}${table}_userId_idx`)
      .on(name(table))
      .column("userId")
      .execute();
  }

  const migrations: Record<string, Migration> = {
    "0001_create_tables": {
      async up(db: Kysely<unknown>) {
        await withTableOptions(
          db.schema
            .createTable(name("users"))
            .addColumn("id", types.key, (col) => col.primaryKey())
            .addColumn("name", types.text)
            .addColumn("email", types.key)
            .addColumn("emailVerified", types.date)
            .addColumn("image", types.text)
            .addUniqueConstraint(`${prefix}users_email_key`, ["email"]),
        ).execute();

        await createUserOwnedTable(db, "accounts", (table) =>
          table
            .addColumn("userId", types.key, (col) => col.notNull())
            .addColumn("type", types.key, (col) => col.notNull())
            .addColumn("provider", types.key, (col) => col.notNull())
            .addColumn("providerAccountId", types.key, (col) => col.notNull())
            .addColumn("refresh_token", types.text)
            .addColumn("access_token", types.text)
            .addColumn("expires_at", types.bigint)
            .addColumn("token_type", types.text)
            .addColumn("scope", types.text)
            .addColumn("id_token", types.text)
            .addColumn("session_state", types.text)
            .addPrimaryKeyConstraint(`${prefix}accounts_pkey`, ["provider", "providerAccountId"]),
        );

        await createUserOwnedTable(db, "sessions", (table) =>
          table
            .addColumn("sessionToken", types.key, (col) => col.primaryKey())
            .addColumn("userId", types.key, (col) => col.notNull())
            .addColumn("expires", types.date, (col) => col.notNull()),
        );

        await withTableOptions(
          db.schema
            .createTable(name("verification_tokens"))
            .addColumn("identifier", types.key, (col) => col.notNull())
            .addColumn("token", types.key, (col) => col.notNull())
            .addColumn("expires", types.date, (col) => col.notNull())
            .addPrimaryKeyConstraint(`${prefix}verification_tokens_pkey`, ["identifier", "token"]),
        ).execute();

        await createUserOwnedTable(db, "authenticators", (table) =>
          table
            .addColumn("credentialID", types.credentialId, (col) => col.primaryKey())
            .addColumn("userId", types.key, (col) => col.notNull())
            .addColumn("providerAccountId", types.key, (col) => col.notNull())
            .addColumn("credentialPublicKey", types.text, (col) => col.notNull())
            .addColumn("counter", types.bigint, (col) => col.notNull())
            .addColumn("credentialDeviceType", types.key, (col) => col.notNull())
            .addColumn("credentialBackedUp", types.boolean, (col) => col.notNull())
            .addColumn("transports", types.text),
        );
      },

      async down(db: Kysely<unknown>) {
        for (const table of [
          "authenticators",
          "verification_tokens",
          "sessions",
          "accounts",
          "users",
        ] as const) {
          await db.schema.dropTable(name(table)).ifExists().execute();
        }
      },
    },
    "0002_session_metadata_and_shared_store": {
      async up(db: Kysely<unknown>) {
        // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
        for (const [column, type] of [
          ["createdAt", types.date],
          ["lastSeenAt", types.date],
          ["ip", types.text],
          ["userAgent", types.text],
        ] as const) {
          await db.schema.alterTable(name("sessions")).addColumn(column, type).execute();
        }
        await withTableOptions(
          db.schema
            .createTable(name("store_values"))
            .addColumn("key", types.key, (col) => col.primaryKey())
            .addColumn("value", types.text, (col) => col.notNull())
            .addColumn("expires", types.date, (col) => col.notNull()),
        ).execute();
        await withTableOptions(
          db.schema
            .createTable(name("store_limits"))
            .addColumn("key", types.key, (col) => col.primaryKey())
            .addColumn("windowStart", types.bigint, (col) => col.notNull())
            .addColumn("current", types.bigint, (col) => col.notNull())
            .addColumn("previous", types.bigint, (col) => col.notNull())
            .addColumn("expires", types.date, (col) => col.notNull()),
        ).execute();
        for (const table of ["store_values", "store_limits"] as const) {
          await db.schema
            .createIndex(`${prefix}${table}_expires_idx`)
            .on(name(table))
            .column("expires")
            .execute();
        }
      },

      async down(db: Kysely<unknown>) {
        await db.schema.dropTable(name("store_limits")).ifExists().execute();
        await db.schema.dropTable(name("store_values")).ifExists().execute();
        for (const column of ["userAgent", "ip", "lastSeenAt", "createdAt"]) {
          await db.schema.alterTable(name("sessions")).dropColumn(column).execute();
        }
      },
    },
    "0003_exact_store_keys": {
      // MySQL and MariaDB compare VARCHAR values with PAD SPACE, even under utf8mb4_bin: "k" and
      // "k " were one shared-store key. VARBINARY compares bytes, trailing spaces included.
      // SQLite and PostgreSQL compare text exactly already: nothing to do there.
      async up(db: Kysely<unknown>) {
        if (!isMysql) return;
        for (const table of ["store_values", "store_limits"] as const) {
          await db.schema
            .alterTable(name(table))
            .modifyColumn("key", sql`varbinary(1020)`, (col) => col.notNull())
            .execute();
        }
      },

      async down(db: Kysely<unknown>) {
        if (!isMysql) return;
        for (const table of ["store_values", "store_limits"] as const) {
          // Keys ending in a space would clash with their trimmed twins under PAD SPACE; the
          // store holds short-lived state (rate-limit windows, locks, markers) it can lose.
          await sql`delete from ${sql.table(name(table))} where ${sql.ref("key")} like '% '`.execute(
            db,
          );
          await db.schema
            .alterTable(name(table))
            .modifyColumn(
              "key",
              sql`varchar(255) character set utf8mb4 collate utf8mb4_bin`,
              (col) => col.notNull(),
            )
            .execute();
        }
      },
    },
    "0004_two_factor": {
      // Two tables of its own: Auth.js's tables are not altered, so an app can move back.
      async up(db: Kysely<unknown>) {
        await createUserOwnedTable(
          db,
          "two_factor",
          (table) =>
            table
              .addColumn("userId", types.key, (col) => col.primaryKey())
              .addColumn("secret", types.text, (col) => col.notNull())
              .addColumn("enabledAt", types.date)
              .addColumn("lastUsedStep", types.bigint),
          false,
        );
        await createUserOwnedTable(
          db,
          "two_factor_backup_codes",
          (table) =>
            table
              .addColumn("userId", types.key, (col) => col.notNull())
              .addColumn("hash", types.key, (col) => col.notNull())
              .addPrimaryKeyConstraint(`${prefix}two_factor_backup_codes_pkey`, ["userId", "hash"]),
          false,
        );
      },

      async down(db: Kysely<unknown>) {
        await db.schema.dropTable(name("two_factor_backup_codes")).ifExists().execute();
        await db.schema.dropTable(name("two_factor")).ifExists().execute();
      },
    },
    "0005_passkey_details": {
      // A table of its own rather than columns on `authenticators`: Auth.js's tables stay as
      // Auth.js creates them, so an Auth.js app can still share the database.
      async up(db: Kysely<unknown>) {
        await withTableOptions(
          db.schema
            .createTable(name("passkey_details"))
            .addColumn("credentialID", types.credentialId, (col) => col.primaryKey())
            .addColumn("name", types.text)
            .addColumn("createdAt", types.date)
            .addColumn("lastUsedAt", types.date)
            .addColumn("userHandle", types.text)
            .addForeignKeyConstraint(
              `${prefix}passkey_details_credentialID_fkey`,
              ["credentialID"],
              name("authenticators"),
              ["credentialID"],
              (fk) => fk.onDelete("cascade"),
            ),
        ).execute();
      },

      async down(db: Kysely<unknown>) {
        await db.schema.dropTable(name("passkey_details")).ifExists().execute();
      },
    },
    "0006_organizations": {
      // Tables of their own, as for two-factor: Auth.js's tables stay as they were.
      async up(db: Kysely<unknown>) {
        await withTableOptions(
          db.schema
            .createTable(name("organizations"))
            .addColumn("id", types.key, (col) => col.primaryKey())
            .addColumn("name", types.text, (col) => col.notNull())
            .addColumn("slug", types.key, (col) => col.notNull())
            .addColumn("createdAt", types.date, (col) => col.notNull())
            .addUniqueConstraint(`${prefix}organizations_slug_key`, ["slug"]),
        ).execute();
        /** The constraint name of `column` in `table`, and the table it references. */
        const reference = (table: string, column: "organizationId" | "userId" | "teamId") => {
          const target =
            column === "userId"
              ? "users"
              : column === "teamId"
                ? "organization_teams"
                : "organizations";
          return { key: `${prefix}${table}_${column}_fkey`, target: name(target) };
        };
        const members = (column: "organizationId" | "userId") =>
          reference("organization_members", column);
        await withTableOptions(
          db.schema
            .createTable(name("organization_members"))
            .addColumn("organizationId", types.key, (col) => col.notNull())
            .addColumn("userId", types.key, (col) => col.notNull())
            .addColumn("role", types.key, (col) => col.notNull())
            .addColumn("createdAt", types.date, (col) => col.notNull())
            .addPrimaryKeyConstraint(`${prefix}organization_members_pkey`, [
              "organizationId",
              "userId",
            ])
            .addForeignKeyConstraint(
              members("organizationId").key,
              ["organizationId"],
              members("organizationId").target,
              ["id"],
              (fk) => fk.onDelete("cascade"),
            )
            .addForeignKeyConstraint(
              members("userId").key,
              ["userId"],
              members("userId").target,
              ["id"],
              (fk) => fk.onDelete("cascade"),
            ),
        ).execute();
        await db.schema
          .createIndex(`${prefix}organization_members_userId_idx`)
          .on(name("organization_members"))
          .column("userId")
          .execute();
        const invitations = reference("organization_invitations", "organizationId");
        await withTableOptions(
          db.schema
            .createTable(name("organization_invitations"))
            .addColumn("id", types.key, (col) => col.primaryKey())
            .addColumn("organizationId", types.key, (col) => col.notNull())
            .addColumn("email", types.key, (col) => col.notNull())
            .addColumn("role", types.key, (col) => col.notNull())
            .addColumn("inviterId", types.key, (col) => col.notNull())
            .addColumn("status", types.key, (col) => col.notNull())
            .addColumn("expires", types.date, (col) => col.notNull())
            .addColumn("createdAt", types.date, (col) => col.notNull())
            .addForeignKeyConstraint(
              invitations.key,
              ["organizationId"],
              invitations.target,
              ["id"],
              (fk) => fk.onDelete("cascade"),
            ),
        ).execute();
        const teams = reference("organization_teams", "organizationId");
        await withTableOptions(
          db.schema
            .createTable(name("organization_teams"))
            .addColumn("id", types.key, (col) => col.primaryKey())
            .addColumn("organizationId", types.key, (col) => col.notNull())
            .addColumn("name", types.text, (col) => col.notNull())
            .addColumn("createdAt", types.date, (col) => col.notNull())
            .addForeignKeyConstraint(teams.key, ["organizationId"], teams.target, ["id"], (fk) =>
              fk.onDelete("cascade"),
            ),
        ).execute();
        const teamMembers = (column: "teamId" | "userId") =>
          reference("organization_team_members", column);
        await withTableOptions(
          db.schema
            .createTable(name("organization_team_members"))
            .addColumn("teamId", types.key, (col) => col.notNull())
            .addColumn("organizationId", types.key, (col) => col.notNull())
            .addColumn("userId", types.key, (col) => col.notNull())
            .addColumn("role", types.key, (col) => col.notNull())
            .addPrimaryKeyConstraint(`${prefix}organization_team_members_pkey`, [
              "teamId",
              "userId",
            ])
            .addForeignKeyConstraint(
              teamMembers("teamId").key,
              ["teamId"],
              teamMembers("teamId").target,
              ["id"],
              (fk) => fk.onDelete("cascade"),
            )
            .addForeignKeyConstraint(
              teamMembers("userId").key,
              ["userId"],
              teamMembers("userId").target,
              ["id"],
              (fk) => fk.onDelete("cascade"),
            ),
        ).execute();
        // Index names stay short: MySQL and MariaDB refuse identifiers over 64 characters, and
        // the table prefix counts (`organization_team_members_organizationId_userId_idx` with a
        // 16-character prefix was 67).
        for (const [table, columns, index] of [
          ["organization_invitations", ["organizationId"], "organization_invitations_org_idx"],
          ["organization_teams", ["organizationId"], "organization_teams_org_idx"],
          [
            "organization_team_members",
            ["organizationId", "userId"],
            "organization_team_members_org_user_idx",
          ],
        ] as const) {
          await db.schema
            .createIndex(`${prefix}${index}`)
            .on(name(table))
            .columns([...columns])
            .execute();
        }
      },

      async down(db: Kysely<unknown>) {
        for (const table of [
          "organization_team_members",
          "organization_teams",
          "organization_invitations",
          "organization_members",
          "organizations",
        ] as const)
          await db.schema.dropTable(name(table)).ifExists().execute();
      },
    },
    "0007_passwords": {
      // A table of its own: Auth.js's tables are not altered, so an app can move back.
      async up(db: Kysely<unknown>) {
        await createUserOwnedTable(
          db,
          "passwords",
          (table) =>
            table
              .addColumn("userId", types.key, (col) => col.primaryKey())
              .addColumn("hash", types.text, (col) => col.notNull()),
          false,
        );
      },

      async down(db: Kysely<unknown>) {
        await db.schema.dropTable(name("passwords")).ifExists().execute();
      },
    },
    "0008_admin_user_roles_and_bans": {
      // Tables of their own, as for passwords: Auth.js's users table is not altered. A row
      // exists while the user has a role or is banned; deleting the user deletes both.
      async up(db: Kysely<unknown>) {
        await createUserOwnedTable(
          db,
          "user_roles",
          (table) =>
            table
              .addColumn("userId", types.key, (col) => col.primaryKey())
              .addColumn("role", types.key, (col) => col.notNull()),
          false,
        );
        await createUserOwnedTable(
          db,
          "user_bans",
          (table) =>
            table
              .addColumn("userId", types.key, (col) => col.primaryKey())
              .addColumn("reason", types.text)
              .addColumn("expires", types.date),
          false,
        );
      },

      async down(db: Kysely<unknown>) {
        await db.schema.dropTable(name("user_bans")).ifExists().execute();
        await db.schema.dropTable(name("user_roles")).ifExists().execute();
      },
    },
    "0009_organization_roles": {
      // Roles an organisation defines for itself, beside those in code; gone with the organisation.
      async up(db: Kysely<unknown>) {
        await withTableOptions(
          db.schema
            .createTable(name("organization_roles"))
            .addColumn("organizationId", types.key, (col) => col.notNull())
            .addColumn("name", types.key, (col) => col.notNull())
            .addColumn("permissions", types.text, (col) => col.notNull())
            .addColumn("createdAt", types.date, (col) => col.notNull())
            .addPrimaryKeyConstraint(`${prefix}organization_roles_pkey`, ["organizationId", "name"])
            .addForeignKeyConstraint(
              `${prefix}organization_roles_organizationId_fkey`,
              ["organizationId"],
              name("organizations"),
              ["id"],
              (fk) => fk.onDelete("cascade"),
            ),
        ).execute();
      },

      async down(db: Kysely<unknown>) {
        await db.schema.dropTable(name("organization_roles")).ifExists().execute();
      },
    },
  };
  return migrations;
}

/**
 * The tables `migration.up` creates, found by running it against a database that executes
 * nothing and only notes each `create table`.
 */
async function tablesCreatedBy(migration: Migration): Promise<string[]> {
  const created: string[] = [];
  const recorder = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    plugins: [
      {
        transformQuery: ({ node }) => {
          if (CreateTableNode.is(node)) created.push(node.table.table.identifier.name);
          return node;
        },
        transformResult: async ({ result }) => result,
      },
    ],
  });
  await migration.up(recorder);
  return created;
}

/**
 * The statements `migration.up` runs on SQLite, in order, found by running it against a database
 * that executes nothing and keeps each compiled query. Tessera's migrations read nothing, so
 * the statements do not depend on answers the recorder cannot give.
 */
async function sqliteStatementsOf(migration: Migration): Promise<CompiledQuery[]> {
  const statements: CompiledQuery[] = [];
  const connection = {
    async executeQuery<Row>(query: CompiledQuery) {
      statements.push(query);
      return { rows: [] as Row[] };
    },
    async *streamQuery() {},
  };
  const recorder = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => ({
        init: async () => {},
        acquireConnection: async () => connection,
        beginTransaction: async () => {},
        commitTransaction: async () => {},
        rollbackTransaction: async () => {},
        releaseConnection: async () => {},
        destroy: async () => {},
      }),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  await migration.up(recorder);
  return statements;
}

/**
 * {@link migrate} on a database without transactions (Cloudflare D1): every pending migration,
 * the bookkeeping tables and the rows that record the migrations go in one batch, which the
 * database applies whole or not at all. Two processes that migrate at once both send a batch;
 * the second fails as a whole (its first `create table` finds the table), and finding every
 * migration applied after that failure means another process did the work.
 */
async function migrateInOneBatch(
  db: Kysely<unknown>,
  options: MigrationOptions,
  batch: AtomicBatch,
): Promise<string[]> {
  const prefix = validTablePrefix(options.tablePrefix);
  const migrationTable = `${prefix}tessera_migration`;
  const pendingNames = async () =>
    (await migratorFor(db, options).getMigrations())
      .filter((migration) => migration.executedAt === undefined)
      .map((migration) => migration.name);

  await refuseClashesOnFirstRun(db, options);
  const pending = await pendingNames();
  if (pending.length === 0) return [];
  const migrations = plainMigrations(options);
  const planned = await Promise.all(
    pending.map((name) => tablesCreatedBy(migrations[name] as Migration)),
  );
  refuseClashes(planned.flat(), await existingTables(db, "sqlite"));

  // The bookkeeping tables as Kysely's Migrator creates them, so that it reads them as its own.
  const statements: CompiledQuery[] = [
    db.schema
      .createTable(migrationTable)
      .ifNotExists()
      .addColumn("name", "varchar(255)", (col) => col.notNull().primaryKey())
      .addColumn("timestamp", "varchar(255)", (col) => col.notNull())
      .compile(),
    db.schema
      .createTable(`${prefix}tessera_migration_lock`)
      .ifNotExists()
      .addColumn("id", "varchar(255)", (col) => col.notNull().primaryKey())
      .addColumn("is_locked", "integer", (col) => col.notNull().defaultTo(0))
      .compile(),
  ];
  const untyped = db as Kysely<Record<string, { name: string; timestamp: string }>>;
  for (const name of pending) {
    statements.push(...(await sqliteStatementsOf(migrations[name] as Migration)));
    statements.push(
      untyped
        .insertInto(migrationTable)
        .values({ name, timestamp: new Date().toISOString() })
        .compile(),
    );
  }
  try {
    await batch(statements);
  } catch (error) {
    if ((await pendingNames()).length === 0) return [];
    throw new Error(`Tessera migration failed: ${describe(error)}`, { cause: error });
  }
  return pending;
}

/** The names of the tables in the database (SQLite), schema (PostgreSQL) or database (MySQL). */
async function existingTables(db: Kysely<unknown>, dialect: SqlDialect): Promise<string[]> {
  const query =
    dialect === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table'`
      : dialect === "postgres"
        ? sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema()`
        : sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = database()`;
  return (await query.execute(db)).rows.map((row) => row.name);
}

/**
 * Makes the first pending migration check, before it creates anything, that no table it or a
 * later migration creates exists already: a table of the same name belongs to another schema
 * (the application's own `users`, say), and creating Tessera's around it would leave a half-made
 * schema behind on MySQL and MariaDB, whose DDL commits at once. The check runs inside the
 * migration, so under the migrator's lock and, on PostgreSQL and SQLite, in its transaction.
 */
function refusingTableClashes(
  migrations: Record<string, Migration>,
  dialect: SqlDialect,
): Record<string, Migration> {
  const names = Object.keys(migrations);
  const created = new Map<string, Promise<string[]>>();
  const tablesOf = (name: string) => {
    let tables = created.get(name);
    if (!tables) {
      tables = tablesCreatedBy(migrations[name] as Migration);
      created.set(name, tables);
    }
    return tables;
  };
  return Object.fromEntries(
    names.map((name, index) => {
      const migration = migrations[name] as Migration;
      const guarded: Migration = {
        ...migration,
        async up(db) {
          const planned = (await Promise.all(names.slice(index).map(tablesOf))).flat();
          refuseClashes(planned, await existingTables(db, dialect));
          await migration.up(db);
        },
      };
      return [name, guarded];
    }),
  );
}

/**
 * On a database Tessera never migrated, checks for clashing tables before the migrator creates
 * even its bookkeeping tables, so that a refused first run leaves the database as it was. Once
 * the bookkeeping table exists, the check inside the first pending migration (under the
 * migrator's lock) does the job.
 */
async function refuseClashesOnFirstRun(
  db: Kysely<unknown>,
  options: MigrationOptions,
): Promise<void> {
  const bookkeeping = `${validTablePrefix(options.tablePrefix)}tessera_migration`.toLowerCase();
  const existing = await existingTables(db, options.dialect);
  // Read after the table list: had another process's migration started before that list was
  // read, its bookkeeping table (created first) would be found here, and its tables are no clash.
  const started = (await existingTables(db, options.dialect)).some(
    (table) => table.toLowerCase() === bookkeeping,
  );
  if (started) return;
  const migrations = Object.values(tesseraMigrations(options));
  refuseClashes((await Promise.all(migrations.map(tablesCreatedBy))).flat(), existing);
}

/** Throws a {@link TableClashError} naming the `planned` tables that are among `existing`. */
function refuseClashes(planned: string[], existing: string[]): void {
  // SQLite, and MySQL on macOS and Windows, compare table names without regard to case.
  const taken = new Set(existing.map((table) => table.toLowerCase()));
  const clashes = planned.filter((table) => taken.has(table.toLowerCase()));
  if (clashes.length > 0) throw new TableClashError(clashes);
}

/**
 * Thrown by {@link migrate} when a table Tessera would create already exists and Tessera's
 * migrations did not create it. Nothing was created; give Tessera's tables a prefix.
 */
export class TableClashError extends Error {
  constructor(readonly tables: string[]) {
    super(
      `${tables.map((table) => `"${table}"`).join(", ")} already exist${tables.length === 1 ? "s" : ""} in this database and Tessera's migrations did not create ${tables.length === 1 ? "it" : "them"}, so nothing was created. Keep Tessera's tables apart with a prefix: \`tessera migrate --table-prefix auth_\`, or { tablePrefix: "auth_" } for migrate() and SqlAdapter().`,
    );
    this.name = "TableClashError";
  }
}

function migratorFor(db: Kysely<unknown>, options: MigrationOptions): Migrator {
  const prefix = validTablePrefix(options.tablePrefix);
  const migrations = tesseraMigrations(options);
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: `${prefix}tessera_migration`,
    migrationLockTableName: `${prefix}tessera_migration_lock`,
  });
}

function appliedNames(results: MigrationResult[] | undefined): string[] {
  return (results ?? [])
    .filter((result) => result.status === "Success")
    .map((result) => result.migrationName);
}

/**
 * Creates or upgrades Tessera's tables: users, accounts, sessions, verification_tokens,
 * authenticators and the shared store's store_values and store_limits, with cascading foreign keys to users and the lookup indexes the adapter needs.
 * Applied migrations are recorded in `<prefix>tessera_migration`, so running it again (or from
 * several processes at once: Kysely takes a lock) is safe and does nothing.
 *
 * A table Tessera would create that exists already (another schema's `users`, say) stops it
 * before anything is created, with a {@link TableClashError} that suggests a `tablePrefix`. On
 * PostgreSQL and SQLite the migrations run in a transaction (on Cloudflare D1, one batch), so any
 * other failure leaves nothing half-made either; MySQL and MariaDB commit each DDL statement at once, so there a failure in
 * the middle (a lost connection, missing privileges) can leave part of a migration applied.
 *
 * @returns the names of the migrations applied by this call (empty when up to date).
 *
 * @example
 * ```ts
 * import { createPostgresDb, migrate } from "@tessera/sql"
 * const db = createPostgresDb(process.env.DATABASE_URL!)
 * await migrate(db, { dialect: "postgres" })
 * ```
 */
export async function migrate<DB>(db: Kysely<DB>, options: MigrationOptions): Promise<string[]> {
  const untyped = db as Kysely<unknown>;
  const run = async (connection: Kysely<unknown>) => {
    await refuseClashesOnFirstRun(connection, options);
    let { error, results } = await migratorFor(connection, options).migrateToLatest();
    // Kysely's PostgreSQL introspection lists the tables of every schema; a schema that another
    // client drops meanwhile fails it with invalid_schema_name (3F000) although nothing of ours
    // is wrong, so that one error is retried a few times before it counts.
    for (let retry = 0; retry < 3 && isDroppedSchemaRace(error); retry++)
      ({ error, results } = await migratorFor(connection, options).migrateToLatest());
    if (error instanceof TableClashError) throw error;
    if (error) throw new Error(`Tessera migration failed: ${describe(error)}`, { cause: error });
    return appliedNames(results);
  };
  // Kysely's Migrator opens a transaction on PostgreSQL only; SQLite rolls DDL back too, so a
  // failed migration leaves nothing behind there either. (MySQL and MariaDB commit each DDL
  // statement at once: there, only the clash check before the first table protects the schema.)
  if (options.dialect !== "sqlite") return run(untyped);
  // D1 refuses BEGIN; its batch is the transaction.
  const batch = atomicBatch(db);
  if (batch) return migrateInOneBatch(untyped, options, batch);
  return untyped.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const applied = await run(connection);
      await sql`commit`.execute(connection);
      return applied;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

/**
 * Reverts every Tessera migration and drops the migration bookkeeping tables: all Tessera tables
 * and their data are gone afterwards. Meant for tests and uninstalling.
 *
 * @example
 * ```ts
 * afterAll(() => dropSchema(db, { dialect: "sqlite", tablePrefix: "t_1234_" }))
 * ```
 */
export async function dropSchema<DB>(db: Kysely<DB>, options: MigrationOptions): Promise<void> {
  const prefix = validTablePrefix(options.tablePrefix);
  const untyped = db as Kysely<unknown>;
  const { error } = await migratorFor(untyped, options).migrateTo(NO_MIGRATIONS);
  if (error) {
    throw new Error(`Reverting Tessera's migrations failed: ${describe(error)}`, { cause: error });
  }
  await untyped.schema.dropTable(`${prefix}tessera_migration`).ifExists().execute();
  await untyped.schema.dropTable(`${prefix}tessera_migration_lock`).ifExists().execute();
}

/** PostgreSQL's invalid_schema_name, raised when a schema vanishes during introspection. */
function isDroppedSchemaRace(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    (error as { code?: unknown }).code === "3F000"
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
