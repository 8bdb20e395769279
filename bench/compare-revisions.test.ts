/**
 * `node bench/compare-revisions.mjs` still works: a short run (BENCH_SMOKE=1) of this checkout
 * against itself (given as a directory) measures every session read, in-process and over HTTP, for both revisions.
 * Speed is not asserted (the figures of a real run are in bench/RESULTS.md).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("bench/compare-revisions.mjs (smoke run)", () => {
  it("measures every session read for the base and this checkout and prints their ratios", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      // This checkout against itself, given as a directory: no git history needed.
      [fileURLToPath(new URL("./compare-revisions.mjs", import.meta.url)), root],
      { cwd: root, env: { ...process.env, BENCH_SMOKE: "1" }, maxBuffer: 10 * 1024 * 1024 },
    );
    const rows = new Map(
      [
        ...stdout.matchAll(/^\| ([^|]+) \| ([\d,]+) [^|]+ \| ([\d,]+) [^|]+ \| ([\d.]+)× \|$/gm),
      ].map((match) => [match[1], { base: match[2], head: match[3], ratio: Number(match[4]) }]),
    );
    expect([...rows.keys()].sort()).toEqual(
      [
        "in-process session-jwt",
        "in-process session-db-memory",
        "in-process session-db-sqlite",
        "in-process session-db-postgres",
        "in-process session-db-redis",
        "one process session-jwt CPU per read",
        "one process session-db-memory CPU per read",
        "one process session-db-sqlite CPU per read",
        "one process session-db-postgres CPU per read",
        "one process session-db-redis CPU per read",
        "HTTP node-tessera requests/s",
        "HTTP node-tessera server CPU per request",
        "HTTP node-tessera-db requests/s",
        "HTTP node-tessera-db server CPU per request",
      ].sort(),
    );
    for (const [measure, row] of rows) {
      expect(row.base, measure).not.toBe("0");
      expect(row.head, measure).not.toBe("0");
      expect(row.ratio, measure).toBeGreaterThan(0);
    }
  }, 300_000);
});
