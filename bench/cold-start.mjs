// @ts-check
/**
 * `npm run bench:cold`: what Tessera and @auth/core cost before and at the first request, in one
 * run, side by side. For each app (bench/lib/cold-start-apps.mjs): the Worker bundle's size
 * (minified and gzip; sizes do not depend on the machine's load), and in fresh Node processes
 * taking turns, the time to import the app's bundle and to answer its first session read, and the
 * first request to the built-in sign-in page after it; the same for the app importing the
 * installed packages as Node resolves them, without a bundler (Tessera from packages/core/dist,
 * which the run builds with `tsc -b` when it is missing or stale), with the modules each library
 * loads. Medians over the runs. Also the Next.js Edge
 * middleware bundle of `export { auth as middleware }` (credentials only) for @tessera/next and,
 * when it is installed, next-auth v5. Writes
 * cold-start.json and the section between the cold-start markers of RESULTS.md.
 *
 * Settings: COLD_RUNS (fresh processes per library and app, default 31), COLD_OUT (folder).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encode } from "@auth/core/jwt";
import { APPS, SECRET, SESSION_COOKIE } from "./lib/cold-start-apps.mjs";
import {
  middlewareBundle,
  nextAuthV5Installed,
  nodeBundles,
  splitMiddlewareBundle,
  splitWorkerBundle,
  workerBundle,
} from "./lib/cold-start-build.mjs";
import {
  buildCoreDist,
  installedApps,
  loadedModules,
  shortModuleName,
} from "./lib/cold-start-installed.mjs";
import { medians, timeFreshProcesses } from "./lib/cold-start-times.mjs";

const benchDir = fileURLToPath(new URL(".", import.meta.url));
const outDir = process.env.COLD_OUT ?? benchDir;
const runs = Number(process.env.COLD_RUNS ?? 31);
const libraries = /** @type {const} */ (["tessera", "authjs"]);
const apps = /** @type {(keyof typeof APPS)[]} */ (Object.keys(APPS));
/**
 * @simplewebauthn/server is not installed here and @auth/core imports it statically, so the
 * full app's bundle for @auth/core cannot be loaded in Node; only its size is measured.
 */
const timedApps = apps.filter((app) => app !== "full");

const loadBefore = os.loadavg();
const started = performance.now();

/** @type {Record<string, Record<string, { minified: number, gzip: number, startupMinified: number, startupGzip: number }>>} */
const sizes = {};
for (const app of apps) {
  sizes[app] = {};
  for (const library of libraries) {
    const { minified, gzip } = await workerBundle(library, app);
    const { startup } = await splitWorkerBundle(library, app);
    sizes[app][library] = {
      minified,
      gzip,
      startupMinified: startup.minified,
      startupGzip: startup.gzip,
    };
  }
}

/**
 * The Edge middleware bundles; next-auth v5 only when installed (the repository's `next-auth`
 * may be v4, which has no `export { auth as middleware }`).
 * @type {Record<string, { minified: number, gzip: number, startupMinified: number, startupGzip: number }>}
 */
const middleware = {};
for (const library of /** @type {const} */ (["tessera", "nextauth"])) {
  if (library === "nextauth" && !nextAuthV5Installed()) continue;
  const { minified, gzip } = await middlewareBundle(library);
  const { startup } = await splitMiddlewareBundle(library);
  middleware[library] = {
    minified,
    gzip,
    startupMinified: startup.minified,
    startupGzip: startup.gzip,
  };
}

// Before any timing: `tsc -b` is a compiler run, which would load the machine.
await buildCoreDist();
const dir = join(benchDir, "..", "node_modules", ".cache", `cold-start-${process.pid}`);
const files = await nodeBundles(dir);
const installed = installedApps(join(dir, "installed"), timedApps);
const token = await encode({
  token: { name: "Ada", email: "ada@example.com", sub: "u1" },
  secret: SECRET,
  salt: SESSION_COOKIE,
});
const cookie = `${SESSION_COOKIE}=${token}`;
/**
 * The modules each library loads at import and at the first session read of the credentials-only
 * app, importing the installed packages (one untimed process each).
 * @type {Record<string, { import: string[], sessionRead: string[] }>}
 */
const modules = {};
/** @type {Awaited<ReturnType<typeof timeFreshProcesses>>} */
let samples;
try {
  for (const library of libraries)
    modules[library] = await loadedModules(installed[`${library}-credentials`], cookie);
  /** @type {Record<string, Record<"tessera" | "authjs", string>>} */
  const timed = {};
  for (const app of timedApps) {
    timed[app] = { tessera: files[`tessera-${app}`], authjs: files[`authjs-${app}`] };
    timed[`${app}-installed`] = {
      tessera: installed[`tessera-${app}`],
      authjs: installed[`authjs-${app}`],
    };
  }
  samples = await timeFreshProcesses(timed, cookie, runs);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** @type {Record<string, Record<string, import("./lib/cold-start-times.mjs").Times>>} */
const times = {};
/** @type {Record<string, Record<string, import("./lib/cold-start-times.mjs").Times>>} */
const installedTimes = {};
for (const app of timedApps) {
  times[app] = {};
  installedTimes[app] = {};
  for (const library of libraries) {
    times[app][library] = medians(samples[app][library]);
    installedTimes[app][library] = medians(samples[`${app}-installed`][library]);
  }
}

const results = {
  date: new Date().toISOString(),
  seconds: Math.round((performance.now() - started) / 1000),
  node: process.version,
  cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}`,
  loadBefore,
  loadAfter: os.loadavg(),
  runs,
  sizes,
  middleware,
  times,
  installed: {
    times: installedTimes,
    modules: Object.fromEntries(
      Object.entries(modules).map(([library, loaded]) => [
        library,
        {
          import: loaded.import.map(shortModuleName),
          sessionRead: loaded.sessionRead.map(shortModuleName),
        },
      ]),
    ),
  },
};
writeFileSync(join(outDir, "cold-start.json"), `${JSON.stringify(results, null, 2)}\n`);

const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`;
const ratio = (/** @type {number} */ a, /** @type {number} */ b) => `**${(a / b).toFixed(2)}×**`;
const load = (/** @type {number[]} */ l) => l.map((v) => v.toFixed(2)).join(" / ");
/** What each timed measure is called in the tables. */
const MEASURE_LABELS = {
  import: "import",
  firstRequest: "import + first session read",
  signinPage: "sign-in page after",
  process: "process (spawn to exit)",
};

/**
 * One table row per timed app and measure: Tessera, @auth/core and their ratio.
 *
 * @param {Record<string, Record<string, Record<string, number>>>} timings app → library → measure → ms
 * @param {(keyof typeof MEASURE_LABELS)[]} measures
 */
function timeRows(timings, measures) {
  return timedApps.flatMap((app) =>
    measures.map((key) => {
      const { tessera, authjs } = timings[app] ?? {};
      return `| ${APPS[app]} | ${MEASURE_LABELS[key]} | ${ms(tessera?.[key] ?? Number.NaN)} | ${ms(authjs?.[key] ?? Number.NaN)} | ${ratio(tessera?.[key] ?? Number.NaN, authjs?.[key] ?? Number.NaN)} |`;
    }),
  );
}

const lines = [
  `Run of ${results.date}, ${results.seconds} s, ${runs} fresh processes per library and app. Machine: ${results.cpus}, Node ${results.node};`,
  `load average ${load(loadBefore)} before the run, ${load(results.loadAfter)} after (other engineers' tests share the machine: the times are medians and the ratios matter more than the absolute figures).`,
  "",
  'Worker bundle (esbuild, `worker`/`browser` conditions, minified; gzip level 9; `@simplewebauthn/server` stays outside both bundles). "Start-up code" is the same bundle split at its `import()`s (esbuild `splitting`): the entry chunk and the chunks it imports statically, i.e. what is evaluated before the first request; the rest loads with the requests that need it.',
  "",
  "| App | Tessera min / gzip | @auth/core min / gzip | **Tessera ÷ @auth/core (gzip)** | Tessera start-up code min / gzip | **start-up ÷ @auth/core (gzip)** |",
  "|---|--:|--:|--:|--:|--:|",
  ...apps.map((app) => {
    const t = sizes[app].tessera;
    const a = sizes[app].authjs;
    return `| ${APPS[app]} | ${kb(t.minified)} / ${kb(t.gzip)} | ${kb(a.minified)} / ${kb(a.gzip)} | ${ratio(t.gzip, a.gzip)} | ${kb(t.startupMinified)} / ${kb(t.startupGzip)} | ${ratio(t.startupGzip, a.gzip)} |`;
  }),
  "",
  'Next.js Edge middleware: `middleware.ts` doing `export { auth as middleware } from "./auth"` with a credentials-only auth.ts, bundled by esbuild with the export conditions of Next.js\'s Edge compile (`edge-light`, `worker`, `browser`, `import`, `module`, `default`), `next` and `next/*` outside the bundle as Next.js provides them; minified, gzip level 9. "Start-up code" as above.',
  "",
  "| Library | min / gzip | start-up code min / gzip | **÷ next-auth v5 (gzip)** | **start-up ÷ next-auth v5 (gzip)** |",
  "|---|--:|--:|--:|--:|",
  ...Object.entries(middleware).map(([library, m]) => {
    const other = middleware.nextauth;
    const label = library === "tessera" ? "@tessera/next" : "next-auth v5";
    const ratios = other
      ? `${ratio(m.gzip, other.gzip)} | ${ratio(m.startupGzip, other.gzip)}`
      : "(next-auth v5 not installed) | –";
    return `| ${label} | ${kb(m.minified)} / ${kb(m.gzip)} | ${kb(m.startupMinified)} / ${kb(m.startupGzip)} | ${ratios} |`;
  }),
  "",
  'Fresh Node processes, each importing the app\'s Node bundle (all code inlined, as a serverless function ships it). "import" is the `import()` of the app; "+ first session read" adds `GET /auth/session` with a JWT session cookie; "sign-in page after" is the next request, `GET /auth/signin` (it loads the pages if they are loaded lazily); "process" is the whole process from spawn to exit.',
  "",
  "| App | Measure | Tessera | @auth/core | **Tessera ÷ @auth/core** |",
  "|---|---|--:|--:|--:|",
  ...timeRows(times, ["import", "firstRequest", "signinPage", "process"]),
  "",
  `Installed packages: the same app module importing \`@tessera/core\` and \`@auth/core\` as Node resolves them, without a bundler (Tessera from packages/core/dist, built by the run with \`tsc -b\`), in the same fresh processes taking turns. Node then loads each library module by module, and its import time follows mostly the number of modules: the credentials-only app loads ${modules.tessera.import.length} modules at import for Tessera (${modules.tessera.sessionRead.length} more at the first session read), ${modules.authjs.import.length} for @auth/core (${modules.authjs.sessionRead.length} more). The issue's targets: import ≤ 0.5×, import + first session read ≤ 0.6×.`,
  "",
  "| App | Measure | Tessera | @auth/core | **Tessera ÷ @auth/core** |",
  "|---|---|--:|--:|--:|",
  ...timeRows(installedTimes, ["import", "firstRequest", "signinPage"]),
  "",
  `Modules Tessera's credentials-only app loads at import, in order: ${results.installed.modules.tessera.import.join(", ")}.`,
];
const section = lines.join("\n");
console.log(section);
const resultsFile = join(outDir, "RESULTS.md");
const start = "<!-- bench:cold-start:start -->";
const end = "<!-- bench:cold-start:end -->";
let text = readFileSync(resultsFile, "utf8");
const from = text.indexOf(start);
const to = text.indexOf(end);
if (from >= 0 && to > from)
  text = `${text.slice(0, from + start.length)}\n\n${section}\n\n${text.slice(to)}`;
writeFileSync(resultsFile, text);
