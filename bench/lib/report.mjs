// @ts-check
/**
 * Turns the measurements into the console table, `results.json`, `ratios.svg` and the generated
 * section of `RESULTS.md` (between the two marker comments; the hand-written analysis around
 * them is kept).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ratioChart } from "./chart.mjs";
import { httpCpuRatio, httpRatio } from "./http.mjs";
import { median } from "./measure.mjs";

const START = "<!-- bench:results:start -->";
const END = "<!-- bench:results:end -->";

/**
 * @typedef {object} BenchRun
 * @property {string} date
 * @property {number} seconds
 * @property {number[]} loadBefore 1, 5, 15-minute load averages before the run
 * @property {number[]} loadAfter
 * @property {import("./options.mjs").BenchOptions} options
 * @property {import("./inprocess.mjs").InProcessResult[]} inProcess
 * @property {import("./http.mjs").HttpResult[]} http
 * @property {import("./memory.mjs").MemoryResult[]} memory
 * @property {ReturnType<typeof machine>} [machine] recorded with the results
 */

/**
 * @typedef {object} Target
 * @property {string} name
 * @property {string} goal
 * @property {number | undefined} value   wall-clock measure
 * @property {number | undefined} byMedian the same measure from median call latencies (in-process)
 *   or from the servers' CPU time per request (HTTP)
 * @property {boolean | undefined} met
 */

/** The machine the run happened on. */
export function machine() {
  let memory = `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`;
  try {
    memory = execFileSync("free", ["-h"], { encoding: "utf8" }).trimEnd();
  } catch {}
  return {
    cpus: os.availableParallelism(),
    model: os.cpus()[0]?.model ?? "unknown",
    memory,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** @param {number | undefined} n */
const int = (n) => (n === undefined ? "–" : Math.round(n).toLocaleString("en-US"));
/** @param {number | undefined} n @param {number} [digits] */
const x = (n, digits = 1) => (n === undefined ? "–" : `${n.toFixed(digits)}×`);
/** @param {number} n */
const ms = (n) => (n < 1 ? n.toFixed(3) : n < 10 ? n.toFixed(2) : n.toFixed(1));
/** @param {number} bytes */
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * @param {BenchRun} run
 * @param {string} id
 */
function scenario(run, id) {
  return run.inProcess.find((r) => r.id === id && !r.skipped);
}

/**
 * The targets, evaluated on this run.
 *
 * @param {BenchRun} run
 * @returns {Target[]}
 */
export function targets(run) {
  /** @type {Target[]} */
  const list = [];
  /**
   * @param {string} name
   * @param {string} goal
   * @param {number | undefined} value
   * @param {number | undefined} byMedian
   * @param {(v: number) => boolean} test
   */
  const add = (name, goal, value, byMedian, test) =>
    list.push({ name, goal, value, byMedian, met: value === undefined ? undefined : test(value) });
  const medianRatio = (/** @type {import("./inprocess.mjs").InProcessResult | undefined} */ r) =>
    r?.tessera && r.authjs ? r.authjs.p50Ms / r.tessera.p50Ms : undefined;
  const medianFloor = (/** @type {import("./inprocess.mjs").InProcessResult | undefined} */ r) =>
    r?.tessera && r.floor ? r.tessera.p50Ms / r.floor.p50Ms : undefined;
  const jwt = scenario(run, "session-jwt");
  add("JWT session read vs @auth/core", "≥ 15×", jwt?.ratio, medianRatio(jwt), (v) => v >= 15);
  add(
    "JWT session read vs the floor",
    "≤ 1.5× the floor's cost",
    jwt?.tesseraVsFloor,
    medianFloor(jwt),
    (v) => v <= 1.5,
  );
  const memory = scenario(run, "session-db-memory");
  add(
    "Database session read (memory) vs @auth/core",
    "≥ 5×",
    memory?.ratio,
    medianRatio(memory),
    (v) => v >= 5,
  );
  for (const r of run.inProcess) {
    if (r.skipped || r.id === "session-jwt" || r.id === "session-db-memory") continue;
    add(`${r.title} vs @auth/core`, "> 1×", r.ratio, medianRatio(r), (v) => v > 1);
  }
  // Issue #22: a database session read costs little more than the same store read without a
  // library (the floor: the adapter's getSessionAndUser between a Request and a Response).
  for (const [id, store, limit] of /** @type {const} */ ([
    ["session-db-memory", "memory", 1.2],
    ["session-db-sqlite", "SQLite", 1.15],
    ["session-db-postgres", "PostgreSQL", 1.1],
    ["session-db-redis", "Redis", 1.2],
  ])) {
    const r = scenario(run, id);
    if (!r || r.skipped) continue;
    add(
      `Database session read (${store}) vs the floor`,
      `≤ ${limit}× the floor's cost`,
      r.tesseraVsFloor,
      medianFloor(r),
      (v) => v <= limit,
    );
  }
  // Issue #18: a JWT session read with the Redis revocation denylist (default settings) within
  // 2× of one without; session-jwt-denylist-every-read shows the cost without the 1 s memory.
  const denylist = scenario(run, "session-jwt-denylist");
  if (denylist && !denylist.skipped)
    add(
      "JWT session read with the Redis denylist vs without",
      "≤ 2× the read without",
      denylist.tesseraVsFloor,
      medianFloor(denylist),
      (v) => v <= 2,
    );
  if (run.http.length) {
    add(
      "HTTP session read, node:http bridge, vs the bare bridge",
      "≤ 1.5× the bare bridge's cost",
      httpRatio(run.http, "bridge-bare", "bridge-tessera"),
      httpCpuRatio(run.http, "bridge-bare", "bridge-tessera"),
      (v) => v <= 1.5,
    );
    add(
      "HTTP session read, Express, vs Express with the same conversion and no auth",
      "≤ 1.5×",
      httpRatio(run.http, "express-bare", "express-tessera"),
      httpCpuRatio(run.http, "express-bare", "express-tessera"),
      (v) => v <= 1.5,
    );
    add(
      "HTTP session read, toNodeHandler, vs node:http decrypting with node:crypto",
      "≥ 0.6× the floor's rate",
      httpRatio(run.http, "node-tessera", "node-direct"),
      httpCpuRatio(run.http, "node-tessera", "node-direct"),
      (v) => v >= 0.6,
    );
    add(
      "HTTP session read, toNodeHandler, vs Tessera through the Request bridge",
      "≥ 2×",
      httpRatio(run.http, "node-tessera", "bridge-tessera"),
      httpCpuRatio(run.http, "node-tessera", "bridge-tessera"),
      (v) => v >= 2,
    );
    add(
      "HTTP session read, @tessera/express, vs Express decrypting with node:crypto",
      "≥ 0.9× the floor's rate",
      httpRatio(run.http, "express-tessera", "express-direct"),
      httpCpuRatio(run.http, "express-tessera", "express-direct"),
      (v) => v >= 0.9,
    );
    add(
      "HTTP session read, node:http bridge, vs @auth/core",
      "> 1×",
      httpRatio(run.http, "bridge-tessera", "bridge-authjs"),
      httpCpuRatio(run.http, "bridge-tessera", "bridge-authjs"),
      (v) => v > 1,
    );
    add(
      "HTTP session read, @tessera/express vs @auth/express",
      "> 1×",
      httpRatio(run.http, "express-tessera", "express-authjs"),
      httpCpuRatio(run.http, "express-tessera", "express-authjs"),
      (v) => v > 1,
    );
  }
  for (const m of run.memory)
    if (m.who === "tessera")
      list.push({
        name: `Memory: heap growth over ${m.reads.toLocaleString("en-US")} session reads`,
        goal: "no growth",
        value: m.heapGrowth / 1024 / 1024,
        byMedian: undefined,
        met: !m.grows,
      });
  return list;
}

/**
 * The generated Markdown section.
 *
 * @param {BenchRun} run
 */
export function markdown(run) {
  const m = run.machine ?? machine();
  const o = run.options;
  const lines = [
    START,
    "",
    `Run of ${run.date}, ${Math.round(run.seconds)} s. Machine: ${m.cpus} CPUs (${m.model}), Node ${m.node}, ${m.platform};`,
    `load average ${run.loadBefore.map((l) => l.toFixed(2)).join(" / ")} before the run, ${run.loadAfter.map((l) => l.toFixed(2)).join(" / ")} after.`,
    "",
    "```",
    m.memory,
    "```",
    "",
    `Settings: in-process ${o.rounds} alternating rounds × ${o.roundMs} ms per participant (warm-up ${o.warmupMs} ms); HTTP ${o.httpRounds} rounds × ${o.httpSeconds} s per target, ${o.httpConnections} connections (warm-up ${o.httpWarmupSeconds} s); memory ${o.memoryReads.toLocaleString("en-US")} reads (Tessera) and ${o.memoryReadsAuthjs.toLocaleString("en-US")} (@auth/core) in ${o.memoryRounds} rounds.`,
    "",
    "### In-process (one call at a time)",
    "",
    'Each participant runs in its own process, one call at a time; the three take turns round by round. Ops/s are medians over the rounds (wall clock); the ratios are medians of per-round ratios, so that both libraries in a ratio ran side by side in time. "× floor" is how many times the floor\'s cost a library pays (1.0× = as fast as the floor). The last column gives Tessera ÷ @auth/core from the median call latencies, which other processes on the machine disturb least (they mostly lengthen the tail).',
    "",
    "| Scenario | Tessera ops/s | p50 / p99 ms | @auth/core ops/s | p50 / p99 ms | floor ops/s | **Tessera ÷ @auth/core** | Tessera × floor | @auth/core × floor | ÷ by median latency |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  for (const r of run.inProcess) {
    if (r.skipped || !r.tessera || !r.authjs || !r.floor) {
      lines.push(`| ${r.title} | skipped: ${r.skipped ?? "no result"} | | | | | | | | |`);
      continue;
    }
    lines.push(
      `| ${r.title} | ${int(r.tessera.opsPerSecond)} | ${ms(r.tessera.p50Ms)} / ${ms(r.tessera.p99Ms)} | ${int(r.authjs.opsPerSecond)} | ${ms(r.authjs.p50Ms)} / ${ms(r.authjs.p99Ms)} | ${int(r.floor.opsPerSecond)} | **${x(r.ratio)}** | ${x(r.tesseraVsFloor, 2)} | ${x(r.authjsVsFloor)} | ${x(r.authjs.p50Ms / r.tessera.p50Ms)} |`,
    );
  }
  lines.push("", "Floors:", "");
  for (const r of run.inProcess) if (!r.skipped) lines.push(`- ${r.title}: ${r.floorDescription}.`);
  if (run.http.length) {
    lines.push(
      "",
      "### HTTP on 127.0.0.1 (autocannon, GET /auth/session with the JWT cookie)",
      "",
      "Each server runs in its own process; req/s and latencies are medians over the rounds, ratios medians of per-round ratios. Server CPU is the server process's own CPU time per request (user + system), which the load generator sharing the machine disturbs far less than the rate.",
      "",
      "| Server | req/s | p50 ms | p99 ms | server CPU µs/request | node:http alone ÷ this | errors |",
      "|---|--:|--:|--:|--:|--:|--:|",
    );
    for (const h of run.http)
      lines.push(
        `| ${h.label} | ${int(h.requestsPerSecond)} | ${h.p50Ms} | ${h.p99Ms} | ${h.cpuRounds?.length ? median(h.cpuRounds).toFixed(1) : "–"} | ${x(httpRatio(run.http, "node-raw", h.id), 2)} | ${h.errors} |`,
      );
    lines.push(
      "",
      `- Tessera ÷ @auth/core: node:http bridge **${x(httpRatio(run.http, "bridge-tessera", "bridge-authjs"))}**, Express **${x(httpRatio(run.http, "express-tessera", "express-authjs"))}**.`,
      `- Tessera's cost against the bare bridge: ${x(httpRatio(run.http, "bridge-bare", "bridge-tessera"), 2)} (node:http bridge), ${x(httpRatio(run.http, "express-bare", "express-tessera"), 2)} (Express); the decryption alone, done directly, costs ${x(httpRatio(run.http, "bridge-bare", "bridge-direct"), 2)} the bare bridge.`,
      `- What the bridge itself costs: the bare bridge (\`new Request\` + \`new Response\`, no auth) costs ${x(httpRatio(run.http, "node-raw", "bridge-bare"), 2)} node:http alone.`,
      `- Lighter objects: Tessera returning data instead of a \`Response\` costs ${x(httpRatio(run.http, "node-raw", "tessera-data"), 2)} node:http alone; with a minimal request object as well, ${x(httpRatio(run.http, "node-raw", "tessera-light"), 2)}, i.e. ${x(httpRatio(run.http, "bridge-bare", "tessera-light"), 2)} the bare bridge, which does no auth work at all.`,
    );
  }
  if (run.memory.length) {
    lines.push(
      "",
      "### Memory (JWT session reads in a fresh process, after a forced GC)",
      "",
      "| Library | reads | heap after warm-up | heap after the reads | RSS after warm-up | RSS after the reads | heap growth, first → last round | RSS growth, first → last round |",
      "|---|--:|--:|--:|--:|--:|--:|--:|",
    );
    for (const r of run.memory) {
      const last = r.after.at(-1) ?? r.baseline;
      lines.push(
        `| ${r.who === "tessera" ? "Tessera" : "@auth/core"} | ${r.reads.toLocaleString("en-US")} | ${mb(r.baseline.heapUsed)} | ${mb(last.heapUsed)} | ${mb(r.baseline.rss)} | ${mb(last.rss)} | ${mb(r.heapGrowth)} | ${mb(r.rssGrowth)} |`,
      );
    }
  }
  lines.push(
    "",
    "### Targets",
    "",
    "| Target | Goal | This run | By median latency (in-process) or server CPU (HTTP) | Met |",
    "|---|---|--:|--:|:-:|",
  );
  for (const t of targets(run)) {
    const unit = t.name.startsWith("Memory") ? " MB" : "×";
    const fmt = (/** @type {number | undefined} */ v) =>
      v === undefined ? "–" : `${v.toFixed(2)}${unit}`;
    lines.push(
      `| ${t.name} | ${t.goal} | ${fmt(t.value)} | ${fmt(t.byMedian)} | ${t.met === undefined ? "–" : t.met ? "yes" : "**no**"} |`,
    );
  }
  lines.push("", "![Tessera ÷ @auth/core](ratios.svg)", "", END);
  return lines.join("\n");
}

/**
 * Writes results.json, ratios.svg and RESULTS.md into `dir`.
 *
 * @param {BenchRun} run
 * @param {string} dir
 */
export function writeResults(run, dir) {
  writeFileSync(
    join(dir, "results.json"),
    `${JSON.stringify({ machine: machine(), ...run }, null, 2)}\n`,
  );
  render(run, dir);
}

/**
 * Writes ratios.svg and the generated section of RESULTS.md from `run` (e.g. read back from
 * results.json after changing the report's layout).
 *
 * @param {BenchRun} run
 * @param {string} dir
 */
export function render(run, dir) {
  writeFileSync(join(dir, "ratios.svg"), ratioChart(run));
  const path = join(dir, "RESULTS.md");
  const section = markdown(run);
  const current = existsSync(path)
    ? readFileSync(path, "utf8")
    : `# Benchmark results\n\n${START}\n${END}\n`;
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start === -1 || end === -1
      ? `${current.trimEnd()}\n\n${section}\n`
      : `${current.slice(0, start)}${section}${current.slice(end + END.length)}`;
  writeFileSync(path, next);
  formatMarkdown(path);
}

/** Lets the repository's formatter align the generated tables, as `npm run lint` expects. */
function formatMarkdown(/** @type {string} */ path) {
  const biome = join(fileURLToPath(new URL("../..", import.meta.url)), "node_modules/.bin/biome");
  try {
    execFileSync(biome, ["format", "--write", path], { stdio: "ignore" });
  } catch {
    // Without the formatter the file is still valid Markdown, only not aligned.
  }
}
