// @ts-check
/**
 * `node bench/compare-revisions.mjs <base revision or checkout directory> [rounds]`
 * (`BENCH_SMOKE=1`: one short round of each, to prove the script works): is the session read of this
 * checkout as fast as it was at `<base revision>`? Both revisions' sources are bundled the way
 * `npm run bench` bundles them, and measured in one run, taking turns round by round (order
 * swapped every round), so that the machine's load hits both alike:
 *
 * - in-process, `Auth(Request)`: `GET /session` with a JWT cookie, and with database sessions
 *   through @tessera/memory, SQLite, PostgreSQL and Redis (the scenarios of lib/scenarios.mjs),
 *   each revision in a process of its own (reads per second), then both in this process (CPU
 *   time per read);
 * - over HTTP, `toNodeHandler` on node:http under autocannon: the JWT read and the database read
 *   (@tessera/memory), by requests per second and by the server's CPU time per request.
 *
 * Each figure is the median over rounds of this checkout's rate divided by the base's in the
 * same round (for CPU per read or request, the base's divided by this checkout's): 1.00 is "as
 * fast", above 1 faster. The base is checked out with `git worktree` under node_modules/.cache,
 * loads its dependencies from this checkout's node_modules, and is removed at the end.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildTessera } from "./lib/build.mjs";
import { libraries, SESSION_COOKIE, sessionToken } from "./lib/fixtures.mjs";
import { load, startServer } from "./lib/http.mjs";
import { startParticipant } from "./lib/inprocess.mjs";
import { median } from "./lib/measure.mjs";
import { readOptions } from "./lib/options.mjs";
import { scenarios } from "./lib/scenarios.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const [baseRevision, roundsArgument] = process.argv.slice(2);
if (!baseRevision) {
  console.error(
    "usage: node bench/compare-revisions.mjs <base revision or checkout directory> [rounds]",
  );
  process.exit(2);
}
const options = readOptions(process.env, join(root, "bench"));
const smoke = process.env.BENCH_SMOKE === "1";
// In-process rounds; HTTP takes a third as many (at least four) of `httpSeconds` each.
const rounds = Number(roundsArgument ?? (smoke ? 1 : 20));
const httpRounds = smoke ? 1 : Math.max(4, Math.round(rounds / 3));
const httpSeconds = smoke ? 1 : 2;
const git = (/** @type {string[]} */ ...args) =>
  execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
/** This checkout's commit, or a plain name where there is no git history (an exported tree). */
const shortRevision = () => {
  try {
    return git("rev-parse", "--short", "HEAD");
  } catch {
    return "this checkout";
  }
};

// A directory holding a checkout is compared as it is (the smoke test compares this checkout with
// itself, which needs no git history); anything else names a revision of this repository, checked
// out for the run with `git worktree` and removed at the end.
const givenDir = resolve(baseRevision);
const baseIsDir = existsSync(join(givenDir, "packages", "core", "package.json"));
const baseCommit = baseIsDir ? undefined : git("rev-parse", "--verify", `${baseRevision}^{commit}`);
const baseRoot = baseCommit
  ? join(root, "node_modules", ".cache", `compare-${baseCommit.slice(0, 12)}`)
  : givenDir;
const baseLabel = baseCommit ? baseCommit.slice(0, 7) : `${basename(givenDir)}/`;
const headLabel = shortRevision();
if (baseCommit) {
  if (!existsSync(join(baseRoot, "packages"))) {
    rmSync(baseRoot, { recursive: true, force: true });
    git("worktree", "prune");
    git("worktree", "add", "--detach", baseRoot, baseCommit);
  }
  // The base's own packages answer `@tessera/*` when its sources are bundled (esbuild looks for
  // node_modules upwards from each source file, and finds this one before the checkout's own).
  const tesseraLinks = join(baseRoot, "node_modules", "@tessera");
  mkdirSync(tesseraLinks, { recursive: true });
  for (const name of readdirSync(join(baseRoot, "packages")))
    if (!existsSync(join(tesseraLinks, name)))
      symlinkSync(join("..", "..", "packages", name), join(tesseraLinks, name));
}

const builds = { base: await buildTessera(baseRoot), head: await buildTessera() };
for (const [which, build] of Object.entries(builds))
  for (const [name, failure] of Object.entries(build.failures))
    console.log(`${which}: @tessera/${name} does not build: ${failure}`);

const log = (/** @type {string} */ line) => console.log(line);
log(
  `This checkout (${headLabel}) against ${baseLabel}, ${rounds} rounds, Node ${process.version}, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);

/** @type {{ measure: string, base: number, head: number, ratio: number, unit: string }[]} */
const rows = [];

const IN_PROCESS = [
  "session-jwt",
  "session-db-memory",
  "session-db-sqlite",
  "session-db-postgres",
  "session-db-redis",
];
for (const id of IN_PROCESS) {
  const started = await Promise.all(
    /** @type {const} */ (["base", "head"]).map((which) =>
      startParticipant(id, "tessera", builds[which].modules),
    ),
  );
  const children = started.flatMap((child) => ("ask" in child ? [child] : []));
  try {
    if (children.length !== 2) {
      const skip = started.find((child) => "skip" in child);
      log(`  ${id}: not measured (${skip && "skip" in skip ? skip.skip : "no participant"})`);
      continue;
    }
    for (const child of children) await child.ask({ type: "warmup", ms: options.warmupMs });
    /** @type {number[][]} */
    const rates = [[], []];
    for (let round = 0; round < rounds; round++)
      for (const i of round % 2 ? [1, 0] : [0, 1]) {
        const { result } = await /** @type {(typeof children)[number]} */ (children[i]).ask({
          type: "round",
          ms: options.roundMs,
        });
        rates[i]?.push(result.ops / result.seconds);
      }
    const [base, head] = /** @type {[number[], number[]]} */ (rates);
    const row = {
      measure: `in-process ${id}`,
      base: median(base),
      head: median(head),
      ratio: median(head.map((rate, i) => rate / /** @type {number} */ (base[i]))),
      unit: "reads/s",
    };
    rows.push(row);
    log(`  ${row.measure}: ${format(row)}`);
  } finally {
    for (const child of children) child.stop();
  }
}

// The same reads with both revisions loaded into this one process, by CPU time per read: no
// process of its own for either, so neither gets a quieter core or a luckier heap than the
// other; the finest comparison this machine allows.
const scenarioModules = async (/** @type {Record<string, string | undefined>} */ paths) => {
  /** @type {import("./lib/fixtures.mjs").TesseraModules} */
  const modules = { core: await import(/** @type {string} */ (paths.core)) };
  for (const name of /** @type {const} */ (["memory", "sql", "redis"]))
    if (paths[name]) modules[name] = await import(/** @type {string} */ (paths[name]));
  return modules;
};
const loaded = {
  base: await scenarioModules(builds.base.modules),
  head: await scenarioModules(builds.head.modules),
};
const readsPerRound = smoke ? 20 : 1500;
for (const id of IN_PROCESS) {
  const scenario = scenarios.find((s) => s.id === id);
  if (!scenario) continue;
  const setups = [
    await scenario.setup(loaded.base, options),
    await scenario.setup(loaded.head, options),
  ];
  try {
    const runs = setups.flatMap((setup) => (typeof setup === "string" ? [] : [setup.run.tessera]));
    if (runs.length !== 2) {
      log(`  one process ${id}: not measured (${setups.find((x) => typeof x === "string")})`);
      continue;
    }
    /** @type {number[][]} */
    const cpu = [[], []];
    // The first rounds warm both up and are not counted.
    const warmup = smoke ? 0 : 6;
    for (let round = 0; round < warmup + rounds * 2; round++)
      for (const i of round % 2 ? [1, 0] : [0, 1]) {
        const run = /** @type {() => Promise<unknown>} */ (runs[i]);
        const before = process.cpuUsage();
        for (let n = 0; n < readsPerRound; n++) await run();
        const used = process.cpuUsage(before);
        if (round >= warmup) cpu[i]?.push((used.user + used.system) / readsPerRound);
      }
    const [base, head] = /** @type {[number[], number[]]} */ (cpu);
    const row = {
      measure: `one process ${id} CPU per read`,
      base: median(base),
      head: median(head),
      ratio: median(head.map((value, i) => (base[i] ?? 0) / value)),
      unit: "µs",
    };
    rows.push(row);
    log(`  ${row.measure}: ${format(row)}`);
  } finally {
    for (const setup of setups) if (typeof setup !== "string") await setup.teardown?.();
  }
}

// Over HTTP: the server's rate and CPU per request, each round's pair back to back.
const jwtCookie = `${SESSION_COOKIE}=${await sessionToken(libraries({ core: await import(builds.head.modules.core ?? "") }).tessera)}`;
for (const target of ["node-tessera", "node-tessera-db"]) {
  const servers = await Promise.all(
    /** @type {const} */ (["base", "head"]).map((which) =>
      startServer(target, builds[which].modules),
    ),
  );
  try {
    const urlOf = (/** @type {(typeof servers)[number]} */ server) =>
      `http://127.0.0.1:${server.port}/auth/session`;
    const headersOf = (/** @type {(typeof servers)[number]} */ server) => ({
      cookie: server.sessionCookie ?? jwtCookie,
    });
    for (const server of servers) {
      const response = await fetch(urlOf(server), { headers: headersOf(server) });
      const body = await response.json();
      if (!body?.user?.email)
        throw new Error(`${target} answers no session: ${JSON.stringify(body)}`);
      await load(urlOf(server), headersOf(server), httpSeconds, options.httpConnections);
    }
    /** @type {number[][]} */
    const rates = [[], []];
    /** @type {number[][]} */
    const cpu = [[], []];
    for (let round = 0; round < httpRounds; round++)
      for (const i of round % 2 ? [1, 0] : [0, 1]) {
        const server = /** @type {(typeof servers)[number]} */ (servers[i]);
        const before = await server.cpu();
        const result = await load(
          urlOf(server),
          headersOf(server),
          httpSeconds,
          options.httpConnections,
        );
        cpu[i]?.push(((await server.cpu()) - before) / result.requests.total);
        rates[i]?.push(result.requests.total / result.duration);
      }
    for (const [label, [base, head], unit, invert] of /** @type {const} */ ([
      ["requests/s", rates, "req/s", false],
      ["server CPU per request", cpu, "µs", true],
    ])) {
      const row = {
        measure: `HTTP ${target} ${label}`,
        base: median(base),
        head: median(head),
        // CPU per request: the base's over this checkout's, so that above 1 still means faster.
        ratio: median(
          head.map((value, i) => (invert ? (base[i] ?? 0) / value : value / (base[i] ?? 1))),
        ),
        unit,
      };
      rows.push(row);
      log(`  ${row.measure}: ${format(row)}`);
    }
  } finally {
    for (const server of servers) server.stop();
  }
}

log("");
log(`| Measure | ${baseLabel} | ${headLabel} | this ÷ base |`);
log("|---|--:|--:|--:|");
for (const row of rows)
  log(
    `| ${row.measure} | ${Math.round(row.base).toLocaleString("en-US")} ${row.unit} | ${Math.round(row.head).toLocaleString("en-US")} ${row.unit} | ${row.ratio.toFixed(3)}× |`,
  );
if (baseCommit) git("worktree", "remove", "--force", baseRoot);
process.exit(0);

/** @param {{ base: number, head: number, ratio: number, unit: string }} row */
function format(row) {
  return `base ${Math.round(row.base)} ${row.unit}, this ${Math.round(row.head)} ${row.unit}, ${row.ratio.toFixed(3)}×`;
}
