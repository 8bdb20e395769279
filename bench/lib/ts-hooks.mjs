// @ts-check
/**
 * Module hooks that let a plain `node` process import the repository's TypeScript sources one file
 * at a time (esbuild strips the types of each file; nothing is bundled), so that V8 sees every
 * source file as a script of its own and can report coverage per file. `@tessera/*` packages
 * resolve to their sources through the `tessera-source` export condition, as in the benchmark.
 *
 * Registered by `bench/walk-count.mjs` with `module.register`.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** @type {typeof import("esbuild") | undefined} */
let esbuild;

/**
 * @param {string} specifier
 * @param {{ conditions: string[], parentURL?: string }} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} next
 */
export async function resolve(specifier, context, next) {
  const withSource = { ...context, conditions: [...context.conditions, "tessera-source"] };
  try {
    return await next(specifier, withSource);
  } catch (error) {
    // The sources import each other as `./file.js` (what tsc emits); the file on disk is `.ts`.
    const parent = context.parentURL ?? "";
    if (specifier.startsWith(".") && specifier.endsWith(".js") && /\.tsx?$/.test(parent)) {
      return next(`${specifier.slice(0, -3)}.ts`, withSource);
    }
    throw error;
  }
}

/**
 * @param {string} url
 * @param {object} context
 * @param {(url: string, context: object) => Promise<object>} next
 */
export async function load(url, context, next) {
  if (!/\.tsx?$/.test(url)) return next(url, context);
  esbuild ??= await import("esbuild");
  const path = fileURLToPath(url);
  const { code } = await esbuild.transform(await readFile(path, "utf8"), {
    loader: path.endsWith(".tsx") ? "tsx" : "ts",
    format: "esm",
    target: "node20",
    sourcefile: path,
  });
  return { format: "module", source: code, shortCircuit: true };
}
