/**
 * The Vite plugin behind the `auth:config` module (the app's `auth.config.ts`) and the facts the
 * integration learnt from `astro.config` at setup, which server code reads at run time.
 */

/** What server code learns from `astro.config` (the `tessera:astro/setup` module). */
export interface AstroSetup {
  /** Whether `security.allowedDomains` lists any domain: then Astro reads the Host header. */
  allowedDomains: boolean;
}

/** The part of a Vite plugin this one uses; structurally a Vite `Plugin` of any major. */
export interface VirtualModulesPlugin {
  name: string;
  enforce: "pre";
  resolveId(id: string): string | undefined;
  load(id: string): string | undefined;
}

const CONFIG_ID = "auth:config";
const SETUP_ID = "tessera:astro/setup";

/**
 * Serves `auth:config` (re-exporting the default export of `configFile`, resolved by Vite from the
 * project root) and `tessera:astro/setup`.
 *
 * @example
 * ```ts
 * updateConfig({ vite: { plugins: [virtualModules("/app/auth.config", { allowedDomains: false })] } })
 * ```
 */
export function virtualModules(configFile: string, setup: AstroSetup): VirtualModulesPlugin {
  const modules = new Map([
    [
      `\0${CONFIG_ID}`,
      `import config from ${JSON.stringify(configFile)};\nexport default config;\n`,
    ],
    [`\0${SETUP_ID}`, `export default ${JSON.stringify(setup)};\n`],
  ]);
  return {
    name: "tessera-astro-virtual-modules",
    enforce: "pre",
    resolveId: (id) => (id === CONFIG_ID || id === SETUP_ID ? `\0${id}` : undefined),
    load: (id) => modules.get(id),
  };
}
