/**
 * Environment defaults are applied to a config once, and the per-mount variant Express talks to is
 * built once, so that the core resolves each config a single time (its cache is per object).
 */
import { type AuthConfig, setEnvDefaults } from "@tessera/core";

/** Tessera's configuration for Express: the core `AuthConfig`. */
export type ExpressAuthConfig = Omit<AuthConfig, "raw">;

/** A config made ready for Express. */
export interface PreparedConfig {
  /** The options, with the mount path as `basePath` when mounted at a path. */
  config: AuthConfig;
  /** The base path without a trailing slash, e.g. `/auth`. */
  basePath: string;
}

interface PreparedEntry {
  /** One prepared config per base path, so that `Auth()` resolves each a single time. */
  byBasePath: Map<string, PreparedConfig>;
  /** The base path from the config, or `/auth`. */
  configured: string;
  /** The mount path `ExpressAuth` last answered under; `getSession` uses it, as Auth.js does. */
  mounted?: string;
  /** `mounted` as Express gave it (`req.baseUrl`), so that each request need not normalise it. */
  mountedFrom?: string;
}

const prepared = new WeakMap<ExpressAuthConfig, PreparedEntry>();

function normalise(path: string): string {
  const trimmed = `/${path.replace(/^\/+|\/+$/g, "")}`;
  return trimmed === "/" ? "" : trimmed;
}

function entryOf(config: ExpressAuthConfig): PreparedEntry {
  let entry = prepared.get(config);
  if (!entry) {
    setEnvDefaults(process.env, config as AuthConfig);
    entry = { byBasePath: new Map(), configured: normalise(config.basePath ?? "/auth") };
    prepared.set(config, entry);
  }
  return entry;
}

/**
 * Fills unset options from `process.env` (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`, …) and
 * caches the result for this config object. The base path is `mountPath` when given (where
 * `ExpressAuth` is mounted: `req.baseUrl`, as `@auth/express` takes it), else the one
 * `ExpressAuth` was last mounted at, else the config's (default `/auth`).
 */
export function prepareConfig(config: ExpressAuthConfig, mountPath?: string): PreparedConfig {
  const entry = entryOf(config);
  if (mountPath && mountPath !== entry.mountedFrom) {
    entry.mounted = normalise(mountPath);
    entry.mountedFrom = mountPath;
  }
  // Set just above when mounted: the mount path, else the last one, else the config's.
  const basePath = entry.mounted ?? entry.configured;
  let ready = entry.byBasePath.get(basePath);
  if (!ready) {
    const mounted = mountPath !== undefined || entry.mounted !== undefined;
    const options = mounted ? { ...(config as AuthConfig), basePath: basePath || "/" } : config;
    ready = { config: options as AuthConfig, basePath };
    entry.byBasePath.set(basePath, ready);
  }
  return ready;
}
