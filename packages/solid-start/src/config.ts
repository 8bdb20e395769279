/**
 * A SolidStart config made ready once per config object: the route prefix becomes the core's
 * `basePath` (so that the catch-all route and the core agree on where the actions live), and the
 * environment defaults come from `process.env`.
 */
import { type AuthConfig, raw, setEnvDefaults } from "@tessera/core";

/**
 * Tessera's configuration for SolidStart: the core `AuthConfig` and the route prefix, as
 * `@auth/solid-start` has it.
 */
export interface SolidAuthConfig extends Omit<AuthConfig, "raw"> {
  /**
   * Where the catch-all route (`routes/api/auth/[...solidauth].ts`) lives, and so the base path
   * of every action. Default: `basePath` when set, else the path of `AUTH_URL`, else `/api/auth`.
   */
  prefix?: string;
}

/** What the integration needs from a config. */
export interface PreparedConfig {
  /** For the catch-all route: the user's options with `basePath` = the prefix. */
  config: AuthConfig;
  /** For `getSession`: data instead of a `Response`, with the host trusted unless set. */
  session: AuthConfig & { raw: typeof raw };
  /** The prefix without a trailing slash, e.g. `/api/auth`. */
  basePath: string;
}

/** The default prefix of `@auth/solid-start`, which Tessera also tells the core. */
export const DEFAULT_PREFIX = "/api/auth";

const prepared = new WeakMap<SolidAuthConfig, PreparedConfig>();

/** `/api/auth/` and `api/auth` as `/api/auth`; the root as `""`. */
function normalise(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? "" : `/${trimmed}`;
}

/** The path of `AUTH_URL` when it names one below the root. */
function pathOfSiteUrl(env: Record<string, string | undefined>): string | undefined {
  const url = env.AUTH_URL?.trim() || env.NEXTAUTH_URL?.trim();
  if (!url) return undefined;
  try {
    return normalise(new URL(url).pathname) || undefined;
  } catch {
    return undefined; // The core reports an unreadable AUTH_URL as a configuration error.
  }
}

/**
 * Fills unset options from `process.env` (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`,
 * `AUTH_{PROVIDER}_ID/SECRET/ISSUER`) on a copy of `userConfig`, with `basePath` = the prefix,
 * and caches the result for this config object. The user's object is left as it was.
 *
 * @example
 * ```ts
 * prepareConfig({ providers: [] }).basePath // "/api/auth"
 * ```
 */
export function prepareConfig(userConfig: SolidAuthConfig): PreparedConfig {
  let entry = prepared.get(userConfig);
  if (!entry) {
    const { prefix, ...options } = userConfig;
    // Edge runtimes without `process` get their variables from `AUTH_*`-free configs.
    const env =
      (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
    const basePath = normalise(prefix ?? options.basePath ?? pathOfSiteUrl(env) ?? DEFAULT_PREFIX);
    const trustHostSet = options.trustHost !== undefined;
    // `@auth/solid-start` routes on its prefix but never tells the core, whose default is
    // `/auth`: every action then answers 400. The prefix is the base path here.
    const config: AuthConfig = { ...options, basePath: basePath || "/" };
    setEnvDefaults(env, config, true);
    entry = {
      config,
      // Reading a session builds no link or redirect from the Host header (the poisoning that
      // host trust guards against), so, as `@auth/solid-start`'s getSession, it trusts the host
      // unless the config says otherwise.
      session: { ...config, trustHost: trustHostSet ? config.trustHost : true, raw },
      basePath,
    };
    prepared.set(userConfig, entry);
  }
  return entry;
}
