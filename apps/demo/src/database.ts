/**
 * The demo's SQLite database: Tessera's tables (created by `@tessera/sql`'s migrations; password
 * hashes live in its `passwords` table, for `@tessera/core/password`), a log of sign-ins for the
 * home page, and the demo user, created on first start. `demo_passwords` held the hashes before
 * the password extension; a database from then has its hashes copied over once.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { hashPassword } from "@tessera/core/password";
import { createSqliteDb, migrate, readDate, type TesseraDatabase } from "@tessera/sql";
import type { Kysely } from "kysely";

/** The account every fresh demo database has. */
export const DEMO_USER = {
  email: "demo@example.com",
  password: "tessera-demo",
  name: "Demo User",
} as const;

interface PasswordRow {
  userId: string;
  hash: string;
}

interface SignInRow {
  id: number | null;
  userId: string;
  provider: string;
  at: number;
}

/** Tessera's tables and the demo's. */
export interface DemoTables extends TesseraDatabase {
  demo_passwords: PasswordRow;
  demo_sign_ins: SignInRow;
}

/** A user as the home page shows them. */
export interface UserOverview {
  id: string;
  name: string | null;
  email: string | null;
  emailVerified: Date | null;
  hasPassword: boolean;
  /** Linked OAuth/OIDC and WebAuthn accounts. */
  accounts: { provider: string; type: string; providerAccountId: string }[];
  passkeys: number;
  recentSignIns: { provider: string; at: Date }[];
}

/** The opened database and the demo's queries on it. */
export interface DemoDatabase {
  db: Kysely<DemoTables>;
  /** The file, or `:memory:`. */
  filename: string;
  /** Migrations applied at this start (empty when the schema was current). */
  applied: string[];
  /** The demo user's id. */
  demoUserId: string;
  recordSignIn(userId: string, provider: string): Promise<void>;
  /**
   * Whether an e-mail sign-in link is still waiting to be used: a verification token of
   * `identifier` stored as one of `tokenHashes` (the link's token hashed with each secret) that
   * has not expired. Tessera deletes the token when the link is used.
   */
  signInLinkPending(identifier: string, tokenHashes: readonly string[]): Promise<boolean>;
  overview(userId: string): Promise<UserOverview | null>;
  close(): Promise<void>;
}

async function createDemoTables(db: Kysely<DemoTables>): Promise<void> {
  await db.schema
    .createTable("demo_passwords")
    .ifNotExists()
    .addColumn("userId", "text", (column) =>
      column.primaryKey().references("users.id").onDelete("cascade"),
    )
    .addColumn("hash", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createTable("demo_sign_ins")
    .ifNotExists()
    .addColumn("id", "integer", (column) => column.primaryKey().autoIncrement())
    .addColumn("userId", "text", (column) =>
      column.notNull().references("users.id").onDelete("cascade"),
    )
    .addColumn("provider", "text", (column) => column.notNull())
    .addColumn("at", "integer", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("demo_sign_ins_user")
    .ifNotExists()
    .on("demo_sign_ins")
    .columns(["userId", "at"])
    .execute();
}

/**
 * Creates the demo user with its password (verified: the demo owns the address) unless a user
 * with that address exists, and copies hashes of the demo's former `demo_passwords` table into
 * Tessera's `passwords` table, where the `Password` provider's `verifyPassword` hook checks them
 * and the next sign-in re-hashes them.
 */
async function seedDemoUser(db: Kysely<DemoTables>): Promise<string> {
  const legacy = await db
    .selectFrom("demo_passwords")
    .select(["userId", "hash"])
    .where("userId", "not in", db.selectFrom("passwords").select("userId"))
    .execute();
  if (legacy.length > 0) await db.insertInto("passwords").values(legacy).execute();
  const existing = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", DEMO_USER.email)
    .executeTakeFirst();
  if (existing) return existing.id;
  const id = crypto.randomUUID();
  const hash = await hashPassword(DEMO_USER.password);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("users")
      .values({
        id,
        name: DEMO_USER.name,
        email: DEMO_USER.email,
        emailVerified: Date.now(),
        image: null,
      })
      .execute();
    await trx.insertInto("passwords").values({ userId: id, hash }).execute();
  });
  return id;
}

/**
 * Opens (creating it if needed) `<dataDir>/demo.sqlite`, or an in-memory database when `dataDir`
 * is `null`, applies Tessera's migrations and the demo's tables, and creates the demo user.
 *
 * @example
 * ```ts
 * const database = await openDemoDatabase(".data")
 * const adapter = SqlAdapter(database.db, { dialect: "sqlite" })
 * ```
 */
export async function openDemoDatabase(dataDir: string | null): Promise<DemoDatabase> {
  let filename = ":memory:";
  if (dataDir !== null) {
    mkdirSync(dataDir, { recursive: true });
    filename = join(dataDir, "demo.sqlite");
  }
  const db = createSqliteDb<DemoTables>(filename);
  try {
    const applied = await migrate(db, { dialect: "sqlite" });
    await createDemoTables(db);
    const demoUserId = await seedDemoUser(db);
    return {
      db,
      filename,
      applied,
      demoUserId,
      async recordSignIn(userId, provider) {
        await db
          .insertInto("demo_sign_ins")
          .values({ id: null, userId, provider, at: Date.now() })
          .execute();
      },
      async signInLinkPending(identifier, tokenHashes) {
        if (tokenHashes.length === 0) return false;
        const rows = await db
          .selectFrom("verification_tokens")
          .select("expires")
          .where("identifier", "=", identifier)
          .where("token", "in", [...tokenHashes])
          .execute();
        return rows.some((row) => readDate(row.expires).valueOf() > Date.now());
      },
      async overview(userId) {
        const user = await db
          .selectFrom("users")
          .selectAll()
          .where("id", "=", userId)
          .executeTakeFirst();
        if (!user) return null;
        const [password, accounts, passkeys, signIns] = await Promise.all([
          db
            .selectFrom("passwords")
            .select("userId")
            .where("userId", "=", userId)
            .executeTakeFirst(),
          db
            .selectFrom("accounts")
            .select(["provider", "type", "providerAccountId"])
            .where("userId", "=", userId)
            .orderBy("provider")
            .execute(),
          db
            .selectFrom("authenticators")
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .where("userId", "=", userId)
            .executeTakeFirstOrThrow(),
          db
            .selectFrom("demo_sign_ins")
            .select(["provider", "at"])
            .where("userId", "=", userId)
            .orderBy("at", "desc")
            .orderBy("id", "desc")
            .limit(5)
            .execute(),
        ]);
        return {
          id: user.id,
          name: user.name,
          email: user.email,
          emailVerified: user.emailVerified === null ? null : readDate(user.emailVerified),
          hasPassword: password !== undefined,
          accounts,
          passkeys: Number(passkeys.count),
          recentSignIns: signIns.map((row) => ({ provider: row.provider, at: new Date(row.at) })),
        };
      },
      close: () => db.destroy(),
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
