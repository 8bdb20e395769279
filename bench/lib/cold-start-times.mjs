// @ts-check
/**
 * The timed part of the cold-start benchmark: fresh Node processes (bench/lib/cold-start-child.mjs)
 * importing an app, reading a session and opening the sign-in page, for both libraries taking
 * turns, and the medians of their figures.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const child = fileURLToPath(new URL("./cold-start-child.mjs", import.meta.url));
const LIBRARIES = /** @type {const} */ (["tessera", "authjs"]);

/**
 * @typedef {{ import: number[], firstRequest: number[], signinPage: number[], process: number[] }} Samples
 * @typedef {{ import: number, firstRequest: number, signinPage: number, process: number }} Times
 */

/**
 * Runs `runs` fresh processes per library for each entry of `apps` (its key → the app module of
 * each library). Each round runs every app; the libraries' order alternates from round to round,
 * so that neither always runs just after the other.
 *
 * @param {Record<string, Record<"tessera" | "authjs", string>>} apps
 * @param {string} cookie the session cookie header
 * @param {number} runs
 * @returns {Promise<Record<string, Record<"tessera" | "authjs", Samples>>>}
 */
export async function timeFreshProcesses(apps, cookie, runs) {
  /** @type {Record<string, Record<"tessera" | "authjs", Samples>>} */
  const samples = Object.fromEntries(
    Object.keys(apps).map((key) => [
      key,
      {
        tessera: { import: [], firstRequest: [], signinPage: [], process: [] },
        authjs: { import: [], firstRequest: [], signinPage: [], process: [] },
      },
    ]),
  );
  for (let i = 0; i < runs; i++)
    for (const [key, files] of Object.entries(apps))
      for (const library of i % 2 ? [...LIBRARIES].reverse() : LIBRARIES) {
        const before = performance.now();
        const { stdout } = await run(process.execPath, [
          child,
          files[library],
          cookie,
          "/auth/signin",
        ]);
        const wall = performance.now() - before;
        const figures = JSON.parse(stdout);
        const s = samples[key][library];
        s.import.push(figures.import);
        s.firstRequest.push(figures.import + figures.firstRequest);
        s.signinPage.push(figures.second);
        s.process.push(wall);
      }
  return samples;
}

/** @param {number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The medians of each figure.
 *
 * @param {Samples} samples
 * @returns {Times}
 */
export function medians(samples) {
  return {
    import: median(samples.import),
    firstRequest: median(samples.firstRequest),
    signinPage: median(samples.signinPage),
    process: median(samples.process),
  };
}
