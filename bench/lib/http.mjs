// @ts-check
/**
 * The HTTP benchmark: session reads over 127.0.0.1 with autocannon (50 connections by default)
 * against each server target of http-server.mjs, each server in its own process, targets taken
 * in alternating order round after round.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { libraries, SESSION_COOKIE, sessionToken, USER } from "./fixtures.mjs";
import { median } from "./measure.mjs";

/** @typedef {{ id: string, label: string, needs?: "express" }} Target */
/**
 * A started target; `sessionCookie` is the cookie its session reads need when it is not the JWT
 * one (a database session the server seeded).
 * @typedef {{ port: number, sessionCookie?: string, cpu: () => Promise<number>, stop: () => void }} Server
 */

/**
 * The parts of an autocannon result used here (autocannon ships no types).
 *
 * @typedef {{ duration: number, requests: { total: number }, latency: { p50: number, p99: number }, non2xx: number, errors: number, timeouts: number }} LoadResult
 */

/** @type {Target[]} */
export const TARGETS = [
  { id: "node-raw", label: "node:http alone (fixed answer)" },
  { id: "bridge-bare", label: "node:http bridge, no auth (floor)" },
  { id: "bridge-direct", label: "node:http bridge + JWE decrypt with node:crypto" },
  { id: "bridge-tessera", label: "node:http bridge + Tessera" },
  { id: "bridge-authjs", label: "node:http bridge + @auth/core" },
  {
    id: "node-direct",
    label: "node:http + JWE decrypt with node:crypto, no Fetch objects (floor)",
  },
  { id: "node-tessera", label: "node:http + Tessera toNodeHandler (no Fetch objects)" },
  { id: "tessera-data", label: "node:http + Tessera raw data (no Response)" },
  { id: "tessera-light", label: "node:http + Tessera, light request object" },
  { id: "express-plain", label: "Express alone (fixed answer)" },
  { id: "express-bare", label: "Express + request conversion, no auth (floor)", needs: "express" },
  { id: "express-direct", label: "Express + JWE decrypt with node:crypto (floor)" },
  { id: "express-tessera", label: "Express + @tessera/express", needs: "express" },
  { id: "express-authjs", label: "Express + @auth/express" },
];

/**
 * @typedef {object} HttpResult
 * @property {string} id
 * @property {string} label
 * @property {number} requestsPerSecond median over rounds
 * @property {number} p50Ms  median over rounds
 * @property {number} p99Ms  median over rounds
 * @property {number} errors non-2xx answers and socket errors, all rounds
 * @property {number[]} rounds requests per second, per round
 * @property {number[]} cpuRounds the server's CPU time per request (µs), per round: its own
 *   process's time, which the load generator and other processes on the machine disturb far less
 *   than its rate
 */

/**
 * The median over rounds of `a`'s rate divided by `b`'s in the same round (neighbours in time).
 *
 * @param {HttpResult[]} results
 * @param {string} a
 * @param {string} b
 * @returns {number | undefined}
 */
export function httpRatio(results, a, b) {
  return roundRatio(
    results.find((r) => r.id === a)?.rounds,
    results.find((r) => r.id === b)?.rounds,
  );
}

/**
 * {@link httpRatio} from the servers' CPU time per request instead of their rates: `b`'s CPU
 * per request divided by `a`'s, so that it reads like the rate ratio (above 1: `a` is cheaper).
 *
 * @param {HttpResult[]} results
 * @param {string} a
 * @param {string} b
 * @returns {number | undefined}
 */
export function httpCpuRatio(results, a, b) {
  return roundRatio(
    results.find((r) => r.id === b)?.cpuRounds,
    results.find((r) => r.id === a)?.cpuRounds,
  );
}

/**
 * @param {number[] | undefined} top
 * @param {number[] | undefined} bottom
 */
function roundRatio(top, bottom) {
  if (!top || !bottom || top.length === 0 || top.length !== bottom.length) return undefined;
  return median(top.map((value, i) => value / /** @type {number} */ (bottom[i])));
}

/**
 * Starts `target` in a child process.
 *
 * @param {string} target
 * @param {Record<string, string | undefined>} modules
 * @returns {Promise<Server>}
 */
export function startServer(target, modules) {
  const child = fork(fileURLToPath(new URL("./http-server.mjs", import.meta.url)), [target], {
    env: {
      ...process.env,
      BENCH_TESSERA_CORE: modules.core,
      BENCH_TESSERA_EXPRESS: modules.express ?? "",
      BENCH_TESSERA_MEMORY: modules.memory ?? "",
      BENCH_REPORT_CPU: "1",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`server ${target} exited with ${code}`)));
    child.once("message", (message) => {
      const { port, sessionCookie } = /** @type {{ port: number, sessionCookie?: string }} */ (
        message
      );
      resolve({
        port,
        ...(sessionCookie !== undefined && { sessionCookie }),
        cpu: () =>
          new Promise((answer) => {
            child.once("message", (reply) => answer(/** @type {{ cpu: number }} */ (reply).cpu));
            child.send("cpu");
          }),
        stop: () => {
          child.removeAllListeners("exit");
          child.kill();
        },
      });
    });
  });
}

/**
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {number} seconds
 * @param {number} connections
 */
export function load(url, headers, seconds, connections) {
  return /** @type {Promise<LoadResult>} */ (
    autocannon({ url, headers, duration: seconds, connections })
  );
}

/**
 * @param {import("./fixtures.mjs").TesseraModules} modules
 * @param {Record<string, string | undefined>} modulePaths
 * @param {import("./options.mjs").BenchOptions} options
 * @param {(line: string) => void} log
 * @returns {Promise<HttpResult[]>}
 */
export async function runHttp(modules, modulePaths, options, log) {
  const { tessera } = libraries(modules);
  const headers = { cookie: `${SESSION_COOKIE}=${await sessionToken(tessera)}` };
  const targets = TARGETS.filter((t) => !t.needs || modulePaths[t.needs]);
  for (const skipped of TARGETS.filter((t) => !targets.includes(t)))
    log(`  ${skipped.id}: skipped (@tessera/express does not build)`);
  /** @type {Map<string, Server>} */
  const servers = new Map();
  try {
    const started = await Promise.all(targets.map((t) => startServer(t.id, modulePaths)));
    for (const [i, t] of targets.entries()) servers.set(t.id, /** @type {Server} */ (started[i]));
    const urlOf = (/** @type {Target} */ t) =>
      `http://127.0.0.1:${servers.get(t.id)?.port}/auth/session`;
    // Every server must really answer Ada's session before its speed means anything.
    for (const target of targets) {
      const response = await fetch(urlOf(target), { headers });
      const body = await response.json();
      if (response.status !== 200 || body?.user?.email !== USER.email)
        throw new Error(
          `${target.id} does not answer Ada's session: ${response.status} ${JSON.stringify(body)}`,
        );
      if (options.httpWarmupSeconds > 0)
        await load(urlOf(target), headers, options.httpWarmupSeconds, options.httpConnections);
    }
    /** @type {Map<string, { load: LoadResult, cpuPerRequest: number }[]>} */
    const results = new Map(targets.map((t) => [t.id, []]));
    for (let round = 0; round < options.httpRounds; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) {
        const server = /** @type {Server} */ (servers.get(target.id));
        const cpuBefore = await server.cpu();
        const result = await load(
          urlOf(target),
          headers,
          options.httpSeconds,
          options.httpConnections,
        );
        const cpuPerRequest = ((await server.cpu()) - cpuBefore) / result.requests.total;
        results.get(target.id)?.push({ load: result, cpuPerRequest });
      }
    }
    return targets.map((target) => {
      const measured = /** @type {{ load: LoadResult, cpuPerRequest: number }[]} */ (
        results.get(target.id)
      );
      const runs = measured.map((m) => m.load);
      const rounds = runs.map((r) => r.requests.total / r.duration);
      const cpuRounds = measured.map((m) => m.cpuPerRequest);
      const result = {
        id: target.id,
        label: target.label,
        requestsPerSecond: median(rounds),
        p50Ms: median(runs.map((r) => r.latency.p50)),
        p99Ms: median(runs.map((r) => r.latency.p99)),
        errors: runs.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
        rounds,
        cpuRounds,
      };
      log(
        `  ${target.id.padEnd(16)} ${Math.round(result.requestsPerSecond).toLocaleString("en-US").padStart(7)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  server CPU ${median(cpuRounds).toFixed(1)} µs/request${result.errors ? `  ${result.errors} errors` : ""}`,
      );
      return result;
    });
  } finally {
    for (const server of servers.values()) server.stop();
  }
}
