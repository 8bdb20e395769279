/**
 * The `tessera` command line, run as a child process the way `npx tessera …` runs it:
 * `secret` (print, write, keep, replace) and `migrate` (a SQLite database through the project's
 * own @tessera/sql).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const CLI = join(ROOT, "packages", "core", "bin", "tessera.mjs");
const run = promisify(execFile);

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function tessera(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const SECRET_LINE = /^AUTH_SECRET="([A-Za-z0-9+/]{43}=)"$/m;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "tessera-cli-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("tessera secret", () => {
  it("prints a fresh 256-bit secret with --raw and writes nothing", async () => {
    const cwd = await mkdtemp(join(work, "raw-"));
    const first = await tessera(cwd, ["secret", "--raw"]);
    const second = await tessera(cwd, ["secret", "--raw"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    expect(Buffer.from(first.stdout.trim(), "base64")).toHaveLength(32);
    expect(second.stdout).not.toBe(first.stdout);
    await expect(stat(join(cwd, ".env"))).rejects.toThrow();
  });

  it("adds AUTH_SECRET to .env (owner-only), keeps other lines, and never silently replaces one", async () => {
    const cwd = await mkdtemp(join(work, "write-"));
    const created = await tessera(cwd, ["secret"]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("Added AUTH_SECRET in .env");
    const env = await readFile(join(cwd, ".env"), "utf8");
    const secret = SECRET_LINE.exec(env)?.[1];
    expect(secret).toBeDefined();
    expect((await stat(join(cwd, ".env"))).mode & 0o777).toBe(0o600);

    // A second run keeps the secret (replacing it would sign everyone out) and offers a new one.
    const kept = await tessera(cwd, ["secret"]);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain("already has an AUTH_SECRET; it was kept");
    expect(SECRET_LINE.exec(kept.stdout)?.[1]).not.toBe(secret);
    expect(await readFile(join(cwd, ".env"), "utf8")).toBe(env);

    const replaced = await tessera(cwd, ["secret", "--force"]);
    expect(replaced.stdout).toContain("Replaced AUTH_SECRET in .env");
    const after = await readFile(join(cwd, ".env"), "utf8");
    expect(after.match(/AUTH_SECRET=/g)).toHaveLength(1);
    expect(SECRET_LINE.exec(after)?.[1]).not.toBe(secret);
  });

  it("prefers .env.local when it exists, appends after existing lines, and honours --file", async () => {
    const cwd = await mkdtemp(join(work, "local-"));
    await writeFile(join(cwd, ".env.local"), "DATABASE_URL=sqlite:./x.sqlite");
    await tessera(cwd, ["secret"]);
    const local = await readFile(join(cwd, ".env.local"), "utf8");
    expect(local.startsWith("DATABASE_URL=sqlite:./x.sqlite\n")).toBe(true);
    expect(local).toMatch(SECRET_LINE);

    await tessera(cwd, ["secret", "--file", "config/app.env"]).then((result) =>
      expect(result.code).not.toBe(0),
    );
    await mkdir(join(cwd, "config"));
    expect((await tessera(cwd, ["secret", "--file", "config/app.env"])).code).toBe(0);
    expect(await readFile(join(cwd, "config", "app.env"), "utf8")).toMatch(SECRET_LINE);
  });

  it("names unknown commands and options instead of failing with a stack trace", async () => {
    const unknown = await tessera(work, ["secrets"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown command "secrets"');
    const option = await tessera(work, ["secret", "--rwa"]);
    expect(option.code).toBe(1);
    expect(option.stderr).toMatch(/^tessera: Unknown option '--rwa'/);
    expect(option.stderr).not.toMatch(/\n\s+at /);
    expect((await tessera(work, ["help"])).stdout).toContain("Usage: tessera <command>");
  });

  it("prints the help and fails when run without a command, so a script notices", async () => {
    const bare = await tessera(work, []);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain("tessera: no command given.");
    expect(bare.stderr).toContain("Usage: tessera <command>");
    expect(bare.stdout).toBe("");
    const help = await tessera(work, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: tessera <command>");
  });
});

describe("tessera migrate", () => {
  let project: string;

  beforeAll(async () => {
    // An application with its own @tessera/sql, built from the sources. It lives inside the
    // repository so that the drivers (kysely, better-sqlite3) resolve from its node_modules.
    project = await mkdtemp(join(ROOT, "node_modules", ".tessera-cli-test-"));
    await writeFile(join(project, "package.json"), '{ "name": "app", "type": "module" }');
    const sql = join(project, "node_modules", "@tessera", "sql");
    await mkdir(sql, { recursive: true });
    await writeFile(
      join(sql, "package.json"),
      '{ "name": "@tessera/sql", "type": "module", "exports": { ".": "./index.js" } }',
    );
    await build({
      entryPoints: [join(ROOT, "packages", "sql", "src", "index.ts")],
      outfile: join(sql, "index.js"),
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      logLevel: "silent",
    });
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it("creates Tessera's tables at DATABASE_URL, then reports the schema up to date", async () => {
    const file = join(project, "auth.sqlite");
    const first = await tessera(project, ["migrate"], { DATABASE_URL: `sqlite:${file}` });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/: applied .+\.\n$/);
    const db = new Database(file, { readonly: true });
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' order by name")
      .all()
      .map((row) => (row as { name: string }).name);
    db.close();
    expect(tables).toEqual(
      expect.arrayContaining([
        "accounts",
        "authenticators",
        "sessions",
        "users",
        "verification_tokens",
      ]),
    );

    const second = await tessera(project, ["migrate", "--url", `sqlite:${file}`]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("Tessera's tables are up to date.");
  });

  it("applies a table prefix and hides a URL's password in its output", async () => {
    const file = join(project, "prefixed.sqlite");
    const result = await tessera(project, [
      "migrate",
      "--url",
      `sqlite:${file}`,
      "--table-prefix",
      "auth_",
    ]);
    expect(result.code).toBe(0);
    const db = new Database(file, { readonly: true });
    const names = db.prepare("select name from sqlite_master where type = 'table'").all();
    db.close();
    expect(names).toContainEqual({ name: "auth_users" });

    // Nothing listens there: the command fails, naming the problem, without the password.
    const failed = await tessera(project, [
      "migrate",
      "--url",
      "postgres://app:hunter2@127.0.0.1:1/db",
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^tessera: /);
    expect(failed.stdout + failed.stderr).not.toContain("hunter2");
  });

  it("explains what is missing: the URL, or @tessera/sql in the project", async () => {
    const noUrl = await tessera(project, ["migrate"]);
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toContain("set DATABASE_URL or pass --url");

    const bare = await mkdtemp(join(work, "bare-"));
    const noPackage = await tessera(bare, ["migrate", "--url", "sqlite:./auth.sqlite"]);
    expect(noPackage.code).toBe(1);
    expect(noPackage.stderr).toContain("npm install @tessera/sql");
  });

  it("refuses a SQLite URL without a file, whose tables would vanish when the command exits", async () => {
    for (const url of ["sqlite:", "file:", "sqlite::memory:"]) {
      const result = await tessera(project, ["migrate", "--url", url]);
      expect(result.code, url).toBe(1);
      expect(result.stderr, url).toContain("names no database file");
      expect(result.stderr, url).toContain("--url sqlite:./auth.sqlite");
    }
  });

  it("refuses to migrate beside the application's own users table, suggests --table-prefix and creates nothing", async () => {
    const file = join(project, "clash.sqlite");
    const existing = new Database(file);
    existing.exec("create table users (id integer primary key, login text)");
    existing.close();

    const clash = await tessera(project, ["migrate", "--url", `sqlite:${file}`]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('"users" already exists');
    expect(clash.stderr).toContain("--table-prefix");
    expect(clash.stderr).not.toMatch(/\n\s+at /);
    const tablesOf = () => {
      const db = new Database(file, { readonly: true });
      const names = db
        .prepare("select name from sqlite_master where type = 'table' order by name")
        .all()
        .map((row) => (row as { name: string }).name);
      db.close();
      return names;
    };
    expect(tablesOf()).toEqual(["users"]);

    const prefixed = await tessera(project, [
      "migrate",
      "--url",
      `sqlite:${file}`,
      "--table-prefix",
      "auth_",
    ]);
    expect(prefixed.code).toBe(0);
    expect(tablesOf()).toEqual(expect.arrayContaining(["users", "auth_users", "auth_accounts"]));
  });
});
