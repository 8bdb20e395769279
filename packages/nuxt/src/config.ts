/**
 * The type of `server/auth.config.ts`: the core's `AuthConfig` without `basePath`, which the
 * module sets from its own option so that the server route and the core agree.
 *
 * @example
 * ```ts
 * // server/auth.config.ts
 * import { defineAuthConfig } from "@tessera/nuxt/config"
 * import GitHub from "@tessera/core/providers/github"
 *
 * export default defineAuthConfig({ providers: [GitHub] })
 * ```
 */
import type { AuthConfig } from "@tessera/core";

/** Tessera's configuration for Nuxt: the core `AuthConfig`; `basePath` is the module's. */
export type NuxtAuthConfig = Omit<AuthConfig, "basePath" | "raw">;

/**
 * Types the auth configuration (the default export of `server/auth.config.ts`) and returns it.
 *
 * @example
 * ```ts
 * export default defineAuthConfig({ providers: [], session: { strategy: "jwt" } })
 * ```
 */
export function defineAuthConfig(config: NuxtAuthConfig): NuxtAuthConfig {
  return config;
}
