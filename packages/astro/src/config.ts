/**
 * `auth.config.ts` for Astro: the core `AuthConfig` plus where the routes live, and the Vite
 * plugin that serves it to server code as the `auth:config` module.
 */
import type { AuthConfig } from "@tessera/core";

/** Where the integration mounts the auth routes and finds the config file. */
export interface AstroAuthConfig {
  /**
   * The path the auth routes live under.
   * @default "/api/auth"
   */
  prefix?: string;
  /**
   * Whether the integration injects the `<prefix>/[...auth]` route. Set `false` to write
   * `src/pages/api/auth/[...auth].ts` yourself with `AstroAuth()` from `@tessera/astro/server`.
   * @default true
   */
  injectEndpoints?: boolean;
  /**
   * The config file, relative to the project root.
   * @default "./auth.config"
   */
  configFile?: string;
}

/** The default export of `auth.config.ts`: the core config and the route options. */
export interface FullAuthConfig extends AstroAuthConfig, Omit<AuthConfig, "raw"> {}

/** The route prefix when neither the integration nor the config names one. */
export const DEFAULT_PREFIX = "/api/auth";

/**
 * Types the default export of `auth.config.ts` and makes its `prefix` the core's base path.
 *
 * @example
 * ```ts
 * // auth.config.ts
 * import { defineConfig } from "@tessera/astro"
 * import GitHub from "@tessera/core/providers/github"
 * export default defineConfig({ providers: [GitHub] })
 * ```
 */
export function defineConfig(config: FullAuthConfig): FullAuthConfig {
  config.prefix ??= DEFAULT_PREFIX;
  config.basePath = config.prefix;
  return config;
}
