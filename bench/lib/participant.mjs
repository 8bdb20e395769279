// @ts-check
/**
 * One participant of one in-process scenario, in a process of its own (its own heap and compiled
 * code, so that one library's garbage and deoptimisations never land in another's rounds):
 * `node participant.mjs <scenario id> <tessera|authjs|floor>`, Tessera's bundled modules named by
 * BENCH_TESSERA_CORE / _MEMORY / _SQL. The parent sends `warmup` and `round` commands in turn to
 * every participant, so rounds still alternate in time.
 */
import { runFor } from "./measure.mjs";
import { readOptions } from "./options.mjs";
import { scenarios } from "./scenarios.mjs";

const [id, who] = process.argv.slice(2);
const send = (/** @type {unknown} */ message) => process.send?.(message);

/** @param {string | undefined} path */
async function load(path) {
  return path ? import(path) : undefined;
}

const scenario = scenarios.find((s) => s.id === id);
if (!scenario || (who !== "tessera" && who !== "authjs" && who !== "floor"))
  throw new Error(`unknown scenario or participant: ${id} ${who}`);
const modules = {
  core: await load(process.env.BENCH_TESSERA_CORE),
  memory: await load(process.env.BENCH_TESSERA_MEMORY),
  sql: await load(process.env.BENCH_TESSERA_SQL),
  redis: await load(process.env.BENCH_TESSERA_REDIS),
};
const setup = await scenario.setup(modules, readOptions(process.env, "."));
if (typeof setup === "string") {
  send({ type: "skip", reason: setup });
} else {
  const run = setup.run[who];
  try {
    setup.check(await run(), who);
    send({ type: "ready" });
  } catch (error) {
    send({ type: "error", message: /** @type {Error} */ (error).message });
  }
  process.on("message", async (/** @type {{ type: string, ms: number }} */ command) => {
    if (command.type === "stop") {
      await setup.teardown?.();
      process.disconnect();
      return;
    }
    /** @type {number[]} */
    const latencies = [];
    const result = await runFor(run, command.ms, command.type === "round" ? latencies : undefined);
    send({ type: "done", result, latencies });
  });
}
