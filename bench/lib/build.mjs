// @ts-check
/**
 * Bundles Tessera's TypeScript sources (through the `tessera-source` export condition) into a
 * private directory, so that the benchmark always measures the current sources without a `tsc`
 * build and without touching the packages' shared `dist/` folders. Third-party packages stay
 * external and load from node_modules exactly as an application would load them.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * How every benchmark bundles Tessera: its TypeScript sources (the `tessera-source` condition)
 * into one ES module for Node 20, quietly (a failure is reported by the caller).
 *
 * @type {import("esbuild").BuildOptions}
 */
export const sourceBundleOptions = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  conditions: ["tessera-source"],
  logLevel: "silent",
};

/** The entry points: one module per Tessera package the benchmark drives. */
const entries = {
  core: 'export { Auth, raw } from "@tessera/core"; export { encode, decode } from "@tessera/core/jwt"; export { default as Credentials } from "@tessera/core/providers/credentials"; export { toNodeHandler } from "@tessera/core/node";',
  memory: 'export { MemoryAdapter, createMemoryStore } from "@tessera/memory";',
  sql: 'export { SqlAdapter, createPostgresDb, createSqliteDb, migrate, dropSchema } from "@tessera/sql";',
  redis: 'export { RedisAdapter, createRedisClient, redisStore } from "@tessera/redis";',
  express: 'export { ExpressAuth, getSession, toWebRequest } from "@tessera/express";',
  password:
    'export { Auth } from "@tessera/core"; export { Password, password, hashPassword } from "@tessera/core/password"; export { MemoryAdapter } from "@tessera/memory";',
};

/**
 * Builds the bundle and returns the absolute path of each entry (`undefined` for a package whose
 * sources do not build, e.g. while it is being written). `sourceRoot` is the checkout whose
 * sources are bundled (default: this one; bench/compare-revisions.mjs passes an older one).
 *
 * @param {string} [sourceRoot]
 * @returns {Promise<{ dir: string, modules: Record<keyof typeof entries, string | undefined>, failures: Record<string, string> }>}
 */
export async function buildTessera(sourceRoot = root) {
  const esbuild = await import("esbuild");
  // Inside the repository so that the bundle's bare imports resolve from its node_modules.
  const cache = join(sourceRoot, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, "tessera-bench-"));
  /** @type {Record<string, string | undefined>} */
  const modules = {};
  /** @type {Record<string, string>} */
  const failures = {};
  // Each package separately, so that one unfinished package does not hide the others; core is
  // bundled into each output, which changes nothing for the benchmark (each run uses one).
  for (const [name, contents] of Object.entries(entries)) {
    const outfile = join(dir, `${name}.mjs`);
    try {
      await esbuild.build({
        ...sourceBundleOptions,
        stdin: { contents, resolveDir: sourceRoot, loader: "js", sourcefile: `${name}-entry.mjs` },
        outfile,
        sourcemap: "inline",
        plugins: [externalDependencies],
      });
      modules[name] = outfile;
    } catch (error) {
      failures[name] = String(/** @type {Error} */ (error).message)
        .split("\n")
        .slice(0, 3)
        .join(" ");
    }
  }
  return { dir, modules: /** @type {any} */ (modules), failures };
}

/** Everything but Tessera's own packages and relative imports is loaded from node_modules. */
const externalDependencies = {
  name: "external-dependencies",
  /** @param {import("esbuild").PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@tessera/") ? undefined : { path: args.path, external: true },
    );
  },
};
