/**
 * Environment defaults are applied to a config once, and the `raw` variant Express talks to is
 * built once, so that `Auth()` resolves each config a single time (its cache is per object).
 */
import { type AuthConfig, raw, setEnvDefaults } from "@tessera/core";

/** Tessera's configuration for Express: the core `AuthConfig` (`raw` is set by the integration). */
export type ExpressAuthConfig = Omit<AuthConfig, "raw">;

/** A config made ready for Express. */
export interface PreparedConfig {
  /** The same options with `raw` set: `Auth()` returns data instead of a `Response`. */
  raw: AuthConfig & { raw: typeof raw };
  /** The base path without a trailing slash, e.g. `/auth`. */
  basePath: string;
}

const prepared = new WeakMap<ExpressAuthConfig, PreparedConfig>();

/**
 * Fills unset options from `process.env` (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`, …; the
 * base path defaults to `/auth`) and caches the result for this config object.
 */
export function prepareConfig(config: ExpressAuthConfig): PreparedConfig {
  let entry = prepared.get(config);
  if (!entry) {
    setEnvDefaults(process.env, config as AuthConfig);
    const basePath = `/${(config.basePath ?? "/auth").replace(/^\/+|\/+$/g, "")}`;
    entry = { raw: { ...(config as AuthConfig), raw }, basePath: basePath === "/" ? "" : basePath };
    prepared.set(config, entry);
  }
  return entry;
}
