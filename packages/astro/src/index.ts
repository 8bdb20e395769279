/**
 * Tessera for Astro, drop-in for `auth-astro`: the `auth()` integration for `astro.config`,
 * `defineConfig` for `auth.config.ts`, and the `auth:config` module that serves that file to
 * server code. The routes answer at `/api/auth/*` unless `prefix` says otherwise.
 *
 * @example
 * ```ts
 * // astro.config.mjs
 * import node from "@astrojs/node"
 * import auth from "@tessera/astro"
 * import { defineConfig } from "astro/config"
 * export default defineConfig({ output: "server", adapter: node({ mode: "standalone" }), integrations: [auth()] })
 * ```
 */
/// <reference path="./virtual.d.ts" preserve="true" />
import type { AstroIntegration } from "astro";
import { type AstroAuthConfig, DEFAULT_PREFIX } from "./config.js";
import { virtualModules } from "./vite.js";

export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type { Account, DefaultSession, Profile, Session, User } from "@tessera/core/types";
export { type AstroAuthConfig, defineConfig, type FullAuthConfig } from "./config.js";

/** The route module next to this one: `.ts` when run from source, `.js` from `dist/`. */
function routeEntrypoint(): URL {
  const extension = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  return new URL(`./route${extension}`, import.meta.url);
}

/**
 * `node:url`, reached through `process.getBuiltinModule` (Node ≥ 20.16) rather than an import:
 * auth.config.ts imports this module for `defineConfig`, so it lands in server bundles for edge
 * runtimes, where no `node:` module may be imported. The integration itself runs in Node only,
 * inside `astro build` and `astro dev`.
 */
function nodeUrl(): typeof import("node:url") {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const url = proc?.getBuiltinModule?.("node:url") as typeof import("node:url") | undefined;
  if (!url) throw new Error("@tessera/astro's integration runs in Node.js 20.16 or later.");
  return url;
}

/**
 * The Astro integration: serves `auth.config.ts` as `auth:config` and injects the
 * `<prefix>/[...auth]` route (server-rendered) that answers every auth action. Needs an adapter
 * (the routes run on a server). Behind a proxy or on a public host name, set Astro's
 * `security.allowedDomains` (or `AUTH_URL`): without it Astro reports every request as
 * `http://localhost/`, and the routes refuse to build redirects from that.
 *
 * @example
 * ```ts
 * export default defineConfig({
 *   output: "server",
 *   adapter: node({ mode: "standalone" }),
 *   security: { allowedDomains: [{ hostname: "app.example.com", protocol: "https" }] },
 *   integrations: [auth({ configFile: "./src/auth.config" })],
 * })
 * ```
 */
export default function auth(options: AstroAuthConfig = {}): AstroIntegration {
  return {
    name: "@tessera/astro",
    hooks: {
      "astro:config:setup": async ({ config, injectRoute, updateConfig, logger }) => {
        const { fileURLToPath } = nodeUrl();
        const configFile = fileURLToPath(
          new URL(options.configFile ?? "./auth.config", config.root),
        );
        const allowedDomains = (config.security?.allowedDomains?.length ?? 0) > 0;
        updateConfig({
          vite: {
            plugins: [virtualModules(configFile, { allowedDomains })],
            optimizeDeps: { exclude: ["auth:config"] },
          },
        });
        if (options.injectEndpoints !== false)
          injectRoute({
            pattern: `${options.prefix ?? DEFAULT_PREFIX}/[...auth]`,
            entrypoint: fileURLToPath(routeEntrypoint()),
            prerender: false,
          });
        if (!config.adapter)
          logger.error(
            'No adapter is set: the auth routes run on a server. Add one to astro.config, e.g. `adapter: node({ mode: "standalone" })` from @astrojs/node.',
          );
      },
    },
  };
}
