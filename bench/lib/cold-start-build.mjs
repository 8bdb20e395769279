// @ts-check
/**
 * Builds the cold-start benchmark's bundles with esbuild: for each library and app, a Worker
 * bundle (the `worker`/`browser` export conditions, minified, as `wrangler` would ship it) whose
 * size is measured, and a Node bundle (everything inlined, unminified, as a serverless function is
 * deployed) that fresh processes import. Tessera is bundled from its TypeScript sources (the
 * `tessera-source` condition), so no `tsc` build is needed.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { APPS, appSource } from "./cold-start-apps.mjs";

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
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    stdin: { contents: appSource(library, app), resolveDir: root, loader: "js" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions:
      library === "tessera" ? ["tessera-source", "worker", "browser"] : ["worker", "browser"],
    minify: true,
    metafile: true,
    absWorkingDir: root,
    external: [...EXTERNAL, "node:*"],
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return {
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
    metafile: result.metafile,
  };
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
