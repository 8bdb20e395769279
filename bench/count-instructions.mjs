// @ts-check
/**
 * Counts the instructions one in-process operation costs, under valgrind's callgrind (which
 * counts instructions, so other processes on the machine do not disturb the figure):
 *
 *   node bench/count-instructions.mjs session-db-memory tessera [short=2000] [long=6000]
 *
 * It runs bench/profile.mjs twice, for `short` and `long` operations, and divides the difference
 * of the two totals by the difference of the counts, so start-up, bundling and warm-up cancel out.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [id = "session-jwt", who = "tessera", short = "2000", long = "6000"] = process.argv.slice(2);

/** Total instructions of one run of `ops` operations. */
function instructions(/** @type {number} */ ops) {
  const dir = mkdtempSync(join(tmpdir(), "tessera-callgrind-"));
  try {
    execFileSync(
      "valgrind",
      [
        "--tool=callgrind",
        `--callgrind-out-file=${dir}/callgrind.out`,
        process.execPath,
        "bench/profile.mjs",
        id,
        who,
        `ops:${ops}`,
      ],
      { stdio: ["ignore", "ignore", "ignore"] },
    );
    const out = readFileSync(join(dir, readdirSync(dir)[0] ?? "callgrind.out"), "utf8");
    const totals = /^(?:summary|totals): (\d+)/m.exec(out);
    if (!totals) throw new Error("callgrind wrote no totals");
    return Number(totals[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [a, b] = [Number(short), Number(long)];
const perOp = (instructions(b) - instructions(a)) / (b - a);
console.log(`${id} ${who}: ${Math.round(perOp).toLocaleString("en-US")} instructions/operation`);
