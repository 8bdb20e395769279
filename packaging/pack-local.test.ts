/**
 * `npm run pack:local`, the way to install Tessera before its first publish: it packs every
 * package into one folder and prints the `npm i` line for the packages named, with the @tessera
 * packages they depend on. The printed line is run as it is in a fresh app outside the workspace
 * (the @tessera packages come from the folder, their other dependencies from npm's cache), and
 * the app imports what it installed.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exec, ROOT } from "../packages/core/test/fixtures/build.js";

const BUILD_LOCK = "/tmp/tessera-tsc-build.lock";
const SCRIPT = join(ROOT, "scripts/pack-local.mjs");

/** Environment for the app's own npm and node: nothing inherited from the workspace's npm run. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")),
  );
}

/** Runs a command in `cwd` with the clean environment. */
function run(command: string, args: string[], cwd: string) {
  return exec(command, args, cwd, cleanEnv());
}

let workdir = "";
let packed = "";
let printed = "";

describe("npm run pack:local", () => {
  beforeAll(async () => {
    workdir = mkdtempSync(join(tmpdir(), "tessera-pack-local-"));
    packed = join(workdir, "packed");
    // Its build (tsc -b) runs under the lock that every building test takes.
    const pack = await run(
      "flock",
      [BUILD_LOCK, process.execPath, SCRIPT, "express", "@tessera/sql", "--out", packed],
      ROOT,
    );
    if (pack.code !== 0) throw new Error(`pack:local failed:\n${pack.output}`);
    printed = pack.stdout;
  }, 900_000);

  afterAll(() => {
    if (workdir) rmSync(workdir, { recursive: true, force: true });
  });

  it("packs every package into the folder", () => {
    for (const name of [
      "core",
      "adapter-test",
      "memory",
      "sql",
      "redis",
      "express",
      "next",
      "sveltekit",
    ])
      expect(existsSync(join(packed, `tessera-${name}-0.1.0.tgz`)), name).toBe(true);
  });

  it("prints one npm i line with the named packages and the @tessera packages they need", () => {
    const line = printed.split("\n").find((text) => text.startsWith("npm i "));
    expect(line).toBe(
      `npm i ${["core", "sql", "express"].map((name) => join(packed, `tessera-${name}-0.1.0.tgz`)).join(" ")}`,
    );
  });

  it("installs from that line into a fresh app, which then imports the packages", async () => {
    const app = join(workdir, "app");
    mkdirSync(app);
    writeFileSync(
      join(app, "package.json"),
      '{ "name": "pack-local-app", "private": true, "type": "module" }\n',
    );
    const line = printed.split("\n").find((text) => text.startsWith("npm i ")) ?? "";
    const install = await run(
      "npm",
      [
        ...line.split(" ").slice(1),
        "pg",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
      ],
      app,
    );
    expect(install.code, install.output).toBe(0);
    const imported = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const core = await import("@tessera/core");
const express = await import("@tessera/express");
const sql = await import("@tessera/sql");
console.log(typeof core.Auth, typeof express.ExpressAuth, typeof sql.SqlAdapter);`,
      ],
      app,
    );
    expect(imported.output.trim()).toBe("function function function");
  }, 600_000);

  it("refuses a package that does not exist, naming the ones that do", async () => {
    const result = await run(process.execPath, [SCRIPT, "@tessera/nope"], ROOT);
    expect(result.code).toBe(1);
    expect(result.output).toContain('there is no package "@tessera/nope"');
    expect(result.output).toContain("@tessera/express");
  });
});
