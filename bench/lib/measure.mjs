// @ts-check
/**
 * Measurement helpers: a timed round of back-to-back calls, and the statistics over rounds.
 * Ratios are taken round by round (neighbours in time) and their median is reported; absolute
 * rates drift with the machine's load, ratios hold.
 */

/**
 * @typedef {object} RoundResult
 * @property {number} ops
 * @property {number} seconds     wall-clock
 * @property {number} cpuSeconds  user + system time of this process
 */

/**
 * @typedef {object} ParticipantResult
 * @property {string} name
 * @property {number} opsPerSecond  median over rounds, wall-clock
 * @property {number} opsPerCpuSecond median over rounds, per second of CPU time (less noisy)
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} samples
 * @property {RoundResult[]} rounds
 */

/**
 * @typedef {{ name: string, run: () => Promise<unknown> }} Participant
 */

/**
 * Calls `run` back to back for `ms` milliseconds (at least once).
 *
 * @param {() => Promise<unknown>} run
 * @param {number} ms
 * @param {number[] | undefined} latencies receives each call's duration in ms
 * @returns {Promise<RoundResult>}
 */
export async function runFor(run, ms, latencies) {
  // No forced GC between rounds: a full collection shrinks the young generation and drops
  // compiled code, and the next round pays for it (measured: 2.7× slower rounds). Alternating
  // the order spreads the collection of one participant's garbage over the others alike.
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const end = start + ms;
  let now = start;
  let ops = 0;
  do {
    const before = now;
    await run();
    now = performance.now();
    latencies?.push(now - before);
    ops++;
  } while (now < end);
  const cpu = process.cpuUsage(cpuBefore);
  return { ops, seconds: (now - start) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/**
 * The median of `values` (0 for none).
 *
 * @param {number[]} values
 */
export function median(values) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? /** @type {number} */ (sorted[middle])
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * The `p`-th percentile (nearest rank) of `values`.
 *
 * @param {number[]} values
 * @param {number} p 0–100
 */
export function percentile(values, p) {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return /** @type {number} */ (sorted[rank]);
}

/**
 * Summarises one participant's rounds and call latencies.
 *
 * @param {string} name
 * @param {RoundResult[]} rounds
 * @param {number[]} latencies
 * @returns {ParticipantResult}
 * @example
 * ```js
 * const result = summarise("Tessera", [await runFor(run, 100, samples)], samples)
 * ```
 */
export function summarise(name, rounds, latencies) {
  return {
    name,
    opsPerSecond: median(rounds.map((r) => r.ops / r.seconds)),
    opsPerCpuSecond: median(rounds.map((r) => r.ops / Math.max(r.cpuSeconds, 1e-6))),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    samples: latencies.length,
    rounds,
  };
}

/**
 * The median over rounds of `a`'s rate divided by `b`'s rate in the same round.
 *
 * @param {ParticipantResult} a
 * @param {ParticipantResult} b
 */
export function roundRatio(a, b) {
  return median(
    a.rounds.map((round, i) => {
      const other = /** @type {RoundResult} */ (b.rounds[i]);
      return round.ops / round.seconds / (other.ops / other.seconds);
    }),
  );
}
