/**
 * Database sessions at the edge: the same credentials scenario, with the `database` strategy,
 * inside workerd (Miniflare) on Cloudflare D1 (without `nodejs_compat`: the D1 entry point
 * bundles with no `node:` module) and on the local PostgreSQL through pg over workerd's TCP
 * sockets (with `nodejs_compat`). Each Worker creates its tables itself (`POST /migrate`), signs
 * in, reads the session through the adapter and signs out; the test checks the stored rows from
 * Node. The conformance suites on D1 run in packages/sql/test/d1.test.ts; here the adapter and
 * shared-store suites run on PostgreSQL with the adapter and the store inside workerd, each of
 * their calls posted to the Worker.
 */
import { randomBytes } from "node:crypto";
import { runAdapterConformance, runSharedStoreConformance } from "@tessera/adapter-test";
import type { Adapter } from "@tessera/core/adapters";
import type { SharedStore } from "@tessera/core/store";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../packages/express/test/http-client.js";
import { createD1Db, type D1DatabaseHandle, dropSchema } from "../packages/sql/src/d1.js";
import { SqlAdapter, sqlStore, tesseraMigrations } from "../packages/sql/src/index.js";
import { createPostgresDb } from "../packages/sql/src/postgres.js";
import { POSTGRES_URL, sqlConformanceDb, uniqueTablePrefix } from "../packages/sql/test/support.js";
import { buildWorkerBundle, type WorkerBundle } from "./bundle.js";
import { remote } from "./scenario/adapter-rpc.js";

const SECRET = randomBytes(32).toString("hex");
const PASSWORD = randomBytes(12).toString("base64url");
const SESSION_COOKIE = "authjs.session-token";

/** A database the Worker uses, as the test reads it from Node. */
interface Backend {
  name: string;
  entry: string;
  nodejsCompat: boolean;
  /** Miniflare options beyond the script: the database binding. */
  bindings(tablePrefix: string): Record<string, unknown>;
  /** The session rows of the scenario's table prefix. */
  sessionTokens(miniflare: Miniflare, tablePrefix: string): Promise<string[]>;
  drop(miniflare: Miniflare, tablePrefix: string): Promise<void>;
}

const d1: Backend = {
  name: "Cloudflare D1, without nodejs_compat",
  entry: "d1-worker.ts",
  nodejsCompat: false,
  bindings: () => ({ d1Databases: { DB: "tessera-runtimes-d1" } }),
  async sessionTokens(miniflare, tablePrefix) {
    const binding = (await miniflare.getD1Database("DB")) as unknown as D1DatabaseHandle;
    const { results } = await binding
      .prepare(`select sessionToken from ${tablePrefix}sessions`)
      .all();
    return (results as { sessionToken: string }[]).map((row) => row.sessionToken);
  },
  async drop(miniflare, tablePrefix) {
    const binding = (await miniflare.getD1Database("DB")) as unknown as D1DatabaseHandle;
    await dropSchema(createD1Db(binding), { dialect: "sqlite", tablePrefix });
  },
};

const postgres: Backend = {
  name: "PostgreSQL through pg over workerd sockets, with nodejs_compat",
  entry: "postgres-worker.ts",
  nodejsCompat: true,
  bindings: () => ({ bindings: { DATABASE_URL: POSTGRES_URL } }),
  async sessionTokens(_miniflare, tablePrefix) {
    const db = createPostgresDb(POSTGRES_URL);
    try {
      const rows = await (
        db as unknown as import("kysely").Kysely<Record<string, { sessionToken: string }>>
      )
        .selectFrom(`${tablePrefix}sessions`)
        .select("sessionToken")
        .execute();
      return rows.map((row) => row.sessionToken);
    } finally {
      await db.destroy();
    }
  },
  async drop(_miniflare, tablePrefix) {
    const db = createPostgresDb(POSTGRES_URL);
    try {
      await dropSchema(db, { dialect: "postgres", tablePrefix });
    } finally {
      await db.destroy();
    }
  },
};

describe.each([d1, postgres])("database sessions on $name", (backend) => {
  const tablePrefix = uniqueTablePrefix();
  let bundle: WorkerBundle;
  let miniflare: Miniflare;
  let url: string;
  let started: number;

  beforeAll(async () => {
    started = performance.now();
    bundle = await buildWorkerBundle(
      new URL(`./scenario/${backend.entry}`, import.meta.url).pathname,
      {
        nodejsCompat: backend.nodejsCompat,
      },
    );
    miniflare = new Miniflare({
      modules: true,
      scriptPath: bundle.workerModule,
      modulesRoot: bundle.dir,
      // Late enough that workerd's node:fs is on by default under nodejs_compat: pg requires it
      // when it loads (earlier dates fail with `No such module "node:fs"`).
      compatibilityDate: "2026-03-01",
      compatibilityFlags: backend.nodejsCompat ? ["nodejs_compat"] : [],
      host: "127.0.0.1",
      port: 0,
      cf: false,
      ...backend.bindings(tablePrefix),
      bindings: {
        AUTH_SECRET: SECRET,
        AUTH_TRUST_HOST: "true",
        SCENARIO_PASSWORD: PASSWORD,
        TABLE_PREFIX: tablePrefix,
        ...(backend.bindings(tablePrefix).bindings as Record<string, string> | undefined),
      },
    });
    url = (await miniflare.ready).origin;
  });

  afterAll(async () => {
    try {
      if (miniflare) await backend.drop(miniflare, tablePrefix);
    } finally {
      await miniflare?.dispose();
      bundle?.remove();
      console.info(`${backend.name}: ${Math.round(performance.now() - started)} ms`);
    }
  });

  it("creates its tables from inside the Worker, once", async () => {
    const client = new HttpClient(url);
    const first = await client.fetch("/migrate", { method: "POST" });
    expect(first.status).toBe(200);
    // Every migration there is, whatever the dialect: the names are the same in all of them.
    const all = Object.keys(tesseraMigrations({ dialect: "sqlite" }));
    expect(await first.json()).toEqual(all);
    expect(await (await client.fetch("/migrate", { method: "POST" })).json()).toEqual([]);
  });

  it("signs in with a database session, reads it through the adapter and deletes it on sign-out", async () => {
    const client = new HttpClient(url);
    const csrfToken = await client.csrfToken();
    const signedIn = await client.postForm("/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).not.toContain("error=");
    const token = client.jar.get(SESSION_COOKIE) as string;
    // A database session cookie is the row's key, not a sealed JWT.
    expect(token.split(".")).toHaveLength(1);
    expect(await backend.sessionTokens(miniflare, tablePrefix)).toEqual([token]);

    const read = await client.get("/auth/session");
    expect(((await read.json()) as { user?: unknown }).user).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.com",
    });

    const signedOut = await client.postForm("/auth/signout", {
      csrfToken: await client.csrfToken(),
    });
    expect(signedOut.status).toBe(302);
    expect(await backend.sessionTokens(miniflare, tablePrefix)).toEqual([]);
    expect(await (await client.get("/auth/session")).json()).toBeNull();
  });

  it("answers a forged session cookie with no session, not an error", async () => {
    const client = new HttpClient(url);
    client.jar.set(SESSION_COOKIE, "'; drop table sessions; --");
    const read = await client.get("/auth/session");
    expect(read.status).toBe(200);
    expect(await read.json()).toBeNull();
  });
});

{
  // The suites run in Node; every adapter and store call is posted to the Worker and run there,
  // with pg over workerd's sockets. The adapter suite reads what was stored from Node.
  const tablePrefix = uniqueTablePrefix();
  const nodeDb = createPostgresDb(POSTGRES_URL);
  const readers = sqlConformanceDb(nodeDb, { dialect: "postgres", tablePrefix });
  let bundle: WorkerBundle | undefined;
  let miniflare: Miniflare | undefined;
  let url = "";

  /** One Worker for both suites, started (and its tables created) by the first. */
  let started: Promise<void> | undefined;
  function startWorker(): Promise<void> {
    started ??= (async () => {
      bundle = await buildWorkerBundle(
        new URL("./scenario/postgres-worker.ts", import.meta.url).pathname,
        { nodejsCompat: true },
      );
      miniflare = new Miniflare({
        modules: true,
        scriptPath: bundle.workerModule,
        modulesRoot: bundle.dir,
        compatibilityDate: "2026-03-01",
        compatibilityFlags: ["nodejs_compat"],
        host: "127.0.0.1",
        port: 0,
        cf: false,
        bindings: { DATABASE_URL: POSTGRES_URL, TABLE_PREFIX: tablePrefix, AUTH_SECRET: SECRET },
      });
      url = (await miniflare.ready).origin;
      const migrated = await fetch(`${url}/migrate`, { method: "POST" });
      expect(await migrated.json()).toEqual(
        Object.keys(tesseraMigrations({ dialect: "postgres" })),
      );
    })();
    return started;
  }
  // After both suites (which vitest runs one after the other): tables dropped, Worker stopped.
  afterAll(async () => {
    try {
      if (started) await readers.disconnect?.();
    } finally {
      await miniflare?.dispose();
      bundle?.remove();
    }
  });

  runSharedStoreConformance(
    "sqlStore on PostgreSQL, run inside workerd (pg over workerd sockets)",
    {
      connect: startWorker,
      store: () =>
        remote<SharedStore>(
          `${url}/store`,
          Object.keys(sqlStore(nodeDb, { dialect: "postgres", tablePrefix })),
        ),
    },
  );
  runAdapterConformance("SqlAdapter on PostgreSQL, run inside workerd (pg over workerd sockets)", {
    adapter: () =>
      remote<Adapter>(`${url}/adapter`, Object.keys(SqlAdapter(nodeDb, { dialect: "postgres" }))),
    db: { ...readers, connect: startWorker, disconnect: undefined },
  });
}
