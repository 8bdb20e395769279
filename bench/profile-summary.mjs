// @ts-check
/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self and total time per function, and self time
 * per file, so that a hot path can be read without a GUI.
 *
 * Usage: node bench/profile-summary.mjs <file.cpuprofile> [rows=25] [filter] [ops]
 * With `ops` (the operations the profiled run made), times are also shown in µs per operation.
 */
import { readFileSync } from "node:fs";

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, hitCount?: number, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[], startTime: number, endTime: number }} Profile
 */

/**
 * Self and total sample shares per function and self share per file.
 *
 * @param {Profile} profile
 * @example
 * ```js
 * const { functions, files } = summarise(JSON.parse(readFileSync("CPU.cpuprofile", "utf8")))
 * ```
 */
export function summarise(profile) {
  /** @type {Map<number, ProfileNode>} */
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  /** @type {Map<number, number>} */
  const selfTime = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = /** @type {number} */ (profile.samples[i]);
    selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = profile.endTime - profile.startTime;
  /** @param {ProfileNode} node */
  const label = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url
      .replace(/^.*\/(node_modules\/(?:@[^/]+\/)?[^/]+|packages\/[^/]+\/src)\//, "$1/")
      .replace(/^.*\//, (m) => (url.includes("node_modules") || url.includes("packages") ? m : m));
    return `${functionName || "(anonymous)"} ${file || "(native)"}:${lineNumber + 1}`;
  };
  /** @type {Map<string, { self: number, total: number }>} */
  const functions = new Map();
  /** @type {Map<string, number>} */
  const files = new Map();
  for (const [id, time] of selfTime) {
    const node = /** @type {ProfileNode} */ (byId.get(id));
    const key = label(node);
    const entry = functions.get(key) ?? { self: 0, total: 0 };
    entry.self += time;
    functions.set(key, entry);
    const file = node.callFrame.url || `(${node.callFrame.functionName})`;
    files.set(file, (files.get(file) ?? 0) + time);
    // Total time: every distinct function on the stack gets the sample once.
    /** @type {Set<string>} */
    const seen = new Set();
    for (
      let cursor = /** @type {number | undefined} */ (id);
      cursor !== undefined;
      cursor = parent.get(cursor)
    ) {
      const frame = label(/** @type {ProfileNode} */ (byId.get(cursor)));
      if (seen.has(frame)) continue;
      seen.add(frame);
      const e = functions.get(frame) ?? { self: 0, total: 0 };
      e.total += time;
      functions.set(frame, e);
    }
  }
  return { total, functions, files };
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ""));
if (isMain) {
  const [file, rowsArg = "25", filter = "", opsArg] = process.argv.slice(2);
  if (!file) {
    console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [rows] [filter] [ops]");
    process.exit(2);
  }
  const { total, functions, files } = summarise(JSON.parse(readFileSync(file, "utf8")));
  const rows = Number(rowsArg);
  const ops = Number(opsArg ?? 0);
  const pct = (/** @type {number} */ t) =>
    `${((100 * t) / total).toFixed(1).padStart(5)}%${ops ? ` ${(t / ops).toFixed(1).padStart(6)} µs` : ""}`;
  console.log(`profile: ${(total / 1e6).toFixed(2)} s sampled`);
  console.log("\nself time by function");
  for (const [name, t] of [...functions]
    .filter(([n]) => n.includes(filter))
    .sort((a, b) => b[1].self - a[1].self)
    .slice(0, rows))
    console.log(`${pct(t.self)} self ${pct(t.total)} total  ${name}`);
  console.log("\ntotal time by function");
  for (const [name, t] of [...functions]
    .filter(([n]) => n.includes(filter))
    .sort((a, b) => b[1].total - a[1].total)
    .slice(0, rows))
    console.log(`${pct(t.total)} total ${pct(t.self)} self  ${name}`);
  console.log("\nself time by file");
  for (const [name, t] of [...files].sort((a, b) => b[1] - a[1]).slice(0, rows))
    console.log(`${pct(t)}  ${name}`);
}
