// @ts-check
/**
 * Runs the in-process scenarios (see scenarios.mjs). Each participant (Tessera, @auth/core, the
 * floor) runs in a process of its own, one call at a time; the participants take turns round by
 * round, in alternating order, so that a burst of machine noise hits all of them alike.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { roundRatio, summarise } from "./measure.mjs";
import { selected } from "./options.mjs";
import { scenarios } from "./scenarios.mjs";

/**
 * @typedef {object} InProcessResult
 * @property {string} id
 * @property {string} title
 * @property {string} floorDescription
 * @property {import("./measure.mjs").ParticipantResult} [tessera]
 * @property {import("./measure.mjs").ParticipantResult} [authjs]
 * @property {import("./measure.mjs").ParticipantResult} [floor]
 * @property {number} [ratio]          Tessera ÷ Auth.js core, ops/s (median of per-round ratios)
 * @property {number} [tesseraVsFloor] floor ÷ Tessera: how many times the floor's cost
 * @property {number} [authjsVsFloor]  floor ÷ Auth.js core
 * @property {string} [skipped]
 */

/**
 * @typedef {object} Child
 * @property {(command: { type: string, ms?: number }) => Promise<any>} ask
 * @property {() => void} stop
 */

/**
 * Starts one participant process and waits until it is ready (or says why it cannot run).
 *
 * @param {string} id
 * @param {string} who
 * @param {Record<string, string | undefined>} modulePaths
 * @returns {Promise<Child | { skip: string }>}
 */
export function startParticipant(id, who, modulePaths) {
  const child = fork(fileURLToPath(new URL("./participant.mjs", import.meta.url)), [id, who], {
    env: {
      ...process.env,
      BENCH_TESSERA_CORE: modulePaths.core,
      BENCH_TESSERA_MEMORY: modulePaths.memory ?? "",
      BENCH_TESSERA_SQL: modulePaths.sql ?? "",
      BENCH_TESSERA_REDIS: modulePaths.redis ?? "",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    serialization: "advanced",
  });
  /** @type {((message: any) => void) | undefined} */
  let waiting;
  /** @type {((error: Error) => void) | undefined} */
  let failing;
  child.on("message", (message) => waiting?.(message));
  child.on("exit", (code) =>
    failing?.(new Error(`participant ${who} of ${id} exited with ${code}`)),
  );
  /** @returns {Promise<any>} */
  const next = () =>
    new Promise((resolve, reject) => {
      waiting = resolve;
      failing = reject;
    });
  const stop = () => {
    failing = undefined;
    if (child.connected) child.send({ type: "stop" });
    setTimeout(() => child.kill(), 5000).unref();
  };
  return next().then((message) => {
    if (message.type === "skip") {
      stop();
      return { skip: message.reason };
    }
    if (message.type === "error") {
      stop();
      throw new Error(`${id}: ${message.message}`);
    }
    return {
      ask: (command) => {
        const answer = next();
        child.send(command);
        return answer;
      },
      stop,
    };
  });
}

/**
 * @param {Record<string, string | undefined>} modulePaths the bundled Tessera modules
 * @param {import("./options.mjs").BenchOptions} options
 * @param {(line: string) => void} log
 * @returns {Promise<InProcessResult[]>}
 */
export async function runInProcess(modulePaths, options, log) {
  /** @type {InProcessResult[]} */
  const results = [];
  for (const scenario of scenarios) {
    if (!selected(options, "inprocess", scenario.id)) continue;
    const base = { id: scenario.id, title: scenario.title, floorDescription: scenario.floor };
    const names = /** @type {const} */ (["tessera", "authjs", "floor"]);
    const started = await Promise.allSettled(
      names.map((who) => startParticipant(scenario.id, who, modulePaths)),
    );
    const children = started.flatMap((s) =>
      s.status === "fulfilled" && "ask" in s.value ? [s.value] : [],
    );
    try {
      const failure = started.find((s) => s.status === "rejected");
      if (failure) throw /** @type {PromiseRejectedResult} */ (failure).reason;
      const skipped = started.find((s) => s.status === "fulfilled" && "skip" in s.value);
      if (skipped) {
        const reason = /** @type {{ skip: string }} */ (
          /** @type {PromiseFulfilledResult<any>} */ (skipped).value
        ).skip;
        log(`  ${scenario.id}: skipped (${reason})`);
        results.push({ ...base, skipped: reason });
        continue;
      }
      for (const child of children) await child.ask({ type: "warmup", ms: options.warmupMs });
      /** @type {import("./measure.mjs").RoundResult[][]} */
      const rounds = children.map(() => []);
      /** @type {number[][]} */
      const latencies = children.map(() => []);
      const forward = children.map((_, i) => i);
      const backward = [...forward].reverse();
      for (let round = 0; round < options.rounds; round++) {
        for (const i of round % 2 === 0 ? forward : backward) {
          const answer = await /** @type {Child} */ (children[i]).ask({
            type: "round",
            ms: options.roundMs,
          });
          rounds[i]?.push(answer.result);
          for (const latency of answer.latencies) latencies[i]?.push(latency);
        }
      }
      const [tessera, authjs, floor] = names.map((who, i) =>
        summarise(who, /** @type {any} */ (rounds[i]), /** @type {number[]} */ (latencies[i])),
      );
      if (!tessera || !authjs || !floor) throw new Error("missing result");
      const result = {
        ...base,
        tessera,
        authjs,
        floor,
        ratio: roundRatio(tessera, authjs),
        tesseraVsFloor: roundRatio(floor, tessera),
        authjsVsFloor: roundRatio(floor, authjs),
      };
      log(
        `  ${scenario.id.padEnd(20)} Tessera ${fmt(tessera.opsPerSecond)}/s  @auth/core ${fmt(authjs.opsPerSecond)}/s  floor ${fmt(floor.opsPerSecond)}/s  ratio ${result.ratio.toFixed(1)}×  Tessera ${result.tesseraVsFloor.toFixed(2)}× floor`,
      );
      results.push(result);
    } finally {
      for (const child of children) child.stop();
    }
  }
  return results;
}

/** @param {number} n */
function fmt(n) {
  return Math.round(n).toLocaleString("en-US");
}
