// @ts-check
/**
 * Runs one participant of one in-process scenario in a loop, for CPU profiling:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile.mjs session-jwt tessera 5
 *   node bench/profile-summary.mjs /tmp/prof/<file>.cpuprofile
 *
 * Arguments: scenario id, participant (tessera | authjs | floor), seconds (default 5) or `ops:N`
 * for exactly N operations. Instructions per operation, which the machine's load does not
 * disturb: `node bench/count-instructions.mjs session-db-memory tessera`. `BENCH_SOURCE_ROOT` names
 * another checkout whose sources to bundle (an older revision, to compare: `git worktree add
 * --detach <dir> <revision>`, with `<dir>/node_modules/@tessera/<name>` linked to
 * `../../packages/<name>` as bench/compare-revisions.mjs does).
 */
import { rmSync } from "node:fs";
import { buildTessera } from "./lib/build.mjs";
import { readOptions } from "./lib/options.mjs";
import { scenarios } from "./lib/scenarios.mjs";

const [id = "session-jwt", who = "tessera", seconds = "5"] = process.argv.slice(2);
const scenario = scenarios.find((s) => s.id === id);
if (!scenario)
  throw new Error(`no scenario ${id}; one of ${scenarios.map((s) => s.id).join(", ")}`);
if (who !== "tessera" && who !== "authjs" && who !== "floor")
  throw new Error(`no participant ${who}`);
const build = await buildTessera(process.env.BENCH_SOURCE_ROOT || undefined);
/** @type {import("./lib/fixtures.mjs").TesseraModules} */
const modules = { core: await import(/** @type {string} */ (build.modules.core)) };
for (const name of /** @type {const} */ (["memory", "sql", "redis", "express"])) {
  const path = build.modules[name];
  if (path) modules[name] = await import(path);
}
// Loaded: the bundle's files are no longer needed.
rmSync(build.dir, { recursive: true, force: true });
const setup = await scenario.setup(modules, readOptions(process.env, "."));
if (typeof setup === "string") throw new Error(`skipped: ${setup}`);
const run = setup.run[who];
setup.check(await run(), who);
const cpuBefore = process.cpuUsage();
const start = performance.now();
let ops = 0;
// `ops:N` runs exactly N operations (for instruction counts under callgrind, which compare two
// runs of different lengths); a number runs for that many seconds.
const fixedOps = seconds.startsWith("ops:") ? Number(seconds.slice(4)) : undefined;
while (
  fixedOps === undefined ? performance.now() - start < Number(seconds) * 1000 : ops < fixedOps
) {
  await run();
  ops++;
}
const cpu = process.cpuUsage(cpuBefore);
const wall = (performance.now() - start) / 1000;
console.log(
  `${id} ${who}: ${ops} ops, ${Math.round(ops / wall)}/s wall, ${Math.round(ops / ((cpu.user + cpu.system) / 1e6))}/CPU-s, ${((1e6 * wall) / ops).toFixed(1)} µs/op`,
);
await setup.teardown?.();
