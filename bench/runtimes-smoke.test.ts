/**
 * The runtime bench still works: a tiny run (BENCH_SMOKE=1) on every runtime, results written to
 * a temporary folder. Speed is not asserted here (see bench/RUNTIMES.md for the real figures).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "tessera-bench-runtimes-smoke-"));

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("npm run bench:runtimes (smoke run)", () => {
  it("reads the session with both libraries on every runtime and writes RUNTIMES.md", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(root, "bench/runtimes.mjs")],
      { cwd: root, env: { ...process.env, BENCH_SMOKE: "1", BENCH_OUT: out } },
    );
    const report = readFileSync(join(out, "RUNTIMES.md"), "utf8");
    for (const runtime of [
      "Node",
      "Bun",
      "Deno",
      "workerd",
      "workerd with nodejs_compat",
      "Edge Runtime",
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${runtime} +Tessera +[\\d,]+ reads/s`, "m"));
      expect(report).toMatch(
        new RegExp(`^\\| ${runtime} \\| [\\d,]+ \\| [\\d,]+ \\| [\\d.]+× \\|$`, "m"),
      );
    }
  }, 180_000);
});
