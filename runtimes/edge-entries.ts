/**
 * Which entry points of the workspace packages must load where there is no `node:` module
 * (Cloudflare workerd without `nodejs_compat`, Vercel's Edge Runtime), and which are Node-only,
 * each with the reason. The guard in node-imports.test.ts bundles every non-Node entry point.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const workspaceRoot = resolve(import.meta.dirname, "..");

/** Packages that run on Node only, and why. Every entry point of them is skipped. */
export const nodeOnlyPackages: Record<string, string> = {
  "@tessera/express": "Express runs on Node's http server",
  "@tessera/redis": "ioredis talks to Redis through node:net and node:tls",
  "@tessera/adapter-test": "the adapter conformance suite runs under vitest on Node",
};

/** Node-only entry points of packages that otherwise load everywhere, and why. */
export const nodeOnlyEntries: Record<string, string> = {
  "@tessera/nuxt":
    "the Nuxt module runs inside nuxi's build on Node; what the deployed server loads is /server and /composables",
  "@tessera/core/node":
    "toNodeHandler reads node:http's IncomingMessage and writes its ServerResponse",
  "@tessera/sql":
    "it loads the Node drivers (better-sqlite3, pg, mysql2); Cloudflare D1 has its own entry, @tessera/sql/d1",
  "@tessera/sql/postgres":
    "pg reaches node:net, node:events and node:crypto: on Workers it needs nodejs_compat (runtimes/databases.test.ts)",
};

/**
 * Modules that the runtime or the framework provides, left out of the bundle: peer dependencies
 * (Next.js, React, SvelteKit, Astro, Qwik, TanStack Start, Nuxt and its Nitro server), the virtual
 * modules of SvelteKit, @tessera/astro and @tessera/nuxt, and the optional peers the core loads
 * only when a provider that needs them is configured (Nodemailer, SimpleWebAuthn).
 */
export const providedByHost = [
  "next",
  "next/*",
  "react",
  "react/*",
  "react-dom",
  "react-dom/*",
  "@sveltejs/kit",
  "@sveltejs/kit/*",
  "svelte",
  "svelte/*",
  "$app/*",
  "$env/*",
  "astro",
  "astro/*",
  "auth:config",
  "tessera:astro/*",
  "@builder.io/qwik",
  "@builder.io/qwik/*",
  "@builder.io/qwik-city",
  "@builder.io/qwik-city/*",
  "@tanstack/react-start",
  "@tanstack/react-start/*",
  "nuxt",
  "nuxt/*",
  "nitropack/runtime",
  "h3",
  "#imports",
  "#app",
  "#tessera/config",
  "nodemailer",
  "@simplewebauthn/server",
];

/** One entry point: its import specifier and the source file it resolves to. */
export interface EntryPoint {
  specifier: string;
  file: string;
}

type ExportTarget = string | { [condition: string]: ExportTarget };

/** The file an export resolves to under the conditions a Workers or Edge bundler uses. */
function sourceOf(target: ExportTarget): string | undefined {
  if (typeof target === "string") return target;
  for (const condition of ["tessera-source", "svelte", "default"]) {
    const found = target[condition];
    if (found !== undefined) return sourceOf(found);
  }
  return undefined;
}

/** Every `exports` entry of every workspace package that must load without `node:` modules. */
export function edgeEntryPoints(): EntryPoint[] {
  const entries: EntryPoint[] = [];
  for (const folder of readdirSync(join(workspaceRoot, "packages"))) {
    const dir = join(workspaceRoot, "packages", folder);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      name: string;
      exports: Record<string, ExportTarget>;
    };
    if (manifest.name in nodeOnlyPackages) continue;
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath === "./package.json") continue;
      const specifier = subpath === "." ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
      if (specifier in nodeOnlyEntries) continue;
      const file = sourceOf(target);
      if (!file) throw new Error(`${specifier}: no source file in its exports entry`);
      if (!subpath.includes("*")) {
        entries.push({ specifier, file: join(dir, file) });
        continue;
      }
      // A pattern export (`./providers/*`): every file it matches.
      const [before = "", after = ""] = file.split("*");
      const folderOfPattern = join(dir, before.slice(0, before.lastIndexOf("/")));
      const prefix = before.slice(before.lastIndexOf("/") + 1);
      for (const name of readdirSync(folderOfPattern)) {
        if (!name.startsWith(prefix) || !name.endsWith(after) || name.endsWith(".d.ts")) continue;
        const stem = name.slice(prefix.length, name.length - after.length);
        entries.push({
          specifier: specifier.replace("*", stem),
          file: join(folderOfPattern, name),
        });
      }
    }
  }
  return entries;
}
