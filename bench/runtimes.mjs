// @ts-check
/**
 * `npm run bench:runtimes`: the in-process JWT session read of Tessera and @auth/core side by side
 * on each runtime of the runtime job — Node, Bun, Deno, workerd with and without `nodejs_compat`,
 * Vercel's Edge Runtime — from one bundle (bench/runtimes/session-read-worker.ts, built like the
 * job's scenario). Where there is no `node:crypto` (workerd without the flag, the Edge Runtime),
 * Tessera's WebCrypto path is what runs.
 *
 * Each request asks the runtime for BENCH_RUNTIME_READS session reads by one library and is timed
 * from here (workerd's clock stands still while a request computes); rounds alternate the two
 * libraries, the ratio is taken round by round and its median reported. Writes RUNTIMES.md into
 * BENCH_OUT (default this folder). BENCH_SMOKE=1 runs tiny counts only to prove the script works.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { encode } from "@auth/core/jwt";
import { build } from "esbuild";
import { MAX_AGE, SECRET, SESSION_COOKIE, TOKEN_CLAIMS, USER } from "./lib/fixtures.mjs";
import { median } from "./lib/measure.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const benchDir = fileURLToPath(new URL(".", import.meta.url));
const smoke = process.env.BENCH_SMOKE === "1";
const rounds = smoke ? 1 : Number(process.env.BENCH_RUNTIME_ROUNDS ?? 7);
const reads = smoke ? 5 : Number(process.env.BENCH_RUNTIME_READS ?? 1000);
const outDir = process.env.BENCH_OUT ?? benchDir;
const log = (/** @type {string} */ line) => console.log(line);

/**
 * The runtime job's hosts and bundler (TypeScript under runtimes/), compiled for this script
 * into node_modules/.cache so that their bare imports resolve from the repository.
 */
async function loadRuntimeHosts() {
  const cache = join(root, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, "tessera-bench-runtimes-"));
  const outfile = join(dir, "hosts.mjs");
  await build({
    stdin: {
      contents:
        'export { buildWorkerBundle } from "./runtimes/bundle.ts"; export { runtimeHosts } from "./runtimes/hosts.ts"; export { freePort } from "./packages/core/test/fixtures/ports.ts";',
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile,
    // The modules find the runtimes/ folder (host scripts, node_modules) from their own location.
    define: { "import.meta.dirname": JSON.stringify(join(root, "runtimes")) },
    logLevel: "silent",
  });
  return { dir, module: await import(pathToFileURL(outfile).href) };
}

/**
 * @typedef {(library: "tessera" | "authjs", count: number) => Promise<string>} ReadMany
 *   asks for `count` session reads by `library`; answers the last session read
 */

/**
 * Times `readMany` round by round, the two libraries alternating, after a warm-up.
 *
 * @param {ReadMany} readMany
 */
async function measure(readMany) {
  for (const library of /** @type {const} */ (["tessera", "authjs"])) {
    const session = JSON.parse(await readMany(library, Math.max(5, reads / 4)));
    if (session?.user?.email !== USER.email)
      throw new Error(`${library} did not read the session: ${JSON.stringify(session)}`);
  }
  /** @type {Record<"tessera" | "authjs", number[]>} */
  const seconds = { tessera: [], authjs: [] };
  /** @type {number[]} */
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    const order = /** @type {const} */ (round % 2 ? ["authjs", "tessera"] : ["tessera", "authjs"]);
    for (const library of order) {
      const start = performance.now();
      await readMany(library, reads);
      seconds[library].push((performance.now() - start) / 1000);
    }
    ratios.push(
      /** @type {number} */ (seconds.authjs.at(-1)) /
        /** @type {number} */ (seconds.tessera.at(-1)),
    );
  }
  return {
    tessera: reads / median(seconds.tessera),
    authjs: reads / median(seconds.authjs),
    ratio: median(ratios),
  };
}

const started = performance.now();
const loadBefore = os.loadavg();
const hosts = await loadRuntimeHosts();
const { buildWorkerBundle, freePort, runtimeHosts } = hosts.module;
const bundle = await buildWorkerBundle(join(benchDir, "runtimes", "session-read-worker.ts"));
const env = {
  BENCH_SECRET: SECRET,
  BENCH_TOKEN: await encode({
    token: TOKEN_CLAIMS,
    secret: SECRET,
    salt: SESSION_COOKIE,
    maxAge: MAX_AGE,
  }),
};

/** @type {{ runtime: string, tessera: number, authjs: number, ratio: number }[]} */
const results = [];
try {
  log(
    `JWT session read in process, Tessera vs @auth/core, ${reads} reads per request, ${rounds} rounds; Node ${process.version}, ${os.availableParallelism()} CPUs, load ${loadBefore.map((l) => l.toFixed(2)).join(" ")}`,
  );
  // Node: the same bundle, called in this process.
  const worker = (await import(pathToFileURL(bundle.workerModule).href)).default;
  /** @type {ReadMany} */
  const inNode = async (library, count) => {
    const url = `http://localhost/?library=${library}&reads=${count}`;
    return (await worker.fetch(new Request(url), env)).text();
  };
  results.push({ runtime: "Node", ...(await measure(inNode)) });
  log(format(/** @type {any} */ (results.at(-1))));

  for (const host of runtimeHosts) {
    const running = await host.start(bundle, await freePort(), env);
    try {
      /** @type {ReadMany} */
      const overHttp = async (library, count) => {
        const response = await fetch(`${running.url}/?library=${library}&reads=${count}`);
        if (!response.ok)
          throw new Error(`${host.name}: ${response.status} ${await response.text()}`);
        return response.text();
      };
      results.push({ runtime: host.name, ...(await measure(overHttp)) });
      log(format(/** @type {any} */ (results.at(-1))));
    } finally {
      await running.stop();
    }
  }
} finally {
  bundle.remove();
  rmSync(hosts.dir, { recursive: true, force: true });
}

/** @param {{ runtime: string, tessera: number, authjs: number, ratio: number }} row */
function format(row) {
  return `  ${row.runtime.padEnd(28)} Tessera ${Math.round(row.tessera).toLocaleString("en").padStart(8)} reads/s   @auth/core ${Math.round(row.authjs).toLocaleString("en").padStart(7)} reads/s   ${row.ratio.toFixed(1)}×`;
}

const markdown = [
  "# JWT session read on each runtime",
  "",
  "Generated by `npm run bench:runtimes` (bench/runtimes.mjs); do not edit by hand.",
  "",
  `Node ${process.version}, ${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.availableParallelism()} CPUs, load before ${loadBefore.map((l) => l.toFixed(2)).join(" ")}; ${reads} reads per request, ${rounds} rounds, ${Math.round((performance.now() - started) / 1000)} s in all.`,
  "",
  ...(loadBefore[0] > os.availableParallelism()
    ? [
        `The machine was loaded (load average ${loadBefore[0].toFixed(1)} on ${os.availableParallelism()} CPUs): other processes had most of the CPU, so the rates are low and the ratios compressed. Rerun on a quiet machine for figures to compare with bench/RESULTS.md.`,
        "",
      ]
    : []),
  "| Runtime | Tessera (reads/s) | @auth/core (reads/s) | Tessera ÷ @auth/core (median of rounds) |",
  "| --- | ---: | ---: | ---: |",
  ...results.map(
    (row) =>
      `| ${row.runtime} | ${Math.round(row.tessera).toLocaleString("en")} | ${Math.round(row.authjs).toLocaleString("en")} | ${row.ratio.toFixed(1)}× |`,
  ),
  "",
  "Each row runs one bundle (built like the runtime job's, no `node:` module) in that runtime;",
  "Tessera takes `node:crypto` where the runtime offers it (Node, Bun, Deno, workerd with",
  "`nodejs_compat`) and WebCrypto elsewhere. Requests are timed from Node over loopback, which adds",
  "well under a millisecond to each batch of reads.",
  "",
].join("\n");
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "RUNTIMES.md"), markdown);
log(`wrote ${join(outDir, "RUNTIMES.md")}`);
