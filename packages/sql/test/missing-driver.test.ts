/**
 * An application without the driver for its database (the drivers are optional peers) is told
 * which package to install ("Install pg to use PostgreSQL…") by a typed MissingDriverError, not
 * Node's bare "Cannot find package". The package is bundled with the drivers left out and run
 * from a folder with no node_modules, so the drivers are really missing.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let dir: string;
let script: string;

const ENTRY = `
import { createMysqlDb, createPostgresDb, createSqliteDb, MissingDriverError } from "./src/index.ts";
const factories = {
  postgres: () => createPostgresDb("postgres://127.0.0.1:5432/test"),
  mysql: () => createMysqlDb("mysql://root@127.0.0.1:3306/test"),
  sqlite: () => createSqliteDb(":memory:"),
};
const db = factories[process.argv[2]]();
try {
  await db.selectFrom("users").select("id").execute();
  console.log(JSON.stringify({ ok: true }));
} catch (error) {
  console.log(JSON.stringify({
    isMissingDriverError: error instanceof MissingDriverError,
    name: error.name,
    driver: error.driver,
    message: error.message,
    causeCode: error.cause?.code,
  }));
}
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tessera-no-driver-"));
  script = join(dir, "query.mjs");
  await build({
    stdin: { contents: ENTRY, resolveDir: join(import.meta.dirname, ".."), loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["tessera-source"],
    external: ["pg", "mysql2", "better-sqlite3"],
    outfile: script,
    logLevel: "silent",
  });
  await writeFile(join(dir, "package.json"), '{ "type": "module" }');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function firstQuery(database: string): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [script, database], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  const [code] = await once(child, "exit");
  expect(code).toBe(0);
  return JSON.parse(output) as Record<string, unknown>;
}

describe("a missing database driver", () => {
  const cases = [
    { database: "postgres", driver: "pg", name: "PostgreSQL" },
    { database: "mysql", driver: "mysql2", name: "MySQL or MariaDB" },
    { database: "sqlite", driver: "better-sqlite3", name: "SQLite" },
  ];
  for (const { database, driver, name } of cases) {
    it(`says "install ${driver} to use ${name}" when ${driver} is not installed`, async () => {
      const result = await firstQuery(database);
      expect(result).toMatchObject({
        isMissingDriverError: true,
        name: "MissingDriverError",
        driver,
        causeCode: "ERR_MODULE_NOT_FOUND",
      });
      expect(result.message).toMatch(
        new RegExp(`^Install ${driver} to use ${name} with @tessera/sql \\(npm i ${driver}\\)`),
      );
    });
  }
});
