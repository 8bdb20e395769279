import type {
  Adapter,
  AdapterAccount,
  AdapterAccountType,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "@tessera/core/adapters";
import type { AdminAdapter, AdminUserRecord, UserListQuery } from "@tessera/core/admin";
import type {
  InvitationRecord,
  MemberRecord,
  MembershipChange,
  OrganizationAdapter,
  OrganizationRecord,
  OrganizationRoleAdapter,
  OrganizationRoleRecord,
  Permissions,
  TeamMemberRecord,
  TeamRecord,
} from "@tessera/core/organizations";
import type { PasswordAdapter } from "@tessera/core/password";
import type { TwoFactorAdapter } from "@tessera/core/two-factor";
import {
  type Compilable,
  CompiledQuery,
  type ExpressionBuilder,
  type InferResult,
  type Kysely,
  type RawBuilder,
  sql,
  type Updateable,
} from "kysely";
import { atomicBatch } from "./batch.js";
import { dialectTraits, readBoolean, readDate, readInteger } from "./dialect.js";
import { type DirectReader, directReader } from "./native.js";
import { batchedOrganizationWrites } from "./organizations-batch.js";
import { sqlPasskeyMethods } from "./passkeys.js";
import {
  type AccountRow,
  type AuthenticatorRow,
  type OrganizationInvitationRow,
  type OrganizationMemberRow,
  type OrganizationRoleRow,
  type OrganizationRow,
  type OrganizationTeamRow,
  type SessionRow,
  type SqlDialect,
  type StoredBigInt,
  type StoredDate,
  type TesseraTableName,
  type TesseraTables,
  type TwoFactorRow,
  tableNames,
  type UserRow,
  type VerificationTokenRow,
  validTablePrefix,
} from "./schema.js";

/** Options of {@link SqlAdapter}. */
export interface SqlAdapterOptions {
  /**
   * The database behind the Kysely instance. `mysql` works with MySQL and MariaDB; `mariadb`
   * (10.5+) additionally uses `DELETE … RETURNING`, saving a round trip on single-use tokens.
   */
  dialect: SqlDialect;
  /** Prefix of Tessera's table names, as given to {@link migrate} (default: none). */
  tablePrefix?: string;
  /**
   * PostgreSQL through {@link createPostgresDb}: the session read uses a named prepared
   * statement, which the server parses and plans once per connection instead of on every read
   * (default: `true`). Behind a pooler that cannot keep prepared statements (PgBouncer before
   * 1.21 in transaction mode) the adapter notices the error it gives and goes on unnamed; set
   * `false` to never try.
   */
  preparedStatements?: boolean;
}

/**
 * Any table, any columns. Kysely cannot type a statement whose table is a type parameter, so the
 * two storage helpers below build theirs on this view and type their result from the table name.
 */
type UntypedTables = Record<string, Record<string, unknown>>;

/**
 * A `where` that matches the columns of `key` exactly. Refuses an empty key or an undefined value,
 * which would otherwise select every row (or none) of the table.
 */
function matching(key: Record<string, unknown>) {
  const columns = Object.entries(key);
  if (columns.length === 0 || columns.some(([, value]) => value === undefined)) {
    throw new TypeError(`SqlAdapter: incomplete row key ${JSON.stringify(key)}`);
  }
  return (eb: ExpressionBuilder<UntypedTables, string>) => eb.and(key);
}

/** OAuth token values an account row stores (snake_case, as providers send them). */
const TOKEN_TEXT_FIELDS = [
  "refresh_token",
  "access_token",
  "token_type",
  "scope",
  "id_token",
  "session_state",
] as const;

/** MySQL error 1213: InnoDB chose this transaction as a deadlock victim; retrying is safe. */
const MYSQL_DEADLOCK_ERRNO = 1213;

function isDeadlock(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "errno" in error &&
    error.errno === MYSQL_DEADLOCK_ERRNO
  );
}

async function retryingDeadlocks<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
    }
  }
}

function userFromRow(row: UserRow): AdapterUser {
  return {
    id: row.id,
    name: row.name,
    // A user without an e-mail (some OAuth providers) is stored with NULL; it is returned as it
    // came in even though the contract types the field as a string.
    email: row.email as string,
    emailVerified: row.emailVerified === null ? null : readDate(row.emailVerified),
    image: row.image,
  };
}

/** A user row joined with its role and ban rows (absent: NULL). */
interface AdminUserJoinedRow extends UserRow {
  role: string | null;
  bannedId: string | null;
  banReason: string | null;
  banExpires: StoredDate | null;
}

function adminUserFromRow(row: AdminUserJoinedRow): AdminUserRecord {
  return {
    ...userFromRow(row),
    role: row.role,
    ban:
      row.bannedId === null
        ? null
        : {
            reason: row.banReason,
            expires: row.banExpires === null ? null : readDate(row.banExpires),
          },
  };
}

function accountFromRow(row: AccountRow): AdapterAccount {
  const account: AdapterAccount = {
    userId: row.userId,
    type: row.type as AdapterAccountType,
    provider: row.provider,
    providerAccountId: row.providerAccountId,
  };
  // Absent tokens are left out rather than returned as null: the Account type has them optional.
  for (const field of TOKEN_TEXT_FIELDS) {
    const value = row[field];
    if (value !== null) account[field] = value;
  }
  if (row.expires_at !== null) account.expires_at = readInteger(row.expires_at);
  return account;
}

function sessionFromRow(row: SessionRow): AdapterSession {
  const session: AdapterSession = {
    sessionToken: row.sessionToken,
    userId: row.userId,
    expires: readDate(row.expires),
  };
  // Metadata columns (migration 0002) are left out when unset, as sessions created before it.
  if (row.createdAt != null) session.createdAt = readDate(row.createdAt);
  if (row.lastSeenAt != null) session.lastSeenAt = readDate(row.lastSeenAt);
  if (row.ip != null) session.ip = row.ip;
  if (row.userAgent != null) session.userAgent = row.userAgent;
  return session;
}

function verificationTokenFromRow(row: VerificationTokenRow): VerificationToken {
  return { identifier: row.identifier, token: row.token, expires: readDate(row.expires) };
}

function authenticatorFromRow(row: AuthenticatorRow): AdapterAuthenticator {
  return {
    credentialID: row.credentialID,
    userId: row.userId,
    providerAccountId: row.providerAccountId,
    credentialPublicKey: row.credentialPublicKey,
    counter: readInteger(row.counter),
    credentialDeviceType: row.credentialDeviceType,
    credentialBackedUp: readBoolean(row.credentialBackedUp),
    transports: row.transports,
  };
}

/**
 * A Tessera/Auth.js adapter over a Kysely instance, for SQLite, PostgreSQL and MySQL/MariaDB.
 * Create the tables first with {@link migrate} (same `dialect` and `tablePrefix`).
 *
 * - `getSessionAndUser` is one query (a join).
 * - `useVerificationToken` is atomic: `DELETE … RETURNING` where the database has it, otherwise
 *   (MySQL) a transaction that locks the row with `SELECT … FOR UPDATE` before deleting it, so
 *   of any number of concurrent callers exactly one receives the token.
 * - `deleteUser` removes the user's sessions, accounts and authenticators in one transaction
 *   (besides the cascading foreign keys, which SQLite enforces only when the connection enabled
 *   them); on D1, which has no transactions, in one batch.
 * - Dates round-trip to the millisecond on every dialect.
 *
 * @example
 * ```ts
 * import { createPostgresDb, migrate, SqlAdapter } from "@tessera/sql"
 *
 * const db = createPostgresDb(process.env.DATABASE_URL!)
 * await migrate(db, { dialect: "postgres" })
 * export const config = { adapter: SqlAdapter(db, { dialect: "postgres" }), providers: [...] }
 * ```
 */
export function SqlAdapter<DB>(
  database: Kysely<DB>,
  options: SqlAdapterOptions,
): Required<Adapter> &
  TwoFactorAdapter &
  OrganizationAdapter &
  OrganizationRoleAdapter &
  PasswordAdapter &
  AdminAdapter {
  // The application's own Kysely type does not know Tessera's tables; see `tableNames`.
  const db = database as unknown as Kysely<TesseraTables>;
  const untyped = database as unknown as Kysely<UntypedTables>;
  const traits = dialectTraits(options.dialect);
  const { table, alias, real } = tableNames(validTablePrefix(options.tablePrefix));
  const { methods: passkeyMethods, deleteDetailsOf: deletePasskeyDetailsOf } = sqlPasskeyMethods({
    db,
    table,
    traits,
    authenticatorFromRow,
  });

  /** The join `getSessionAndUser` runs: one query for the session and its user. */
  function sessionAndUserQuery(sessionToken: string) {
    return db
      .selectFrom(alias("sessions", "s"))
      .innerJoin(alias("users", "u"), "u.id", "s.userId")
      .select([
        "s.sessionToken",
        "s.userId",
        "s.expires",
        "s.createdAt",
        "s.lastSeenAt",
        "s.ip",
        "s.userAgent",
        "u.id",
        "u.name",
        "u.email",
        "u.emailVerified",
        "u.image",
      ])
      .where("s.sessionToken", "=", sessionToken);
  }
  /** A row of the join, as Kysely returns it. */
  type JoinedRow = InferResult<ReturnType<typeof sessionAndUserQuery>>[number];
  /**
   * A direct read's values as the row Kysely returns: the keys in the order of the `select`
   * above, which the direct read's values follow.
   */
  function joinedRowFromValues(v: readonly unknown[]): JoinedRow {
    return {
      sessionToken: v[0],
      userId: v[1],
      expires: v[2],
      createdAt: v[3],
      lastSeenAt: v[4],
      ip: v[5],
      userAgent: v[6],
      id: v[7],
      name: v[8],
      email: v[9],
      emailVerified: v[10],
      image: v[11],
    } as JoinedRow;
  }
  let sessionAndUserSql: string | undefined;
  /** The join run on the driver itself, where `database` came from one of the factories. */
  let readSessionAndUser: DirectReader | undefined | null;

  /** Runs `queries` as one unit: in a transaction, or on D1 (no transactions) as one batch. */
  async function allOrNothing(queries: readonly CompiledQuery[]): Promise<void> {
    const batch = atomicBatch(database);
    if (batch) {
      await batch(queries);
      return;
    }
    await db.transaction().execute(async (trx) => {
      for (const query of queries) await trx.executeQuery(query);
    });
  }

  function userToRow(user: AdapterUser & { id: string }): UserRow {
    return {
      id: user.id,
      name: user.name ?? null,
      email: user.email ?? null,
      emailVerified: user.emailVerified ? traits.date(user.emailVerified) : null,
      image: user.image ?? null,
    };
  }

  function accountToRow(account: AdapterAccount): AccountRow {
    return {
      userId: account.userId,
      type: account.type,
      provider: account.provider,
      providerAccountId: account.providerAccountId,
      refresh_token: account.refresh_token ?? null,
      access_token: account.access_token ?? null,
      expires_at: account.expires_at ?? null,
      token_type: account.token_type ?? null,
      scope: account.scope ?? null,
      id_token: account.id_token ?? null,
      session_state: account.session_state ?? null,
    };
  }

  function authenticatorToRow(authenticator: AdapterAuthenticator): AuthenticatorRow {
    return {
      credentialID: authenticator.credentialID,
      userId: authenticator.userId,
      providerAccountId: authenticator.providerAccountId,
      credentialPublicKey: authenticator.credentialPublicKey,
      counter: authenticator.counter,
      credentialDeviceType: authenticator.credentialDeviceType,
      credentialBackedUp: traits.boolean(authenticator.credentialBackedUp),
      transports: authenticator.transports ?? null,
    };
  }

  /** Users with their role and ban (`@tessera/core/admin`). */
  function adminUsers() {
    return db
      .selectFrom(alias("users", "u"))
      .leftJoin(alias("user_roles", "r"), "r.userId", "u.id")
      .leftJoin(alias("user_bans", "b"), "b.userId", "u.id")
      .select([
        "u.id",
        "u.name",
        "u.email",
        "u.emailVerified",
        "u.image",
        "r.role",
        "b.userId as bannedId",
        "b.reason as banReason",
        "b.expires as banExpires",
      ]);
  }

  /**
   * Users whose e-mail or name contains the search, any case (all users without one). The search is
   * matched literally: `%` and `_` in it are escaped (with `!`, which needs no escaping in any
   * dialect's string literals), so a search cannot become a pattern.
   */
  function userSearch({ search }: UserListQuery): RawBuilder<boolean> {
    if (search === undefined) return sql<boolean>`1 = 1`;
    const pattern = `%${search.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
    return sql<boolean>`(lower(${sql.ref("u.email")}) like ${pattern} escape '!' or lower(${sql.ref("u.name")}) like ${pattern} escape '!')`;
  }

  function userRow(id: string): Promise<UserRow | undefined> {
    return db.selectFrom(table("users")).selectAll().where("id", "=", id).executeTakeFirst();
  }

  async function getUser(id: string): Promise<AdapterUser | null> {
    const row = await userRow(id);
    return row ? userFromRow(row) : null;
  }

  async function getSession(sessionToken: string): Promise<AdapterSession | null> {
    const row = await db
      .selectFrom(table("sessions"))
      .selectAll()
      .where("sessionToken", "=", sessionToken)
      .executeTakeFirst();
    return row ? sessionFromRow(row) : null;
  }

  /**
   * The first row a `… RETURNING` statement produced. Runs the compiled query directly because
   * Kysely's MySQL adapter discards returned rows (it assumes MySQL, which has no RETURNING),
   * while MariaDB does return them for DELETE.
   */
  async function firstReturned<Row>(query: Compilable<Row>): Promise<Row | undefined> {
    const { rows } = await db.executeQuery(query);
    return rows[0];
  }

  /**
   * Updates the row that `key` selects and returns it as stored afterwards (`undefined` when
   * there is none): one `UPDATE … RETURNING` where the dialect has it, else the UPDATE and a read.
   */
  async function updatedRow<Table extends TesseraTableName>(
    name: Table,
    key: Partial<TesseraTables[Table]>,
    changes: Updateable<TesseraTables[Table]>,
  ): Promise<TesseraTables[Table] | undefined> {
    const where = matching(key);
    const update = untyped.updateTable(real(name)).set(changes).where(where);
    const row = traits.updateReturning
      ? await update.returningAll().executeTakeFirst()
      : await update
          .execute()
          .then(() => untyped.selectFrom(real(name)).selectAll().where(where).executeTakeFirst());
    return row as TesseraTables[Table] | undefined;
  }

  /**
   * Deletes the row that `key` selects and returns it (`undefined` when there is none). Of any
   * number of concurrent callers exactly one receives the row, which keeps verification tokens
   * single-use: `DELETE … RETURNING` is one statement where the dialect has it; otherwise (MySQL)
   * a transaction locks the row with `SELECT … FOR UPDATE` before deleting it, so the others wait
   * and then find no row.
   */
  async function deletedRow<Table extends TesseraTableName>(
    name: Table,
    key: Partial<TesseraTables[Table]>,
  ): Promise<TesseraTables[Table] | undefined> {
    const where = matching(key);
    const row = traits.deleteReturning
      ? await firstReturned(untyped.deleteFrom(real(name)).where(where).returningAll())
      : await retryingDeadlocks(() =>
          untyped.transaction().execute(async (trx) => {
            const locked = await trx
              .selectFrom(real(name))
              .selectAll()
              .where(where)
              .forUpdate()
              .executeTakeFirst();
            if (locked) await trx.deleteFrom(real(name)).where(where).execute();
            return locked;
          }),
        );
    return row as TesseraTables[Table] | undefined;
  }

  const organizationFromRow = (row: OrganizationRow): OrganizationRecord => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    createdAt: readDate(row.createdAt),
  });
  const memberFromRow = (row: OrganizationMemberRow): MemberRecord => ({
    organizationId: row.organizationId,
    userId: row.userId,
    role: row.role,
    createdAt: readDate(row.createdAt),
  });
  const memberToRow = (member: MemberRecord): OrganizationMemberRow => ({
    ...member,
    createdAt: traits.date(member.createdAt),
  });
  const invitationFromRow = (row: OrganizationInvitationRow): InvitationRecord => ({
    ...row,
    status: row.status as InvitationRecord["status"],
    expires: readDate(row.expires),
    createdAt: readDate(row.createdAt),
  });
  // D1 has no transactions: the organisation's decisions become conditional statements there.
  const organizationBatch = atomicBatch(database);
  const batchedWrites =
    organizationBatch &&
    batchedOrganizationWrites(database as unknown as Kysely<unknown>, real, organizationBatch);
  const teamFromRow = (row: OrganizationTeamRow): TeamRecord => ({
    ...row,
    createdAt: readDate(row.createdAt),
  });
  const roleFromRow = (row: OrganizationRoleRow): OrganizationRoleRecord => ({
    organizationId: row.organizationId,
    name: row.name,
    permissions: JSON.parse(row.permissions) as Permissions,
    createdAt: readDate(row.createdAt),
  });

  /**
   * Runs `change` in a transaction that first locks the organisation's row, so that changes to
   * its owners happen one after another: two owners removing each other at once would otherwise
   * each count two owners and leave none. SQLite runs one writer at a time already.
   */
  function withOrganizationLocked<T>(
    organizationId: string,
    change: (trx: Kysely<TesseraTables>) => Promise<T>,
  ): Promise<T> {
    return retryingDeadlocks(() =>
      db.transaction().execute(async (trx) => {
        const select = trx
          .selectFrom(table("organizations"))
          .select("id")
          .where("id", "=", organizationId);
        await (options.dialect === "sqlite" ? select : select.forUpdate()).executeTakeFirst();
        return change(trx);
      }),
    );
  }

  /** Whether `userId` is the only owner of the organisation (inside the locked transaction). */
  async function isLastOwner(
    trx: Kysely<TesseraTables>,
    organizationId: string,
    userId: string,
    ownerRole: string,
  ): Promise<boolean> {
    const owners = await trx
      .selectFrom(table("organization_members"))
      .select("userId")
      .where("organizationId", "=", organizationId)
      .where("role", "=", ownerRole)
      .execute();
    return owners.length === 1 && owners[0]?.userId === userId;
  }

  async function getAuthenticator(credentialID: string): Promise<AdapterAuthenticator | null> {
    const row = await db
      .selectFrom(table("authenticators"))
      .selectAll()
      .where("credentialID", "=", credentialID)
      .executeTakeFirst();
    return row ? authenticatorFromRow(row) : null;
  }

  return {
    async createUser(user) {
      const row = userToRow({ ...user, id: user.id || crypto.randomUUID() });
      await db.insertInto(table("users")).values(row).execute();
      return userFromRow(row);
    },

    getUser,

    async getUserByEmail(email) {
      const row = await db
        .selectFrom(table("users"))
        .selectAll()
        .where("email", "=", email)
        .executeTakeFirst();
      return row ? userFromRow(row) : null;
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const row = await db
        .selectFrom(alias("accounts", "a"))
        .innerJoin(alias("users", "u"), "u.id", "a.userId")
        .selectAll("u")
        .where("a.provider", "=", provider)
        .where("a.providerAccountId", "=", providerAccountId)
        .executeTakeFirst();
      return row ? userFromRow(row) : null;
    },

    async updateUser(user) {
      const changes: Updateable<UserRow> = {};
      if (user.name !== undefined) changes.name = user.name;
      if (user.email !== undefined) changes.email = user.email;
      if (user.image !== undefined) changes.image = user.image;
      if (user.emailVerified !== undefined) {
        changes.emailVerified = user.emailVerified ? traits.date(user.emailVerified) : null;
      }

      const row =
        Object.keys(changes).length === 0
          ? await userRow(user.id)
          : await updatedRow("users", { id: user.id }, changes);
      if (!row) throw new Error(`SqlAdapter.updateUser: no user with the id ${user.id}`);
      return userFromRow(row);
    },

    async deleteUser(userId) {
      const batch = atomicBatch(database);
      if (batch) {
        // D1: no transaction, so one batch; the user's row comes back from its own DELETE.
        const results = await batch([
          db.deleteFrom(table("sessions")).where("userId", "=", userId).compile(),
          db.deleteFrom(table("accounts")).where("userId", "=", userId).compile(),
          deletePasskeyDetailsOf(db, userId).compile(),
          db.deleteFrom(table("authenticators")).where("userId", "=", userId).compile(),
          db.deleteFrom(table("users")).where("id", "=", userId).returningAll().compile(),
        ]);
        const row = results[4]?.rows[0] as UserRow | undefined;
        return row ? userFromRow(row) : null;
      }
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom(table("users"))
          .selectAll()
          .where("id", "=", userId)
          .executeTakeFirst();
        if (!row) return null;
        await trx.deleteFrom(table("sessions")).where("userId", "=", userId).execute();
        await trx.deleteFrom(table("accounts")).where("userId", "=", userId).execute();
        await deletePasskeyDetailsOf(trx, userId).execute();
        await trx.deleteFrom(table("authenticators")).where("userId", "=", userId).execute();
        await trx.deleteFrom(table("users")).where("id", "=", userId).execute();
        return userFromRow(row);
      });
    },

    async linkAccount(account) {
      const row = accountToRow(account);
      await db.insertInto(table("accounts")).values(row).execute();
      return accountFromRow(row);
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const row = await deletedRow("accounts", { provider, providerAccountId });
      return row ? accountFromRow(row) : undefined;
    },

    async getAccount(providerAccountId, provider) {
      const row = await db
        .selectFrom(table("accounts"))
        .selectAll()
        .where("provider", "=", provider)
        .where("providerAccountId", "=", providerAccountId)
        .executeTakeFirst();
      return row ? accountFromRow(row) : null;
    },

    async updateAccount({ provider, providerAccountId, ...fields }) {
      const changes: Updateable<AccountRow> = {};
      for (const field of TOKEN_TEXT_FIELDS) {
        const value = fields[field];
        if (value !== undefined) changes[field] = typeof value === "string" ? value : null;
      }
      const expiresAt = fields.expires_at;
      if (typeof expiresAt === "number" || expiresAt === null) changes.expires_at = expiresAt;
      const row =
        Object.keys(changes).length === 0
          ? await db
              .selectFrom(table("accounts"))
              .selectAll()
              .where("provider", "=", provider)
              .where("providerAccountId", "=", providerAccountId)
              .executeTakeFirst()
          : await updatedRow("accounts", { provider, providerAccountId }, changes);
      return row ? accountFromRow(row) : null;
    },

    async listAccountsByUserId(userId) {
      const rows = await db
        .selectFrom(table("accounts"))
        .selectAll()
        .where("userId", "=", userId)
        .execute();
      return rows.map(accountFromRow);
    },

    async createSession(session) {
      const row: SessionRow = {
        sessionToken: session.sessionToken,
        userId: session.userId,
        expires: traits.date(session.expires),
        createdAt: session.createdAt ? traits.date(session.createdAt) : null,
        lastSeenAt: session.lastSeenAt ? traits.date(session.lastSeenAt) : null,
        ip: session.ip ?? null,
        userAgent: session.userAgent ?? null,
      };
      await db.insertInto(table("sessions")).values(row).execute();
      return sessionFromRow(row);
    },

    async getSessionAndUser(sessionToken) {
      // The SQL is built and compiled once: Kysely's builder and compiler cost more per read
      // than SQLite's own lookup. Plugins of the application's Kysely applied at compile time.
      sessionAndUserSql ??= sessionAndUserQuery("").compile().sql;
      readSessionAndUser ??=
        directReader(database, sessionAndUserSql, {
          preparedStatements: options.preparedStatements ?? true,
        }) ?? null;
      // SQLite's direct read answers synchronously: awaited only when it is a promise.
      const direct = readSessionAndUser?.([sessionToken]);
      const values = (direct instanceof Promise ? await direct : direct)?.[0];
      const row = values
        ? joinedRowFromValues(values)
        : (await db.executeQuery<JoinedRow>(CompiledQuery.raw(sessionAndUserSql, [sessionToken])))
            .rows[0];
      if (!row) return null;
      return { session: sessionFromRow(row), user: userFromRow(row) };
    },

    async updateSession(session) {
      const changes: Updateable<SessionRow> = {};
      if (session.expires !== undefined) changes.expires = traits.date(session.expires);
      if (session.userId !== undefined) changes.userId = session.userId;
      if (session.lastSeenAt !== undefined)
        changes.lastSeenAt = session.lastSeenAt ? traits.date(session.lastSeenAt) : null;
      if (session.ip !== undefined) changes.ip = session.ip;
      if (session.userAgent !== undefined) changes.userAgent = session.userAgent;
      if (Object.keys(changes).length === 0) return getSession(session.sessionToken);
      const row = await updatedRow("sessions", { sessionToken: session.sessionToken }, changes);
      return row ? sessionFromRow(row) : null;
    },

    async deleteSession(sessionToken) {
      const row = await deletedRow("sessions", { sessionToken });
      return row ? sessionFromRow(row) : null;
    },

    async createVerificationToken(verificationToken) {
      const row: VerificationTokenRow = {
        identifier: verificationToken.identifier,
        token: verificationToken.token,
        expires: traits.date(verificationToken.expires),
      };
      await db.insertInto(table("verification_tokens")).values(row).execute();
      return verificationTokenFromRow(row);
    },

    async useVerificationToken({ identifier, token }) {
      // Single use under concurrency (deletedRow): a sign-in link cannot be used twice.
      const row = await deletedRow("verification_tokens", { identifier, token });
      return row ? verificationTokenFromRow(row) : null;
    },

    async createAuthenticator(authenticator) {
      const row = authenticatorToRow(authenticator);
      await db.insertInto(table("authenticators")).values(row).execute();
      return authenticatorFromRow(row);
    },

    getAuthenticator,

    async listAuthenticatorsByUserId(userId) {
      const rows = await db
        .selectFrom(table("authenticators"))
        .selectAll()
        .where("userId", "=", userId)
        .execute();
      return rows.map(authenticatorFromRow);
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const row = await updatedRow("authenticators", { credentialID }, { counter: newCounter });
      if (!row) {
        throw new Error(`SqlAdapter.updateAuthenticatorCounter: no authenticator ${credentialID}`);
      }
      return authenticatorFromRow(row);
    },

    async listSessionsByUserId(userId) {
      const rows = await db
        .selectFrom(table("sessions"))
        .selectAll()
        .where("userId", "=", userId)
        .where("expires", ">", traits.date(new Date()))
        .orderBy("expires", "desc")
        .execute();
      return rows.map(sessionFromRow);
    },

    async deleteSessionsByUserId(userId) {
      await db.deleteFrom(table("sessions")).where("userId", "=", userId).execute();
    },

    async getTwoFactor(userId) {
      const row = await db
        .selectFrom(table("two_factor"))
        .selectAll()
        .where("userId", "=", userId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        userId: row.userId,
        secret: row.secret,
        enabledAt: row.enabledAt === null ? null : readDate(row.enabledAt),
        lastUsedStep: row.lastUsedStep === null ? null : readInteger(row.lastUsedStep),
      };
    },

    async setTwoFactor(record) {
      const row: TwoFactorRow = {
        userId: record.userId,
        secret: record.secret,
        enabledAt: record.enabledAt ? traits.date(record.enabledAt) : null,
        lastUsedStep: record.lastUsedStep,
      };
      await allOrNothing([
        db.deleteFrom(table("two_factor")).where("userId", "=", record.userId).compile(),
        db.insertInto(table("two_factor")).values(row).compile(),
      ]);
    },

    async deleteTwoFactor(userId) {
      await allOrNothing([
        db.deleteFrom(table("two_factor_backup_codes")).where("userId", "=", userId).compile(),
        db.deleteFrom(table("two_factor")).where("userId", "=", userId).compile(),
      ]);
    },

    async useTotpStep(userId, step) {
      // One conditional UPDATE: the database decides, so parallel uses of a step pass once.
      const result = await db
        .updateTable(table("two_factor"))
        .set({ lastUsedStep: step })
        .where("userId", "=", userId)
        .where((eb) => eb.or([eb("lastUsedStep", "is", null), eb("lastUsedStep", "<", step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async setBackupCodes(userId, hashes) {
      const rows = hashes.map((hash) => ({ userId, hash }));
      await allOrNothing([
        db.deleteFrom(table("two_factor_backup_codes")).where("userId", "=", userId).compile(),
        ...(rows.length > 0
          ? [db.insertInto(table("two_factor_backup_codes")).values(rows).compile()]
          : []),
      ]);
    },

    async useBackupCode(userId, hash) {
      // One DELETE: of parallel uses of a code, the database lets one remove the row.
      const result = await db
        .deleteFrom(table("two_factor_backup_codes"))
        .where("userId", "=", userId)
        .where("hash", "=", hash)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async countBackupCodes(userId) {
      const row = await db
        .selectFrom(table("two_factor_backup_codes"))
        .select((eb) => eb.fn.countAll().as("n"))
        .where("userId", "=", userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async createOrganization(organization, owner) {
      try {
        await allOrNothing([
          db
            .insertInto(table("organizations"))
            .values({ ...organization, createdAt: traits.date(organization.createdAt) })
            .compile(),
          db.insertInto(table("organization_members")).values(memberToRow(owner)).compile(),
        ]);
        return true;
      } catch (error) {
        // The unique slug (or id) decided: the error is the database's refusal, nothing was made.
        const taken = await db
          .selectFrom(table("organizations"))
          .select("id")
          .where((eb) =>
            eb.or([eb("slug", "=", organization.slug), eb("id", "=", organization.id)]),
          )
          .executeTakeFirst();
        if (taken) return false;
        throw error;
      }
    },

    async getOrganization(id) {
      const row = await db
        .selectFrom(table("organizations"))
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? organizationFromRow(row) : null;
    },

    async getOrganizationBySlug(slug) {
      const row = await db
        .selectFrom(table("organizations"))
        .selectAll()
        .where("slug", "=", slug)
        .executeTakeFirst();
      return row ? organizationFromRow(row) : null;
    },

    async updateOrganization(id, changes) {
      const exists = await db
        .selectFrom(table("organizations"))
        .select("id")
        .where("id", "=", id)
        .executeTakeFirst();
      if (!exists) return false;
      const values = Object.fromEntries(
        Object.entries(changes).filter(([, value]) => value !== undefined),
      );
      if (Object.keys(values).length === 0) return true;
      try {
        await db.updateTable(table("organizations")).set(values).where("id", "=", id).execute();
        return true;
      } catch (error) {
        if (changes.slug === undefined) throw error;
        const holder = await db
          .selectFrom(table("organizations"))
          .select("id")
          .where("slug", "=", changes.slug)
          .executeTakeFirst();
        if (holder && holder.id !== id) return false;
        throw error;
      }
    },

    async deleteOrganization(id) {
      await allOrNothing([
        db
          .deleteFrom(table("organization_team_members"))
          .where("organizationId", "=", id)
          .compile(),
        db.deleteFrom(table("organization_teams")).where("organizationId", "=", id).compile(),
        db.deleteFrom(table("organization_invitations")).where("organizationId", "=", id).compile(),
        db.deleteFrom(table("organization_members")).where("organizationId", "=", id).compile(),
        db.deleteFrom(table("organization_roles")).where("organizationId", "=", id).compile(),
        db.deleteFrom(table("organizations")).where("id", "=", id).compile(),
      ]);
    },

    async listOrganizationsOfUser(userId) {
      const rows = await db
        .selectFrom(alias("organization_members", "m"))
        .innerJoin(alias("organizations", "o"), "o.id", "m.organizationId")
        .select([
          "o.id",
          "o.name",
          "o.slug",
          "o.createdAt",
          "m.organizationId",
          "m.userId",
          "m.role",
          "m.createdAt as memberSince",
        ])
        .where("m.userId", "=", userId)
        .execute();
      return rows.map((row) => ({
        organization: organizationFromRow(row),
        member: memberFromRow({ ...row, createdAt: row.memberSince }),
      }));
    },

    async getMember(organizationId, userId) {
      const row = await db
        .selectFrom(table("organization_members"))
        .selectAll()
        .where("organizationId", "=", organizationId)
        .where("userId", "=", userId)
        .executeTakeFirst();
      return row ? memberFromRow(row) : null;
    },

    async listMembers(organizationId) {
      const rows = await db
        .selectFrom(table("organization_members"))
        .selectAll()
        .where("organizationId", "=", organizationId)
        .orderBy("createdAt")
        .execute();
      return rows.map(memberFromRow);
    },

    async addMember(member) {
      if (batchedWrites) return batchedWrites.addMember(memberToRow(member));
      return withOrganizationLocked(member.organizationId, async (trx) => {
        const organization = await trx
          .selectFrom(table("organizations"))
          .select("id")
          .where("id", "=", member.organizationId)
          .executeTakeFirst();
        const existing = await trx
          .selectFrom(table("organization_members"))
          .select("userId")
          .where("organizationId", "=", member.organizationId)
          .where("userId", "=", member.userId)
          .executeTakeFirst();
        if (!organization || existing) return false;
        await trx.insertInto(table("organization_members")).values(memberToRow(member)).execute();
        return true;
      });
    },

    async setMemberRole(organizationId, userId, role, ownerRole) {
      if (batchedWrites)
        return batchedWrites.setMemberRole(organizationId, userId, role, ownerRole);
      return withOrganizationLocked<MembershipChange>(organizationId, async (trx) => {
        const member = await trx
          .selectFrom(table("organization_members"))
          .select("role")
          .where("organizationId", "=", organizationId)
          .where("userId", "=", userId)
          .executeTakeFirst();
        if (!member) return "not-found";
        if (role !== ownerRole && (await isLastOwner(trx, organizationId, userId, ownerRole)))
          return "last-owner";
        await trx
          .updateTable(table("organization_members"))
          .set({ role })
          .where("organizationId", "=", organizationId)
          .where("userId", "=", userId)
          .execute();
        return "done";
      });
    },

    async removeMember(organizationId, userId, ownerRole) {
      if (batchedWrites) return batchedWrites.removeMember(organizationId, userId, ownerRole);
      return withOrganizationLocked<MembershipChange>(organizationId, async (trx) => {
        const member = await trx
          .selectFrom(table("organization_members"))
          .select("role")
          .where("organizationId", "=", organizationId)
          .where("userId", "=", userId)
          .executeTakeFirst();
        if (!member) return "not-found";
        if (await isLastOwner(trx, organizationId, userId, ownerRole)) return "last-owner";
        await trx
          .deleteFrom(table("organization_team_members"))
          .where("organizationId", "=", organizationId)
          .where("userId", "=", userId)
          .execute();
        await trx
          .deleteFrom(table("organization_members"))
          .where("organizationId", "=", organizationId)
          .where("userId", "=", userId)
          .execute();
        return "done";
      });
    },

    async createInvitation(invitation) {
      await db
        .insertInto(table("organization_invitations"))
        .values({
          ...invitation,
          expires: traits.date(invitation.expires),
          createdAt: traits.date(invitation.createdAt),
        })
        .execute();
    },

    async getInvitation(id) {
      const row = await db
        .selectFrom(table("organization_invitations"))
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? invitationFromRow(row) : null;
    },

    async listInvitations(organizationId) {
      const rows = await db
        .selectFrom(table("organization_invitations"))
        .selectAll()
        .where("organizationId", "=", organizationId)
        .orderBy("createdAt")
        .execute();
      return rows.map(invitationFromRow);
    },

    async settleInvitation(id, status, member) {
      if (batchedWrites)
        return batchedWrites.settleInvitation(
          id,
          status,
          traits.date(new Date()),
          member && memberToRow(member),
        );
      const invitation = await db
        .selectFrom(table("organization_invitations"))
        .select("organizationId")
        .where("id", "=", id)
        .executeTakeFirst();
      if (!invitation) return false;
      // Under the organisation's lock the conditional UPDATE decides: of parallel accepts, the
      // first moves the invitation out of `pending` and the others find nothing to update.
      return withOrganizationLocked(invitation.organizationId, async (trx) => {
        const result = await trx
          .updateTable(table("organization_invitations"))
          .set({ status })
          .where("id", "=", id)
          .where("status", "=", "pending")
          .where("expires", ">", traits.date(new Date()))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        if (member) {
          const existing = await trx
            .selectFrom(table("organization_members"))
            .select("userId")
            .where("organizationId", "=", member.organizationId)
            .where("userId", "=", member.userId)
            .executeTakeFirst();
          if (!existing)
            await trx
              .insertInto(table("organization_members"))
              .values(memberToRow(member))
              .execute();
        }
        return true;
      });
    },

    async createTeam(team) {
      await db
        .insertInto(table("organization_teams"))
        .values({ ...team, createdAt: traits.date(team.createdAt) })
        .execute();
    },

    async getTeam(id) {
      const row = await db
        .selectFrom(table("organization_teams"))
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? teamFromRow(row) : null;
    },

    async listTeams(organizationId) {
      const rows = await db
        .selectFrom(table("organization_teams"))
        .selectAll()
        .where("organizationId", "=", organizationId)
        .orderBy("createdAt")
        .execute();
      return rows.map(teamFromRow);
    },

    async deleteTeam(id) {
      await allOrNothing([
        db.deleteFrom(table("organization_team_members")).where("teamId", "=", id).compile(),
        db.deleteFrom(table("organization_teams")).where("id", "=", id).compile(),
      ]);
    },

    async setTeamMember(member: TeamMemberRecord) {
      await allOrNothing([
        db
          .deleteFrom(table("organization_team_members"))
          .where("teamId", "=", member.teamId)
          .where("userId", "=", member.userId)
          .compile(),
        db.insertInto(table("organization_team_members")).values(member).compile(),
      ]);
    },

    async removeTeamMember(teamId, userId) {
      await db
        .deleteFrom(table("organization_team_members"))
        .where("teamId", "=", teamId)
        .where("userId", "=", userId)
        .execute();
    },

    async listTeamMembersOfUser(organizationId, userId) {
      return db
        .selectFrom(table("organization_team_members"))
        .selectAll()
        .where("organizationId", "=", organizationId)
        .where("userId", "=", userId)
        .execute();
    },

    async listTeamMembers(teamId) {
      return db
        .selectFrom(table("organization_team_members"))
        .selectAll()
        .where("teamId", "=", teamId)
        .execute();
    },

    async createOrganizationRole(role) {
      try {
        await db
          .insertInto(table("organization_roles"))
          .values({
            organizationId: role.organizationId,
            name: role.name,
            permissions: JSON.stringify(role.permissions),
            createdAt: traits.date(role.createdAt),
          })
          .execute();
        return true;
      } catch (error) {
        // The primary key decided: the error is the database's refusal of a second role of the name.
        const taken = await db
          .selectFrom(table("organization_roles"))
          .select("name")
          .where("organizationId", "=", role.organizationId)
          .where("name", "=", role.name)
          .executeTakeFirst();
        if (taken) return false;
        throw error;
      }
    },

    async getOrganizationRole(organizationId, name) {
      const row = await db
        .selectFrom(table("organization_roles"))
        .selectAll()
        .where("organizationId", "=", organizationId)
        .where("name", "=", name)
        .executeTakeFirst();
      return row ? roleFromRow(row) : null;
    },

    async listOrganizationRoles(organizationId) {
      const rows = await db
        .selectFrom(table("organization_roles"))
        .selectAll()
        .where("organizationId", "=", organizationId)
        .orderBy("name")
        .execute();
      return rows.map(roleFromRow);
    },

    async updateOrganizationRole(organizationId, name, permissions) {
      const result = await db
        .updateTable(table("organization_roles"))
        .set({ permissions: JSON.stringify(permissions) })
        .where("organizationId", "=", organizationId)
        .where("name", "=", name)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return true;
      // MySQL counts changed rows, not matched ones: the same statements again update none.
      return (await this.getOrganizationRole(organizationId, name)) !== null;
    },

    async deleteOrganizationRole(organizationId, name) {
      const result = await db
        .deleteFrom(table("organization_roles"))
        .where("organizationId", "=", organizationId)
        .where("name", "=", name)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async getPasswordHash(userId) {
      const row = await db
        .selectFrom(table("passwords"))
        .select("hash")
        .where("userId", "=", userId)
        .executeTakeFirst();
      return row?.hash ?? null;
    },

    async setPasswordHash(userId, hash) {
      await allOrNothing([
        db.deleteFrom(table("passwords")).where("userId", "=", userId).compile(),
        db.insertInto(table("passwords")).values({ userId, hash }).compile(),
      ]);
    },

    async deletePasswordHash(userId) {
      await db.deleteFrom(table("passwords")).where("userId", "=", userId).execute();
    },

    async getAdminUser(userId) {
      const row = await adminUsers().where("u.id", "=", userId).executeTakeFirst();
      return row ? adminUserFromRow(row) : null;
    },

    async listUsers(query) {
      const [rows, count] = await Promise.all([
        adminUsers()
          .where(userSearch(query))
          .orderBy("u.email")
          .orderBy("u.id")
          .limit(query.limit)
          .offset(query.offset)
          .execute(),
        db
          .selectFrom(alias("users", "u"))
          .select((eb) => eb.fn.countAll().as("total"))
          .where(userSearch(query))
          .executeTakeFirstOrThrow(),
      ]);
      return {
        users: rows.map(adminUserFromRow),
        total: readInteger(count.total as StoredBigInt),
      };
    },

    async setUserRole(userId, role) {
      if (!(await userRow(userId))) return false;
      const removal = db.deleteFrom(table("user_roles")).where("userId", "=", userId).compile();
      if (role === null) await db.executeQuery(removal);
      else
        await allOrNothing([
          removal,
          db.insertInto(table("user_roles")).values({ userId, role }).compile(),
        ]);
      return true;
    },

    async setUserBan(userId, ban) {
      if (!(await userRow(userId))) return false;
      const removal = db.deleteFrom(table("user_bans")).where("userId", "=", userId).compile();
      if (ban === null) await db.executeQuery(removal);
      else
        await allOrNothing([
          removal,
          db
            .insertInto(table("user_bans"))
            .values({
              userId,
              reason: ban.reason,
              expires: ban.expires ? traits.date(ban.expires) : null,
            })
            .compile(),
        ]);
      return true;
    },
    ...passkeyMethods,
  };
}
