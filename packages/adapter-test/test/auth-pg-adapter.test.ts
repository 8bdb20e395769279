import { randomUUID } from "node:crypto";
import PostgresAdapter from "@auth/pg-adapter";
import type {
  AdapterAccount,
  AdapterAccountType,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "@tessera/core/adapters";
import pg from "pg";
import { runAdapterConformance } from "../src/index.js";

// The suite must certify any valid Auth.js adapter, so it runs against the official
// @auth/pg-adapter, unchanged, on the schema its documentation gives. What that adapter really
// lacks is declared below; everything else must pass.

const POSTGRES_URL =
  process.env.TESSERA_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

// A schema of its own, so that parallel test files using the same table names never collide.
const schema = `auth_pg_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const admin = new pg.Pool({ connectionString: POSTGRES_URL });
const pool = new pg.Pool({ connectionString: POSTGRES_URL, options: `-c search_path=${schema}` });

/** The schema documented for @auth/pg-adapter (https://authjs.dev/getting-started/adapters/pg). */
const DOCUMENTED_SCHEMA = `
  CREATE TABLE verification_token (
    identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL,
    PRIMARY KEY (identifier, token));
  CREATE TABLE accounts (
    id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL,
    provider VARCHAR(255) NOT NULL, "providerAccountId" VARCHAR(255) NOT NULL,
    refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT,
    session_state TEXT, token_type TEXT, PRIMARY KEY (id));
  CREATE TABLE sessions (
    id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL,
    "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id));
  CREATE TABLE users (
    id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT,
    PRIMARY KEY (id));
`;

/** An `accounts` row as pg returns it: BIGINT comes back as a string, absent tokens as NULL. */
interface AccountRow {
  userId: string;
  type: AdapterAccountType;
  provider: string;
  providerAccountId: string;
  expires_at: string | null;
  [token: string]: string | number | null;
}

function accountFromRow({ expires_at, ...row }: AccountRow): AdapterAccount {
  const account: AdapterAccount = { ...row };
  if (expires_at !== null) account.expires_at = Number(expires_at);
  return account;
}

runAdapterConformance("@auth/pg-adapter on PostgreSQL", {
  adapter: PostgresAdapter(pool),
  db: {
    async connect() {
      await admin.query(`CREATE SCHEMA ${schema}`);
      await pool.query(DOCUMENTED_SCHEMA);
    },
    async disconnect() {
      await pool.end();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
    async user(id) {
      const { rows } = await pool.query<AdapterUser>("SELECT * FROM users WHERE id = $1", [id]);
      return rows[0] ?? null;
    },
    async account({ provider, providerAccountId }) {
      const { rows } = await pool.query<AccountRow>(
        'SELECT * FROM accounts WHERE provider = $1 AND "providerAccountId" = $2',
        [provider, providerAccountId],
      );
      return rows[0] ? accountFromRow(rows[0]) : null;
    },
    async session(sessionToken) {
      const { rows } = await pool.query<AdapterSession>(
        'SELECT * FROM sessions WHERE "sessionToken" = $1',
        [sessionToken],
      );
      return rows[0] ?? null;
    },
    async verificationToken({ identifier, token }) {
      const { rows } = await pool.query<VerificationToken>(
        "SELECT * FROM verification_token WHERE identifier = $1 AND token = $2",
        [identifier, token],
      );
      return rows[0] ?? null;
    },
  },
  features: {
    // The adapter has neither WebAuthn (no authenticator methods, no getAccount) nor Tessera's
    // session-listing extension.
    authenticators: false,
    sessionListing: false,
    accountListing: false,
    accountUpdate: false,
    passkeyManagement: false,
    // The documented schema has no unique index on users.email: a second user with a taken
    // e-mail is stored, and getUserByEmail then returns either one.
    uniqueEmail: false,
    // Nor one on accounts (provider, "providerAccountId"): one provider account can be linked
    // to two users, and getUserByAccount then returns either one.
    uniqueAccount: false,
  },
});
