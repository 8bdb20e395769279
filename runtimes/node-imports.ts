/**
 * Finds `node:` modules reached from entry points that must load on Workers and the Edge
 * Runtime, by bundling them as those platforms' tools do: esbuild, platform `neutral`, the
 * `workerd`/`worker`/`edge-light`/`browser` export conditions, and Node's built-in modules left
 * unresolved (wrangler without `nodejs_compat` and Next.js's edge build refuse them).
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { dirname, join, relative } from "node:path";
import { type BuildOptions, build, type Metafile, type Plugin } from "esbuild";
import { type EntryPoint, providedByHost, workspaceRoot } from "./edge-entries.js";

/**
 * esbuild options shared by the guard and the runtime job's bundle: what wrangler and Next.js's
 * edge compiler resolve (`tessera-source` so that workspace packages bundle from their sources).
 */
export const edgeBuildOptions = {
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  conditions: ["tessera-source", "workerd", "worker", "edge-light", "browser"],
  mainFields: ["browser", "module", "main"],
  absWorkingDir: workspaceRoot,
  logLevel: "silent",
} satisfies BuildOptions;

/** Node's built-in modules, with and without the `node:` prefix. */
export const nodeBuiltins = ["node:*", ...builtinModules.filter((name) => !name.startsWith("_"))];

const isNodeBuiltin = (path: string) =>
  path.startsWith("node:") || builtinModules.includes(path.split("/")[0] ?? path);

/**
 * Svelte components load through the app's Svelte compiler; for the guard only their `<script>`
 * imports matter, so a component is read as the TypeScript of its script blocks.
 */
const svelteScripts: Plugin = {
  name: "svelte-scripts",
  setup(build) {
    build.onLoad({ filter: /\.svelte$/ }, async ({ path }) => {
      const source = await readFile(path, "utf8");
      const scripts = [...source.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
      return { contents: `${scripts.join("\n")}\nexport default {};`, loader: "ts" };
    });
  },
};

/**
 * Astro components, likewise: their imports are in the frontmatter (between the leading `---`
 * fences) and in `<script>` blocks.
 */
const astroScripts: Plugin = {
  name: "astro-scripts",
  setup(build) {
    build.onLoad({ filter: /\.astro$/ }, async ({ path }) => {
      const source = await readFile(path, "utf8");
      const frontmatter = /^\s*---\r?\n([\s\S]*?)\r?\n---/.exec(source)?.[1] ?? "";
      const scripts = [...source.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
      return {
        contents: `${frontmatter}\n${scripts.join("\n")}\nexport default {};`,
        loader: "ts",
      };
    });
  },
};

/**
 * Whether the package that holds `file` turns `module` off for browser-like targets through its
 * `browser` field map (`"browser": { "crypto": false }`, as bcryptjs does). Bundlers for browser-like
 * targets (esbuild's default `browser` platform, which wrangler builds with, and webpack's web
 * targets) replace such a module with an empty one; the guard's `neutral` build does not apply the
 * map, hence this check.
 */
function disabledByBrowserMap(file: string, module: string): boolean {
  for (let dir = dirname(join(workspaceRoot, file)); dir !== dirname(dir); dir = dirname(dir)) {
    let manifest: { browser?: unknown };
    try {
      manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    } catch {
      continue;
    }
    const map = manifest.browser;
    return (
      typeof map === "object" && map !== null && (map as Record<string, unknown>)[module] === false
    );
  }
  return false;
}

/** A `node:` module reached from an entry point, with the import chain that reaches it. */
export interface NodeImport {
  entry: string;
  module: string;
  /** How the last module imports it: `import-statement`, `require-call`, `dynamic-import`. */
  kind: string;
  /** Source files from the entry point to the importing module, relative to the workspace. */
  chain: string[];
}

/** Each Node built-in reachable from `entry`, by the shortest import chain. */
function nodeImportsOf(entry: EntryPoint, inputs: Metafile["inputs"]): NodeImport[] {
  const start = relative(workspaceRoot, entry.file);
  const parent = new Map<string, string | undefined>([[start, undefined]]);
  const queue = [start];
  const found: NodeImport[] = [];
  const chainTo = (file: string) => {
    const chain: string[] = [];
    for (let at: string | undefined = file; at !== undefined; at = parent.get(at))
      chain.unshift(at);
    return chain;
  };
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const imported of inputs[file]?.imports ?? []) {
      if (imported.external) {
        if (isNodeBuiltin(imported.path) && !disabledByBrowserMap(file, imported.path))
          found.push({
            entry: entry.specifier,
            module: imported.path,
            kind: imported.kind,
            chain: chainTo(file),
          });
      } else if (!parent.has(imported.path)) {
        parent.set(imported.path, file);
        queue.push(imported.path);
      }
    }
  }
  return found;
}

/**
 * Bundles `entries` (one esbuild run) and lists every Node built-in module they reach.
 *
 * @example
 * ```ts
 * const found = await findNodeImports(edgeEntryPoints())
 * for (const hit of found) console.log(`${hit.entry}: ${hit.module} via ${hit.chain.join(" → ")}`)
 * ```
 */
export async function findNodeImports(entries: EntryPoint[]): Promise<NodeImport[]> {
  const result = await build({
    ...edgeBuildOptions,
    entryPoints: entries.map((entry, index) => ({ in: entry.file, out: `entry-${index}` })),
    outdir: "guard-out",
    write: false,
    metafile: true,
    external: [...nodeBuiltins, ...providedByHost],
    plugins: [svelteScripts, astroScripts],
  });
  return entries.flatMap((entry) => nodeImportsOf(entry, result.metafile.inputs));
}
