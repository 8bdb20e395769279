// @ts-check
/**
 * `npm run bench`: Tessera against @auth/core, scenario by scenario, in one run, plus the floor
 * (the same work done directly). Prints the results and writes results.json, ratios.svg and the
 * generated part of RESULTS.md (into BENCH_OUT, default this folder).
 *
 * Settings come from environment variables (lib/options.mjs): BENCH_ROUNDS, BENCH_ROUND_MS,
 * BENCH_HTTP_SECONDS, BENCH_MEMORY_READS, BENCH_ONLY=inprocess,http,memory or scenario ids, …;
 * BENCH_SMOKE=1 runs tiny counts only to prove the script works. `--render` measures nothing and
 * rewrites RESULTS.md and ratios.svg from the last results.json.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildTessera } from "./lib/build.mjs";
import { runHttp } from "./lib/http.mjs";
import { runInProcess } from "./lib/inprocess.mjs";
import { runMemory } from "./lib/memory.mjs";
import { readOptions, selected } from "./lib/options.mjs";
import { render, targets, writeResults } from "./lib/report.mjs";

const benchDir = fileURLToPath(new URL(".", import.meta.url));
const options = readOptions(process.env, benchDir);
const log = (/** @type {string} */ line) => console.log(line);
if (process.argv.includes("--render")) {
  render(JSON.parse(readFileSync(join(options.outDir, "results.json"), "utf8")), options.outDir);
  log(`RESULTS.md and ratios.svg rewritten from ${join(options.outDir, "results.json")}`);
  process.exit(0);
}
const started = performance.now();
const loadBefore = os.loadavg();

const build = await buildTessera();
try {
  for (const [name, failure] of Object.entries(build.failures))
    log(`@tessera/${name} does not build: ${failure}`);
  if (!build.modules.core) throw new Error("@tessera/core does not build; nothing to measure");
  /** @type {import("./lib/fixtures.mjs").TesseraModules} */
  const modules = { core: await import(build.modules.core) };
  for (const name of /** @type {const} */ (["memory", "sql", "express"])) {
    const path = build.modules[name];
    if (path) modules[name] = await import(path);
  }

  log(
    `Tessera vs @auth/core, Node ${process.version}, ${os.availableParallelism()} CPUs, load ${loadBefore.map((l) => l.toFixed(2)).join(" ")}`,
  );
  log("in-process (ops/s wall clock; ratio Tessera ÷ @auth/core; Tessera's cost in floors):");
  const inProcess = await runInProcess(build.modules, options, log);
  const http = [];
  if (selected(options, "http")) {
    log("HTTP (autocannon):");
    http.push(...(await runHttp(modules, build.modules, options, log)));
  }
  const memory = [];
  if (selected(options, "memory")) {
    log("memory:");
    memory.push(...(await runMemory(build.modules, options, log)));
  }

  /** @type {import("./lib/report.mjs").BenchRun} */
  const run = {
    date: new Date().toISOString(),
    seconds: (performance.now() - started) / 1000,
    loadBefore,
    loadAfter: os.loadavg(),
    options,
    inProcess,
    http,
    memory,
  };
  log("targets:");
  for (const t of targets(run)) {
    const value = t.value === undefined ? "–" : t.value.toFixed(2);
    log(
      `  ${t.met === undefined ? "  ?" : t.met ? " ok" : "MISS"}  ${t.name}: ${value} (goal ${t.goal})`,
    );
  }
  if (options.writeResults) {
    mkdirSync(options.outDir, { recursive: true });
    writeResults(run, options.outDir);
    log(`results written to ${options.outDir} (RESULTS.md, results.json, ratios.svg)`);
  }
  log(`done in ${Math.round(run.seconds)} s`);
} finally {
  rmSync(build.dir, { recursive: true, force: true });
}
