// @ts-check
/**
 * Builds the cold-start benchmark's bundles with esbuild: for each library and app, a Worker
 * bundle (the `worker`/`browser` export conditions, minified, as `wrangler` would ship it) whose
 * size is measured, and a Node bundle (everything inlined, unminified, as a serverless function is
 * deployed) that fresh processes import. Tessera is bundled from its TypeScript sources (the
 * `tessera-source` condition), so no `tsc` build is needed.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { APPS, appSource, middlewareAuthSource } from "./cold-start-apps.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * `@simplewebauthn/server` is an optional peer of both libraries and is not installed here; it
 * stays outside both bundles alike (both load it only for passkey requests).
 */
const EXTERNAL = ["@simplewebauthn/server"];

/**
 * @typedef {object} BundleFigures
 * @property {number} minified bytes of the minified Worker bundle
 * @property {number} gzip bytes after gzip (level 9)
 * @property {import("esbuild").Metafile} metafile esbuild's account of what went in
 */

/**
 * The Worker bundle of one app.
 *
 * @param {import("./cold-start-apps.mjs").Library} library
 * @param {import("./cold-start-apps.mjs").AppId} app
 * @returns {Promise<BundleFigures>}
 */
export async function workerBundle(library, app) {
  return oneFileFigures(await buildWorker(library, app, false));
}

/** @param {import("esbuild").BuildResult & { outputFiles: import("esbuild").OutputFile[] }} result */
function oneFileFigures(result) {
  const code = result.outputFiles[0].contents;
  return {
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
    metafile: /** @type {import("esbuild").Metafile} */ (result.metafile),
  };
}

/**
 * The same Worker bundle split at its `import()`s (esbuild `splitting`): the entry chunk and the
 * chunks it imports statically are what an isolate evaluates before its first request; the
 * other chunks load on the requests that need them.
 *
 * @param {import("./cold-start-apps.mjs").Library} library
 * @param {import("./cold-start-apps.mjs").AppId} app
 * @returns {Promise<{ startup: { minified: number, gzip: number, inputs: Record<string, number> }, total: number, metafile: import("esbuild").Metafile }>}
 */
export async function splitWorkerBundle(library, app) {
  return splitFigures(await buildWorker(library, app, true));
}

/**
 * @param {import("esbuild").BuildResult & { outputFiles: import("esbuild").OutputFile[] }} result
 * @returns {{ startup: { minified: number, gzip: number, inputs: Record<string, number> }, total: number, metafile: import("esbuild").Metafile }}
 */
function splitFigures(result) {
  const metafile = /** @type {import("esbuild").Metafile} */ (result.metafile);
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((name) => outputs[name]?.entryPoint === "<stdin>");
  if (!entry) throw new Error("esbuild wrote no entry chunk");
  /** @type {Set<string>} */
  const startup = new Set();
  const visit = (/** @type {string} */ name) => {
    if (startup.has(name)) return;
    startup.add(name);
    for (const edge of outputs[name]?.imports ?? [])
      if (edge.kind === "import-statement" && !edge.external) visit(edge.path);
  };
  visit(entry);
  let minified = 0;
  let gzip = 0;
  let total = 0;
  /** @type {Record<string, number>} */
  const inputs = {};
  for (const file of result.outputFiles) {
    const name = Object.keys(outputs).find((key) => file.path.endsWith(key));
    total += file.contents.byteLength;
    if (!name || !startup.has(name)) continue;
    minified += file.contents.byteLength;
    gzip += gzipSync(file.contents, { level: 9 }).byteLength;
    for (const [input, { bytesInOutput }] of Object.entries(outputs[name]?.inputs ?? {}))
      inputs[input] = bytesInOutput;
  }
  return { startup: { minified, gzip, inputs }, total, metafile };
}

/**
 * @param {import("./cold-start-apps.mjs").Library} library
 * @param {import("./cold-start-apps.mjs").AppId} app
 * @param {boolean} splitting
 */
async function buildWorker(library, app, splitting) {
  return buildBundle(
    { contents: appSource(library, app) },
    library === "tessera" ? ["tessera-source", "worker", "browser"] : ["worker", "browser"],
    EXTERNAL,
    splitting,
  );
}

/**
 * One minified browser-platform ESM bundle of `entry` (an in-memory module resolved from the
 * repository root; `modules` are further in-memory modules it imports by `./name`).
 *
 * @param {{ contents: string, modules?: Record<string, string> }} entry
 * @param {string[]} conditions
 * @param {string[]} external
 * @param {boolean} splitting
 */
async function buildBundle(entry, conditions, external, splitting) {
  const esbuild = await import("esbuild");
  const modules = entry.modules ?? {};
  return esbuild.build({
    stdin: { contents: entry.contents, resolveDir: root, loader: "js" },
    bundle: true,
    write: false,
    splitting,
    ...(splitting ? { outdir: join(root, "node_modules", ".cache", "cold-start-split") } : {}),
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions,
    minify: true,
    metafile: true,
    absWorkingDir: root,
    external: [...external, "node:*"],
    logLevel: "silent",
    plugins: [
      {
        name: "app-modules",
        setup(build) {
          build.onResolve({ filter: /^\.\/[\w-]+$/ }, (args) =>
            args.path.slice(2) in modules
              ? { path: args.path.slice(2), namespace: "app" }
              : undefined,
          );
          build.onLoad({ filter: /.*/, namespace: "app" }, (args) => ({
            contents: modules[args.path],
            loader: "js",
            resolveDir: root,
          }));
        },
      },
    ],
  });
}

/**
 * Whether next-auth v5 (the library `@tessera/next`'s middleware bundle is compared with) is
 * installed: the repository's own `next-auth` may be missing or v4.
 */
export function nextAuthV5Installed() {
  try {
    const manifest = JSON.parse(
      readFileSync(join(root, "node_modules", "next-auth", "package.json"), "utf8"),
    );
    return typeof manifest.version === "string" && manifest.version.startsWith("5.");
  } catch {
    return false;
  }
}

/**
 * Next.js's Edge compile: the export conditions it resolves with for middleware, and the modules
 * it provides itself (`next/server`, `next/headers`, …), which stay outside the measured bundle.
 */
const EDGE_CONDITIONS = ["edge-light", "worker", "browser", "import", "module", "default"];
const NEXT_PROVIDED = ["next", "next/*", ...EXTERNAL];

/**
 * `middleware.ts` doing `export { auth as middleware } from "./auth"`, with a credentials-only
 * auth.ts, for `@tessera/next` or `next-auth` v5, bundled as Next.js's Edge compile resolves it.
 *
 * @param {"tessera" | "nextauth"} library
 * @param {boolean} splitting
 */
function buildMiddleware(library, splitting) {
  const pkg = library === "tessera" ? "@tessera/next" : "next-auth";
  return buildBundle(
    {
      contents: 'export { auth as middleware } from "./auth";',
      modules: { auth: middlewareAuthSource(pkg) },
    },
    library === "tessera" ? ["tessera-source", ...EDGE_CONDITIONS] : EDGE_CONDITIONS,
    NEXT_PROVIDED,
    splitting,
  );
}

/**
 * The Edge middleware bundle (one file) of a credentials-only Next.js app.
 *
 * @param {"tessera" | "nextauth"} library
 * @returns {Promise<BundleFigures>}
 */
export async function middlewareBundle(library) {
  return oneFileFigures(await buildMiddleware(library, false));
}

/**
 * The same middleware bundle split at its `import()`s; `startup` is what the middleware
 * evaluates before its first request.
 *
 * @param {"tessera" | "nextauth"} library
 */
export async function splitMiddlewareBundle(library) {
  return splitFigures(await buildMiddleware(library, true));
}

/**
 * Node bundles of every app for both libraries, written under `dir`; returns their paths.
 *
 * @param {string} dir
 * @returns {Promise<Record<string, string>>} `${library}-${app}` → file
 */
export async function nodeBundles(dir) {
  const esbuild = await import("esbuild");
  mkdirSync(dir, { recursive: true });
  /** @type {Record<string, string>} */
  const files = {};
  for (const library of /** @type {const} */ (["tessera", "authjs"]))
    for (const app of /** @type {(keyof typeof APPS)[]} */ (Object.keys(APPS))) {
      const outfile = join(dir, `${library}-${app}.mjs`);
      await esbuild.build({
        stdin: { contents: appSource(library, app), resolveDir: root, loader: "js" },
        bundle: true,
        outfile,
        format: "esm",
        platform: "node",
        target: "node20",
        conditions: library === "tessera" ? ["tessera-source"] : [],
        external: EXTERNAL,
        logLevel: "silent",
      });
      files[`${library}-${app}`] = outfile;
    }
  return files;
}
