// @ts-check
/**
 * What the credentials-only app (or another: `node bench/cold-start-profile.mjs github`, and
 * `… credentials authjs` for @auth/core) loads at start-up, in evaluation order, from esbuild's
 * metafile of its minified Worker bundle split at its `import()`s: the modules of the entry chunk
 * and the chunks it imports statically (evaluated before the first request), each with its bytes
 * and the chain of imports that brings it in; then the modules only reached through `import()`
 * (evaluated on the first request that needs them).
 */
import { APPS } from "./lib/cold-start-apps.mjs";
import { splitWorkerBundle, workerBundle } from "./lib/cold-start-build.mjs";

const app = /** @type {keyof typeof APPS} */ (process.argv[2] ?? "credentials");
if (!(app in APPS)) throw new Error(`unknown app ${app}: one of ${Object.keys(APPS).join(", ")}`);
const library = process.argv[3] === "authjs" ? "authjs" : "tessera";
const { metafile, minified, gzip } = await workerBundle(library, app);
const output = Object.values(metafile.outputs)[0];
if (!output) throw new Error("esbuild wrote no output");
const split = await splitWorkerBundle(library, app);
/** @param {string} path */
const bytes = (path) => output.inputs[path]?.bytesInOutput ?? 0;

/** @type {string[]} */
const order = [];
/** @type {Map<string, string>} */
const via = new Map();
/** @type {Set<string>} */
const seen = new Set();
/** @type {Set<string>} */
const dynamicTargets = new Set();
/** Depth-first, imports before the importer: the order in which ES modules evaluate. */
function visit(/** @type {string} */ path) {
  if (seen.has(path)) return;
  seen.add(path);
  for (const edge of metafile.inputs[path]?.imports ?? []) {
    // A module tree-shaken out of the start-up chunks (an unused re-export) is not evaluated.
    if (edge.external) continue;
    if (edge.kind === "dynamic-import") {
      dynamicTargets.add(edge.path);
      continue;
    }
    if (!via.has(edge.path)) via.set(edge.path, path);
    visit(edge.path);
  }
  order.push(path);
}
visit("<stdin>");

/** @param {string} path */
function chain(path) {
  const steps = [];
  for (let at = via.get(path); at && at !== "<stdin>"; at = via.get(at)) steps.push(short(at));
  return steps.reverse().join(" → ");
}
/** @param {string} path */
function short(path) {
  return path.replace(/^packages\/core\/src\//, "").replace(/^node_modules\//, "");
}

const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KB`;
// esbuild's split output says exactly which modules the start-up chunks hold.
const eager = order.filter((p) => (split.startup.inputs[p] ?? 0) > 0);
const eagerBytes = eager.reduce((sum, p) => sum + bytes(p), 0);
const lazyOnly = Object.keys(output.inputs).filter(
  (p) => !eager.includes(p) && p !== "<stdin>" && bytes(p) > 0,
);
const lazyBytes = lazyOnly.reduce((sum, p) => sum + bytes(p), 0);
console.log(
  `${library}, ${APPS[app]}: bundle ${kb(minified)} minified, ${kb(gzip)} gzip; ` +
    `${eager.length} modules (${kb(eagerBytes)}) evaluated at start-up, ` +
    `${lazyOnly.length} (${kb(lazyBytes)}) only through import().\n` +
    `Split at its import()s, the start-up chunks are ${kb(split.startup.minified)} minified, ${kb(split.startup.gzip)} gzip.`,
);
console.log("\nEvaluated at start-up, in order (bytes in the minified bundle, brought in by):");
for (const path of eager)
  console.log(
    `${String(bytes(path)).padStart(7)}  ${short(path)}${via.get(path) ? `   ← ${chain(path)}` : ""}`,
  );
console.log("\nOnly through import() (evaluated on the first request that needs them):");
for (const path of lazyOnly.sort((a, b) => bytes(b) - bytes(a)))
  console.log(`${String(bytes(path)).padStart(7)}  ${short(path)}`);
