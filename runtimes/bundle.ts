/**
 * The runtime job's one build: a Workers module (runtimes/scenario/worker.ts, or the bench's
 * session-read worker) bundled as wrangler and Next.js's edge compiler would (edgeBuildOptions;
 * Node's built-in modules unresolvable, so a `node:` import anywhere in the app fails the build),
 * written beside the Bun and Deno hosts. The Edge Runtime evaluates scripts, not modules, so it
 * gets the same bundle turned into a script.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type Plugin, transform } from "esbuild";
import { workspaceRoot } from "./edge-entries.js";
import { edgeBuildOptions, nodeBuiltins } from "./node-imports.js";

/** How {@link buildWorkerBundle} builds. */
export interface BundleOptions {
  /** Leave Node's built-in modules to the runtime, as wrangler does under `nodejs_compat`. */
  nodejsCompat?: boolean;
  /** Also build node-host.mjs: toNodeHandler on a node:http server (runtimes/scenario/node-handler.ts). */
  nodeHost?: boolean;
}

/**
 * A CommonJS package's `require("events")` cannot stay a `require` in an ES module Worker: as
 * wrangler does under `nodejs_compat`, each such call gets a module that imports the built-in and
 * re-exports it (pg reads named exports: `require("events").EventEmitter`).
 */
const requireOfNodeBuiltins: Plugin = {
  name: "require-of-node-builtins",
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_]+(\/[a-z_]+)?$/ }, (args) => {
      const name = args.path.replace(/^node:/, "");
      if (!builtinModules.includes(name)) return undefined;
      if (args.kind !== "require-call") return { path: `node:${name}`, external: true };
      return { path: `node:${name}`, namespace: "node-builtin-require" };
    });
    build.onLoad({ filter: /.*/, namespace: "node-builtin-require" }, ({ path }) => ({
      contents: `export * from "${path}"; export { default } from "${path}";`,
      loader: "js",
      resolveDir: workspaceRoot,
    }));
  },
};

/** A built worker. */
export interface WorkerBundle {
  /**
   * A temporary folder holding worker.mjs, bun-host.mjs and deno-host.mjs, and node-host.mjs
   * (toNodeHandler on a node:http server).
   */
  dir: string;
  /** The Workers module (`export default { fetch }`). */
  workerModule: string;
  /** The same app as an Edge Runtime script: it answers `fetch` events. */
  edgeScript: string;
  /** Size of the bundle in bytes. */
  bytes: number;
  remove(): void;
}

const scenarioDir = join(import.meta.dirname, "scenario");

/**
 * Builds the Workers module `entry` (`export default { fetch(request, env) }`) once for every
 * runtime; by default the runtime job's scenario.
 *
 * @example
 * ```ts
 * const bundle = await buildWorkerBundle()
 * // miniflare: { modules: true, scriptPath: bundle.workerModule }
 * bundle.remove()
 * ```
 */
export async function buildWorkerBundle(
  entry = join(scenarioDir, "worker.ts"),
  options: BundleOptions = {},
): Promise<WorkerBundle> {
  const dir = mkdtempSync(join(tmpdir(), "tessera-runtimes-"));
  const workerModule = join(dir, "worker.mjs");
  await build({
    ...edgeBuildOptions,
    entryPoints: [entry],
    outfile: workerModule,
    // As wrangler bundles: Node's modules are the runtime's with nodejs_compat, `cloudflare:`
    // modules always; pg's optional native binding is never loaded on Workers.
    ...(options.nodejsCompat
      ? {
          external: [...nodeBuiltins, "cloudflare:*", "pg-native"],
          plugins: [requireOfNodeBuiltins],
        }
      : {}),
  });
  for (const host of ["bun-host.mjs", "deno-host.mjs"])
    copyFileSync(join(scenarioDir, host), join(dir, host));
  const source = readFileSync(workerModule, "utf8");
  const script = await transform(source, { format: "iife", globalName: "scenario" });
  const edgeScript = `${script.code}
addEventListener("fetch", (event) => event.respondWith(scenario.default.fetch(event.request, process.env)));
`;
  // toNodeHandler's app, for the runtimes with a node:http server (Bun and Deno).
  if (options.nodeHost)
    await build({
      ...edgeBuildOptions,
      platform: "node",
      conditions: ["tessera-source"],
      mainFields: ["module", "main"],
      entryPoints: [join(scenarioDir, "node-handler.ts")],
      outfile: join(dir, "node-host.mjs"),
      external: nodeBuiltins,
    });
  return {
    dir,
    workerModule,
    edgeScript,
    bytes: Buffer.byteLength(source),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
