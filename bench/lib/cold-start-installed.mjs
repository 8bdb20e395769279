// @ts-check
/**
 * The cold-start benchmark's installed-package measure: the app module imports `@tessera/core`
 * and `@auth/core` as Node resolves them, without a bundler. Tessera then loads
 * packages/core/dist module by module, @auth/core its own files; Node's import time follows
 * mostly the number of modules, which is what this measure shows (a bundle hides it).
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { appSource } from "./cold-start-apps.mjs";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const child = fileURLToPath(new URL("./cold-start-child.mjs", import.meta.url));
const moduleLog = fileURLToPath(new URL("./module-log.mjs", import.meta.url));

/**
 * Builds packages/core/dist, which `@tessera/core` resolves to without the `tessera-source`
 * condition. `tsc -b` is incremental: it rebuilds when a source is newer than its output (about
 * a second when nothing changed), so the measure never runs a stale build.
 */
export async function buildCoreDist() {
  try {
    await run("npx", ["tsc", "-b", "packages/core"], { cwd: root });
  } catch (error) {
    const { stdout = "", stderr = "" } = /** @type {{ stdout?: string, stderr?: string }} */ (
      error
    );
    throw new Error(
      `The installed-package measure needs packages/core/dist: \`npx tsc -b packages/core\` failed.\n${stdout}${stderr}`,
    );
  }
}

/**
 * Writes the entry module of each app for both libraries under `dir` (inside the repository, so
 * that Node finds the packages in its node_modules); returns their paths.
 *
 * @param {string} dir
 * @param {import("./cold-start-apps.mjs").AppId[]} apps
 * @returns {Record<string, string>} `${library}-${app}` → file
 */
export function installedApps(dir, apps) {
  mkdirSync(dir, { recursive: true });
  /** @type {Record<string, string>} */
  const files = {};
  for (const library of /** @type {const} */ (["tessera", "authjs"]))
    for (const app of apps) {
      const file = join(dir, `${library}-${app}.mjs`);
      writeFileSync(file, appSource(library, app));
      files[`${library}-${app}`] = file;
    }
  return files;
}

/**
 * The modules one fresh process loads, in order: during the import of `app`, and during its
 * first session read. Paths are relative to the repository (`packages/core/dist/lib/…`,
 * `node_modules/…`); Node's built-ins and the benchmark's own files are left out. Not timed: the
 * loader hook that lists them slows every load down.
 *
 * @param {string} app entry module
 * @param {string} cookie the session cookie header
 * @returns {Promise<{ import: string[], sessionRead: string[] }>}
 */
export async function loadedModules(app, cookie) {
  const { stderr } = await run(process.execPath, [
    "--import",
    pathToFileURL(moduleLog).href,
    child,
    app,
    cookie,
  ]);
  const prefix = pathToFileURL(root).href;
  /** @type {{ import: string[], sessionRead: string[] }} */
  const phases = { import: [], sessionRead: [] };
  let phase = phases.import;
  for (const line of stderr.split("\n")) {
    if (line === "cold-start: imported") phase = phases.sessionRead;
    if (!line.startsWith(`${prefix}`) || line === pathToFileURL(app).href) continue;
    const path = line.slice(prefix.length);
    if (path.startsWith("bench/")) continue;
    phase.push(path);
  }
  return phases;
}

/**
 * A module's short name for the report: `lib/config/resolve` for
 * `packages/core/dist/lib/config/resolve.js`, `cookie` for `node_modules/cookie/dist/index.js`.
 *
 * @param {string} path
 */
export function shortModuleName(path) {
  const dist = path.match(/^packages\/core\/dist\/(.+)\.js$/);
  if (dist) return /** @type {string} */ (dist[1]);
  const dependency = path.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  return dependency ? `${dependency[1]} (dependency)` : path;
}
