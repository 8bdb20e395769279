/**
 * Row shapes of Tessera's tables. Column names are Auth.js's (its adapters' documented schema,
 * https://authjs.dev/getting-started/adapters/pg): camelCase for rows, snake_case for OAuth token
 * values (RFC 6749 §5.1, https://www.rfc-editor.org/rfc/rfc6749#section-5.1). Column value types differ per dialect (see `dialect.ts`), so dates, counters
 * and booleans are typed with every form a driver may hand back.
 */

/** SQL dialects the adapter speaks. `mariadb` is `mysql` plus `DELETE … RETURNING` (10.5+). */
export type SqlDialect = "sqlite" | "postgres" | "mysql" | "mariadb";

/** A timestamp: `Date` on PostgreSQL and MySQL, milliseconds since the epoch on SQLite. */
export type StoredDate = Date | number | string;

/** A 64-bit integer: `pg` returns `bigint` columns as strings to avoid precision loss. */
export type StoredBigInt = number | string | bigint;

/** A boolean: SQLite and MySQL have none and store 0 or 1. */
export type StoredBoolean = boolean | number;

export interface UserRow {
  id: string;
  name: string | null;
  email: string | null;
  emailVerified: StoredDate | null;
  image: string | null;
}

export interface AccountRow {
  userId: string;
  type: string;
  provider: string;
  providerAccountId: string;
  refresh_token: string | null;
  access_token: string | null;
  expires_at: StoredBigInt | null;
  token_type: string | null;
  scope: string | null;
  id_token: string | null;
  session_state: string | null;
}

export interface SessionRow {
  sessionToken: string;
  userId: string;
  expires: StoredDate;
  /** When the session was created (migration 0002; null for sessions created before it). */
  createdAt: StoredDate | null;
  /** When the session was last seen, updated at most once per `updateAge` (migration 0002). */
  lastSeenAt: StoredDate | null;
  /** The client's IP address at sign-in, where the integration knows it (migration 0002). */
  ip: string | null;
  /** The client's User-Agent at sign-in (migration 0002). */
  userAgent: string | null;
}

export interface VerificationTokenRow {
  identifier: string;
  token: string;
  expires: StoredDate;
}

export interface AuthenticatorRow {
  credentialID: string;
  userId: string;
  providerAccountId: string;
  credentialPublicKey: string;
  counter: StoredBigInt;
  credentialDeviceType: string;
  credentialBackedUp: StoredBoolean;
  transports: string | null;
}

/**
 * What tells a user's passkeys apart (Tessera's passkey-management extension), one row per
 * authenticator that has any: a table of its own, so Auth.js's `authenticators` stays as it is.
 */
export interface PasskeyDetailsRow {
  credentialID: string;
  name: string | null;
  createdAt: StoredDate | null;
  lastUsedAt: StoredDate | null;
  /** The WebAuthn user handle (base64url) that the Signal API calls name. */
  userHandle: string | null;
}

/** A value of the shared store (`add`/`get`/`delete` of `sqlStore`), live until `expires`. */
export interface StoreValueRow {
  /** The key (`sha256:<hex>` beyond 191 characters); `varbinary` on MySQL, read back as bytes. */
  key: string;
  value: string;
  expires: StoredDate;
}

/** A sliding rate-limit window of the shared store (`consume` of `sqlStore`). */
export interface StoreLimitRow {
  /** As {@link StoreValueRow.key}. */
  key: string;
  /** Start of the current fixed window, in milliseconds since the epoch. */
  windowStart: StoredBigInt;
  current: StoredBigInt;
  previous: StoredBigInt;
  expires: StoredDate;
}

/** A user's TOTP factor (`@tessera/core/two-factor`). */
export interface TwoFactorRow {
  userId: string;
  /** The sealed secret (a JWE), never the key itself. */
  secret: string;
  enabledAt: StoredDate | null;
  lastUsedStep: StoredBigInt | null;
}

/** One unused backup code of a user, as its hash. */
export interface BackupCodeRow {
  userId: string;
  hash: string;
}

/** An organisation (`@tessera/core/organizations`). */
export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  createdAt: StoredDate;
}

/** A membership of an organisation. */
export interface OrganizationMemberRow {
  organizationId: string;
  userId: string;
  role: string;
  createdAt: StoredDate;
}

/** An invitation to an organisation. */
export interface OrganizationInvitationRow {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  inviterId: string;
  status: string;
  expires: StoredDate;
  createdAt: StoredDate;
}

/** A team inside an organisation. */
export interface OrganizationTeamRow {
  id: string;
  organizationId: string;
  name: string;
  createdAt: StoredDate;
}

/** A member's place in a team, with the team-scoped role. */
export interface OrganizationTeamMemberRow {
  teamId: string;
  organizationId: string;
  userId: string;
  role: string;
}

/** A role an organisation defined for itself; `permissions` is the statements as JSON. */
export interface OrganizationRoleRow {
  organizationId: string;
  name: string;
  permissions: string;
  createdAt: StoredDate;
}

/** A user's password hash (`@tessera/core/password`), a PHC string. */
export interface PasswordRow {
  userId: string;
  hash: string;
}

/** A user's global role (`@tessera/core/admin`). */
export interface UserRoleRow {
  userId: string;
  role: string;
}

/** A user's ban (`@tessera/core/admin`): a row while banned. */
export interface UserBanRow {
  userId: string;
  reason: string | null;
  /** When the ban ends by itself; null for one that lasts until lifted. */
  expires: StoredDate | null;
}

/** Tessera's tables under their unprefixed names. */
export interface TesseraTables {
  users: UserRow;
  accounts: AccountRow;
  sessions: SessionRow;
  verification_tokens: VerificationTokenRow;
  authenticators: AuthenticatorRow;
  store_values: StoreValueRow;
  store_limits: StoreLimitRow;
  two_factor: TwoFactorRow;
  two_factor_backup_codes: BackupCodeRow;
  organizations: OrganizationRow;
  organization_members: OrganizationMemberRow;
  organization_invitations: OrganizationInvitationRow;
  organization_teams: OrganizationTeamRow;
  organization_team_members: OrganizationTeamMemberRow;
  organization_roles: OrganizationRoleRow;
  passkey_details: PasskeyDetailsRow;
  passwords: PasswordRow;
  user_roles: UserRoleRow;
  user_bans: UserBanRow;
}

/** The base names of Tessera's tables. */
export type TesseraTableName = keyof TesseraTables;

/**
 * A Kysely database type for Tessera's tables under `Prefix` (the `tablePrefix` option), for
 * applications that query them directly.
 *
 * @example
 * ```ts
 * const db = createPostgresDb<TesseraDatabase<"auth_">>(process.env.DATABASE_URL!)
 * const count = await db.selectFrom("auth_users").select((eb) => eb.fn.countAll().as("n")).execute()
 * ```
 */
export type TesseraDatabase<Prefix extends string = ""> = {
  [Table in TesseraTableName as `${Prefix}${Table}`]: TesseraTables[Table];
};

/** Table prefixes end up in identifiers; letters, digits and `_` keep them valid everywhere. */
const TABLE_PREFIX_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$|^$/;

/**
 * Checks a table prefix and returns it.
 *
 * @example
 * ```ts
 * validTablePrefix("auth_") // "auth_"
 * validTablePrefix("auth-") // throws
 * ```
 */
export function validTablePrefix(tablePrefix: string | undefined): string {
  const prefix = tablePrefix ?? "";
  if (!TABLE_PREFIX_PATTERN.test(prefix) || prefix.length > 32) {
    throw new TypeError(
      `tablePrefix must be at most 32 letters, digits or underscores and not start with a digit; got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix;
}

/**
 * Table names as Kysely sees them. Kysely is typed against {@link TesseraTables} (unprefixed) while
 * the SQL must name the prefixed tables, so these helpers return the prefixed string typed as the
 * unprefixed name. Queries that qualify columns always alias the table (`alias("users", "u")`), so
 * no prefixed name ever appears in a typed column reference.
 */
export interface TableNames {
  table<Table extends TesseraTableName>(table: Table): Table;
  alias<Table extends TesseraTableName, Alias extends string>(
    table: Table,
    alias: Alias,
  ): `${Table} as ${Alias}`;
  /** The real (prefixed) name, for DDL and raw SQL. */
  real(table: TesseraTableName): string;
}

/**
 * Builds {@link TableNames} for a prefix.
 *
 * @example
 * ```ts
 * const names = tableNames("auth_")
 * db.selectFrom(names.table("users")) // FROM "auth_users"
 * ```
 */
export function tableNames(prefix: string): TableNames {
  return {
    table: <Table extends TesseraTableName>(table: Table) => `${prefix}${table}` as Table,
    alias: <Table extends TesseraTableName, Alias extends string>(table: Table, alias: Alias) =>
      `${prefix}${table} as ${alias}` as `${Table} as ${Alias}`,
    real: (table) => `${prefix}${table}`,
  };
}
