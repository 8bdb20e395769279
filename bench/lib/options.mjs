// @ts-check
/**
 * Benchmark settings, from environment variables so that a run can be made shorter (the smoke
 * test) or longer (a quieter, more precise run) without editing code.
 */

/**
 * @typedef {object} BenchOptions
 * @property {number} rounds           in-process: alternating rounds per scenario
 * @property {number} roundMs          in-process: milliseconds per participant and round
 * @property {number} warmupMs         in-process: unrecorded warm-up per participant
 * @property {number} httpRounds       HTTP: alternating rounds per target
 * @property {number} httpSeconds      HTTP: seconds of load per target and round (whole seconds)
 * @property {number} httpWarmupSeconds HTTP: unrecorded load per target before the first round (0: none)
 * @property {number} httpConnections  HTTP: concurrent connections (autocannon)
 * @property {number} memoryReads      memory: session reads by Tessera
 * @property {number} memoryReadsAuthjs memory: session reads by Auth.js core (slower, so fewer)
 * @property {number} memoryRounds     memory: the reads are split into this many rounds
 * @property {string[]} only           groups or scenario ids to run (empty: all)
 * @property {string | undefined} postgresUrl PostgreSQL for the database scenario (unset: skipped)
 * @property {string | undefined} redisUrl Redis for the database scenario (unset: skipped)
 * @property {string} outDir           where results.json, ratios.svg and RESULTS.md go
 * @property {boolean} writeResults    false leaves RESULTS.md untouched (the smoke run)
 */

/**
 * @param {string | undefined} value
 * @param {number} fallback
 */
function number(value, fallback) {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0)
    throw new RangeError(`not a positive number: ${value}`);
  return parsed;
}

/**
 * @param {string | undefined} value
 * @param {number} fallback
 */
function whole(value, fallback) {
  if (value === "0") return 0;
  return number(value, fallback);
}

/**
 * Reads the options from `env`. `BENCH_SMOKE=1` selects tiny counts that only prove the script
 * still works; every other variable still overrides them.
 *
 * @param {Record<string, string | undefined>} env
 * @param {string} defaultOutDir
 * @returns {BenchOptions}
 * @example
 * ```js
 * const options = readOptions({ BENCH_ROUNDS: "6" }, "bench")
 * ```
 */
export function readOptions(env, defaultOutDir) {
  const smoke = env.BENCH_SMOKE === "1";
  const postgres = env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  return {
    rounds: number(env.BENCH_ROUNDS, smoke ? 2 : 16),
    roundMs: number(env.BENCH_ROUND_MS, smoke ? 30 : 100),
    warmupMs: number(env.BENCH_WARMUP_MS, smoke ? 20 : 300),
    httpRounds: number(env.BENCH_HTTP_ROUNDS, smoke ? 1 : 4),
    // autocannon measures in whole seconds.
    httpSeconds: Math.max(1, Math.round(number(env.BENCH_HTTP_SECONDS, 1))),
    // One second of warm-up even in the smoke run: on a loaded machine a cold server may answer
    // nothing within a one-second window, which would prove nothing about the script.
    httpWarmupSeconds: Math.round(whole(env.BENCH_HTTP_WARMUP_SECONDS, 1)),
    httpConnections: number(env.BENCH_HTTP_CONNECTIONS, smoke ? 10 : 50),
    memoryReads: number(env.BENCH_MEMORY_READS, smoke ? 200 : 100_000),
    memoryReadsAuthjs: number(env.BENCH_MEMORY_READS_AUTHJS, smoke ? 40 : 5_000),
    memoryRounds: number(env.BENCH_MEMORY_ROUNDS, smoke ? 2 : 5),
    only: (env.BENCH_ONLY ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    postgresUrl: env.BENCH_POSTGRES === "0" ? undefined : postgres,
    redisUrl:
      env.BENCH_REDIS === "0" ? undefined : (env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379"),
    outDir: env.BENCH_OUT ?? defaultOutDir,
    writeResults: env.BENCH_WRITE_RESULTS !== "0",
  };
}

/**
 * True when the run includes `id` (a scenario id) of `group` (`inprocess`, `http`, `memory`).
 *
 * @param {BenchOptions} options
 * @param {string} group
 * @param {string} [id]
 */
export function selected(options, group, id) {
  if (options.only.length === 0) return true;
  return options.only.includes(group) || (id !== undefined && options.only.includes(id));
}
