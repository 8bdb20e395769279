/**
 * The data-moving script of docs/guides/moving-adapter-data.md, run as printed: data written by
 * @auth/pg-adapter itself (on the schema its documentation gives) is copied into @tessera/sql's
 * tables on PostgreSQL, and Tessera then serves it: the old session cookie still signs its user
 * in, a pending e-mail link still works, OAuth accounts still find their user.
 */
import { createHash, randomUUID } from "node:crypto";
import PostgresAdapter from "@auth/pg-adapter";
import { Auth, type AuthConfig } from "@tessera/core";
import Email from "@tessera/core/providers/email";
import { createPostgresDb, SqlAdapter, type SqlDialect, type TesseraDatabase } from "@tessera/sql";
import type { Kysely } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSnippet, removeImportedSnippets } from "./snippet-module.js";

const POSTGRES_URL =
  process.env.TESSERA_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `docs_move_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const SECRET = "moving-adapter-data-test-secret";
const PREFIX = "tessera_";

/** The schema documented for @auth/pg-adapter (https://authjs.dev/getting-started/adapters/pg). */
const AUTHJS_SCHEMA = `
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

interface MoveModule {
  moveAuthjsData(options: {
    source: pg.Pool;
    target: Kysely<TesseraDatabase>;
    dialect: SqlDialect;
    tablePrefix?: string;
    batchSize?: number;
  }): Promise<{ users: number; accounts: number; sessions: number; verificationTokens: number }>;
}

const admin = new pg.Pool({ connectionString: POSTGRES_URL });
const source = new pg.Pool({ connectionString: POSTGRES_URL, options: `-c search_path=${schema}` });
const target = createPostgresDb({
  connectionString: POSTGRES_URL,
  options: `-c search_path=${schema}`,
});
const tessera = SqlAdapter(target, { dialect: "postgres", tablePrefix: PREFIX });

const config: AuthConfig = {
  secret: SECRET,
  trustHost: true,
  adapter: tessera,
  providers: [Email({ sendVerificationRequest: () => {} })],
};

const HOUR = 60 * 60 * 1000;
const rawEmailToken = randomUUID();
let ada: { id: string };
let sessionToken: string;
let move: MoveModule;

describe("moving @auth/pg-adapter data to @tessera/sql with the guide's script", () => {
  beforeAll(async () => {
    await admin.query(`CREATE SCHEMA ${schema}`);
    await source.query(AUTHJS_SCHEMA);
    // Written by Auth.js's own adapter, so the rows are exactly what a running site has.
    const authjs = PostgresAdapter(source) as Required<ReturnType<typeof PostgresAdapter>>;
    ada = await authjs.createUser({
      id: "",
      name: "Ada",
      email: "ada@example.com",
      emailVerified: new Date("2025-01-02T03:04:05.678Z"),
      image: null,
    });
    const grace = await authjs.createUser({
      id: "",
      name: "Grace",
      email: "grace@example.com",
      emailVerified: null,
      image: "https://example.com/grace.png",
    });
    await authjs.linkAccount({
      userId: ada.id,
      type: "oidc",
      provider: "acme",
      providerAccountId: "acme-ada",
      access_token: "at",
      refresh_token: "rt",
      expires_at: 1_900_000_000,
      token_type: "bearer",
      scope: "openid email",
      id_token: "idt",
    });
    sessionToken = randomUUID();
    await authjs.createSession({
      sessionToken,
      userId: ada.id,
      expires: new Date(Date.now() + 24 * HOUR),
    });
    await authjs.createSession({
      sessionToken: randomUUID(),
      userId: grace.id,
      expires: new Date(Date.now() - HOUR),
    });
    // Auth.js stores sha256(token + secret), as Tessera does.
    await authjs.createVerificationToken({
      identifier: "grace@example.com",
      token: createHash("sha256").update(`${rawEmailToken}${SECRET}`).digest("hex"),
      expires: new Date(Date.now() + HOUR),
    });
    move = await importSnippet<MoveModule>(
      "docs/guides/moving-adapter-data.md",
      "move-authjs-data.ts",
    );
  }, 60_000);

  afterAll(async () => {
    removeImportedSnippets();
    await target.destroy();
    await source.end();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it("copies users, accounts, live sessions and pending tokens, in pages", async () => {
    const report = await move.moveAuthjsData({
      source,
      target,
      dialect: "postgres",
      tablePrefix: PREFIX,
      batchSize: 1,
    });
    expect(report).toEqual({ users: 2, accounts: 1, sessions: 1, verificationTokens: 1 });
    const user = await tessera.getUserByAccount({
      provider: "acme",
      providerAccountId: "acme-ada",
    });
    expect(user).toMatchObject({
      id: String(ada.id),
      email: "ada@example.com",
      emailVerified: new Date("2025-01-02T03:04:05.678Z"),
    });
    const [account] = await tessera.listAccountsByUserId(String(ada.id));
    expect(account).toMatchObject({ expires_at: 1_900_000_000, refresh_token: "rt" });
  });

  it("keeps users signed in: the session cookie written under Auth.js reads through Tessera", async () => {
    const response = await Auth(
      new Request("http://localhost:3000/auth/session", {
        headers: { cookie: `authjs.session-token=${sessionToken}` },
      }),
      config,
    );
    expect(await response.json()).toMatchObject({ user: { email: "ada@example.com" } });
  });

  it("keeps pending e-mail links working", async () => {
    const query = new URLSearchParams({
      callbackUrl: "/",
      token: rawEmailToken,
      email: "grace@example.com",
    });
    const response = await Auth(
      new Request(`http://localhost:3000/auth/callback/email?${query}`),
      config,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://localhost:3000/");
    expect(response.headers.getSetCookie().join("\n")).toMatch(/authjs\.session-token=/);
  });

  it("copies all or nothing: a second run fails and adds no row", async () => {
    await expect(
      move.moveAuthjsData({ source, target, dialect: "postgres", tablePrefix: PREFIX }),
    ).rejects.toThrow();
    const { rows } = await source.query(`SELECT count(*)::int AS n FROM ${PREFIX}users`);
    expect(rows[0]).toEqual({ n: 2 });
  });
});
