// @ts-check
/**
 * The memory scenario: RSS and heap after many JWT session reads, per library, each in a fresh
 * process (the two run side by side: this measures memory, not speed).
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * @typedef {{ rss: number, heapUsed: number }} Snapshot
 * @typedef {object} MemoryResult
 * @property {string} who
 * @property {number} reads
 * @property {number} seconds
 * @property {Snapshot} baseline after warm-up
 * @property {Snapshot[]} after    after each round
 * @property {number} heapGrowth   heap after the last round minus after the first
 * @property {number} rssGrowth    RSS after the last round minus after the first
 * @property {boolean} grows       true when the heap keeps growing across rounds
 */

/** Heap growth from the first to the last round above this many bytes counts as growth. */
const GROWTH_TOLERANCE = 1024 * 1024;

/**
 * @param {string} who
 * @param {number} reads
 * @param {number} rounds
 * @param {string} corePath
 * @returns {Promise<MemoryResult>}
 */
function measure(who, reads, rounds, corePath) {
  const child = fork(
    fileURLToPath(new URL("./memory-child.mjs", import.meta.url)),
    [who, String(reads), String(rounds)],
    {
      execArgv: ["--expose-gc"],
      env: { ...process.env, BENCH_TESSERA_CORE: corePath, NODE_ENV: "production" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`memory run of ${who} exited with ${code}`)));
    child.once("message", (message) => {
      child.removeAllListeners("exit");
      const data = /** @type {Omit<MemoryResult, "heapGrowth" | "rssGrowth" | "grows">} */ (
        message
      );
      const first = /** @type {Snapshot} */ (data.after[0]);
      const last = /** @type {Snapshot} */ (data.after.at(-1));
      const heapGrowth = last.heapUsed - first.heapUsed;
      const rssGrowth = last.rss - first.rss;
      resolve({
        ...data,
        heapGrowth,
        rssGrowth,
        grows: data.after.length > 1 && heapGrowth > GROWTH_TOLERANCE,
      });
    });
  });
}

/**
 * @param {Record<string, string | undefined>} modulePaths
 * @param {import("./options.mjs").BenchOptions} options
 * @param {(line: string) => void} log
 * @returns {Promise<MemoryResult[]>}
 */
export async function runMemory(modulePaths, options, log) {
  const core = /** @type {string} */ (modulePaths.core);
  const results = await Promise.all([
    measure("tessera", options.memoryReads, options.memoryRounds, core),
    measure("authjs", options.memoryReadsAuthjs, options.memoryRounds, core),
  ]);
  const mb = (/** @type {number} */ bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  for (const r of results) {
    const last = /** @type {Snapshot} */ (r.after.at(-1));
    log(
      `  ${r.who.padEnd(8)} ${r.reads} reads: heap ${mb(r.baseline.heapUsed)} → ${mb(last.heapUsed)}, RSS ${mb(r.baseline.rss)} → ${mb(last.rss)}, growth from round 1 to ${r.after.length}: heap ${mb(r.heapGrowth)}, RSS ${mb(r.rssGrowth)}${r.grows ? " (GROWS)" : ""}`,
    );
  }
  return results;
}
