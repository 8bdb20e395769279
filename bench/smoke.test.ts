/**
 * The benchmark script still works: a tiny run (BENCH_SMOKE=1) of every scenario, the HTTP
 * targets and the memory runs, with results written to a temporary folder. Speed is not
 * asserted here (see bench/RESULTS.md for the real figures).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

interface Participant {
  opsPerSecond: number;
  samples: number;
}
interface Results {
  inProcess: {
    id: string;
    skipped?: string;
    tessera?: Participant;
    authjs?: Participant;
    floor?: Participant;
    ratio?: number;
  }[];
  http: { id: string; requestsPerSecond: number; errors: number }[];
  memory: { who: string; reads: number; after: { heapUsed: number }[] }[];
}

const root = fileURLToPath(new URL("..", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "tessera-bench-smoke-"));

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("npm run bench (smoke run)", () => {
  it("runs every scenario through Tessera, @auth/core and the floor and writes its results", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, "bench/run.mjs")], {
      cwd: root,
      env: { ...process.env, BENCH_SMOKE: "1", BENCH_OUT: out },
      maxBuffer: 10 * 1024 * 1024,
    });
    expect(stdout).toContain("results written to");

    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as Results;
    expect(results.inProcess.map((r) => r.id).sort()).toEqual(
      [
        "csrf",
        "jwt-decode",
        "jwt-encode",
        "providers",
        "session-db-memory",
        "session-db-postgres",
        "session-db-postgres-named",
        "session-db-sqlite",
        "session-db-redis",
        "session-jwt",
        "session-jwt-denylist",
        "session-jwt-denylist-every-read",
        "session-none",
        "signin-credentials",
      ].sort(),
    );
    for (const scenario of results.inProcess) {
      expect(scenario.skipped, scenario.id).toBeUndefined();
      for (const participant of [scenario.tessera, scenario.authjs, scenario.floor]) {
        expect(participant?.samples, scenario.id).toBeGreaterThan(0);
        expect(participant?.opsPerSecond, scenario.id).toBeGreaterThan(0);
      }
      expect(scenario.ratio, scenario.id).toBeGreaterThan(0);
    }

    // The targets the ratios need ran (bench/lib/http.mjs lists them all), each once.
    const ids = results.http.map((h) => h.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "bridge-direct",
        "bridge-tessera",
        "bridge-authjs",
        "node-direct",
        "node-tessera",
        "express-direct",
        "express-tessera",
        "express-authjs",
      ]),
    );
    expect(new Set(ids).size).toBe(ids.length);
    for (const target of results.http) {
      expect(target.requestsPerSecond, target.id).toBeGreaterThan(0);
      expect(target.errors, target.id).toBe(0);
    }

    expect(results.memory.map((m) => m.who).sort()).toEqual(["authjs", "tessera"]);
    for (const run of results.memory) expect(run.after.length).toBeGreaterThan(0);

    expect(readFileSync(join(out, "ratios.svg"), "utf8")).toMatch(/^<svg [^>]*>[\s\S]*<\/svg>\s*$/);
    const report = readFileSync(join(out, "RESULTS.md"), "utf8");
    expect(report).toContain("<!-- bench:results:start -->");
    expect(report).toMatch(/\| GET \/session, JWT cookie +\|/);
  }, 120_000);
});
