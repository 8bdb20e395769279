// @ts-check
/**
 * The cost of one rate-limit count for a fresh key in `memoryStore()` (100 000 windows), before
 * and after the store is full: a flood of fresh identifiers must cost the same per key once the
 * store has to evict (it used to scan the whole map for each new key, 1–12 ms).
 *
 *   node bench/memory-store-eviction.mjs [keys=250000]
 *
 * Prints the mean microseconds per `consume` for each slice of 10 000 fresh keys.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceBundleOptions } from "./lib/build.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const [keysArg = "250000"] = process.argv.slice(2);
const esbuild = await import("esbuild");
const outfile = join(mkdtempSync(join(root, "node_modules", ".cache", "store-")), "store.mjs");
await esbuild.build({
  ...sourceBundleOptions,
  entryPoints: [join(root, "packages/core/src/store.ts")],
  outfile,
});
const { memoryStore } = await import(outfile);

const store = memoryStore();
const SLICE = 10_000;
const slices = [];
for (let done = 0; done < Number(keysArg); ) {
  const start = performance.now();
  for (let i = 0; i < SLICE; i++, done++) await store.consume(`fresh-${done}`, 60, 10);
  slices.push(`${done}: ${(((performance.now() - start) * 1000) / SLICE).toFixed(1)}`);
}
console.log(`µs per consume of a fresh key, by slice of ${SLICE}:\n${slices.join("\n")}`);
