/**
 * @tessera/sql on Cloudflare D1. The suites run in Node (vitest) against the D1 binding that
 * Miniflare's `getD1Database()` hands out: every statement and batch executes in workerd's own
 * D1 implementation (SQLite inside a Durable Object, as deployed), and only the calls cross into
 * Node. Running vitest itself inside workerd would test the same D1 through a less faithful
 * harness; runtimes/databases.test.ts runs the adapter's bundle inside workerd instead.
 */
import { runAdapterConformance, runSharedStoreConformance } from "@tessera/adapter-test";
import { Miniflare } from "miniflare";
import { afterAll, describe, expect, it } from "vitest";
import {
  createD1Db,
  type D1DatabaseHandle,
  D1UnsupportedError,
  dropSchema,
  migrate,
  SqlAdapter,
  sqlStore,
  TableClashError,
  tesseraMigrations,
} from "../src/d1.js";
import { sqlConformanceDb, uniqueTablePrefix } from "./support.js";

const miniflare = new Miniflare({
  modules: true,
  script: "export default { fetch: () => new Response(null, { status: 404 }) }",
  d1Databases: { DB: "tessera-d1-test" },
  compatibilityDate: "2025-09-01",
  cf: false,
});
const binding = (await miniflare.getD1Database("DB")) as unknown as D1DatabaseHandle;

/** Each suite closes its Kysely instance; Miniflare goes once every suite is done. */
let open = 0;
async function closeOne(): Promise<void> {
  open -= 1;
  if (open === 0) await miniflare.dispose();
}
function opened<T>(value: T): T {
  open += 1;
  return value;
}

{
  const db = opened(createD1Db(binding));
  const tablePrefix = uniqueTablePrefix();
  runAdapterConformance("SqlAdapter on Cloudflare D1 (batch instead of transactions)", {
    adapter: SqlAdapter(db, { dialect: "sqlite", tablePrefix }),
    db: sqlConformanceDb(db, { dialect: "sqlite", tablePrefix, afterClose: closeOne }),
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
  const db = opened(createD1Db(binding));
  const tablePrefix = uniqueTablePrefix();
  runSharedStoreConformance("sqlStore on Cloudflare D1 (compare-and-set instead of transactions)", {
    connect: () => migrate(db, { dialect: "sqlite", tablePrefix }).then(() => undefined),
    store: () => sqlStore(db, { dialect: "sqlite", tablePrefix }),
    async disconnect() {
      try {
        await dropSchema(db, { dialect: "sqlite", tablePrefix });
      } finally {
        await closeOne();
      }
    },
  });
}

describe("migrations on Cloudflare D1", () => {
  const db = opened(createD1Db(binding));
  afterAll(closeOne);

  it("applies every migration in one batch, and nothing on the second run", async () => {
    const tablePrefix = uniqueTablePrefix();
    const applied = await migrate(db, { dialect: "sqlite", tablePrefix });
    expect(applied).toEqual([
      "0001_create_tables",
      "0002_session_metadata_and_shared_store",
      "0003_exact_store_keys",
      "0004_two_factor",
      "0005_passkey_details",
      "0006_organizations",
      "0007_passwords",
      "0008_admin_user_roles_and_bans",
      "0009_organization_roles",
    ]);
    expect(await migrate(db, { dialect: "sqlite", tablePrefix })).toEqual([]);
    await dropSchema(db, { dialect: "sqlite", tablePrefix });
  });

  it("applies them once when two processes migrate at the same moment", async () => {
    const tablePrefix = uniqueTablePrefix();
    const [first, second] = await Promise.all([
      migrate(createD1Db(binding), { dialect: "sqlite", tablePrefix }),
      migrate(createD1Db(binding), { dialect: "sqlite", tablePrefix }),
    ]);
    const all = Object.keys(tesseraMigrations({ dialect: "sqlite", tablePrefix })).length;
    expect([first, second].map((names) => names.length).sort()).toEqual([0, all]);
    await dropSchema(db, { dialect: "sqlite", tablePrefix });
  });

  it("refuses to build around another schema's table and creates nothing", async () => {
    const tablePrefix = uniqueTablePrefix();
    await binding.prepare(`create table ${tablePrefix}sessions (id integer)`).all();
    await expect(migrate(db, { dialect: "sqlite", tablePrefix })).rejects.toBeInstanceOf(
      TableClashError,
    );
    const { results } = await binding
      .prepare("select name from sqlite_master where type = 'table' and name like ?")
      .bind(`${tablePrefix}%`)
      .all();
    expect(results).toEqual([{ name: `${tablePrefix}sessions` }]);
    await binding.prepare(`drop table ${tablePrefix}sessions`).all();
  });

  it("rolls the whole batch back when a statement of it fails", async () => {
    const tablePrefix = uniqueTablePrefix();
    // The bookkeeping table exists with a column missing: the batch's last insert fails, after
    // every create table of the batch has run.
    await binding
      .prepare(`create table ${tablePrefix}tessera_migration (name varchar(255) primary key)`)
      .all();
    await expect(migrate(db, { dialect: "sqlite", tablePrefix })).rejects.toThrow(
      /Tessera migration failed/,
    );
    const { results } = await binding
      .prepare("select name from sqlite_master where type = 'table' and name like ?")
      .bind(`${tablePrefix}%`)
      .all();
    expect(results).toEqual([{ name: `${tablePrefix}tessera_migration` }]);
    await binding.prepare(`drop table ${tablePrefix}tessera_migration`).all();
  });

  it("refuses db.transaction() with an error that names batch() as the fix", async () => {
    const attempt = db.transaction().execute(async () => "never");
    await expect(attempt).rejects.toBeInstanceOf(D1UnsupportedError);
    await expect(attempt).rejects.toThrow(/D1Database\.batch/);
  });
});
