/**
 * A `FullAuthConfig` made ready once per config object: the route options split off, the base path
 * set to the prefix, and the environment's `AUTH_*` defaults applied.
 */
import { type AuthConfig, raw, setEnvDefaults, siteUrlFromEnv } from "@tessera/core";
import { DEFAULT_PREFIX, type FullAuthConfig } from "./config.js";

/** What the routes and `getSession` need from a config. */
export interface PreparedConfig {
  config: AuthConfig;
  /** For session reads: data instead of a `Response`. */
  raw: AuthConfig & { raw: typeof raw };
  /** Whether `AUTH_URL` names the public origin (then the request's host is never used). */
  hasSiteUrl: boolean;
}

/**
 * The server's environment: the runtime's `process.env` where there is one (the Node adapter),
 * over what Vite put in `import.meta.env` at build time.
 */
function environment(): Record<string, string | undefined> {
  const built = (import.meta as { env?: Record<string, unknown> }).env ?? {};
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(built))
    if (typeof value === "string") env[name] = value;
  const runtime = (globalThis as { process?: { env?: Record<string, string | undefined> } })
    .process;
  return { ...env, ...runtime?.env };
}

const prepared = new WeakMap<FullAuthConfig, PreparedConfig>();

/**
 * Applies the defaults: base path = `prefix` (`/api/auth`), `trustHost` on (Astro decides which
 * Host headers reach `request.url`, through `security.allowedDomains`), then the core's
 * `setEnvDefaults` (`AUTH_SECRET`, `AUTH_URL`, `AUTH_{PROVIDER}_*`).
 */
export function prepareConfig(options: FullAuthConfig): PreparedConfig {
  let entry = prepared.get(options);
  if (!entry) {
    const { prefix, injectEndpoints: _inject, configFile: _file, ...rest } = options;
    const config = rest as AuthConfig;
    config.basePath ??= prefix ?? DEFAULT_PREFIX;
    config.trustHost ??= true;
    const env = environment();
    setEnvDefaults(env, config, true);
    entry = { config, raw: { ...config, raw }, hasSiteUrl: siteUrlFromEnv(env) !== undefined };
    prepared.set(options, entry);
  }
  return entry;
}
