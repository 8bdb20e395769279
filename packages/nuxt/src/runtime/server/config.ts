/**
 * The app's auth configuration (`server/auth.config.ts`) made ready once: the module's base path,
 * the secret from `runtimeConfig.tessera.secret` when set, and the other unset options from
 * `AUTH_*` variables. The module's Nitro plugin hands the config file's export over at startup,
 * so only that plugin imports the file and every other module here is plain code.
 */
import { type AuthConfig, raw, setEnvDefaults } from "@tessera/core";
import { AuthError } from "@tessera/core/errors";
import { useRuntimeConfig } from "nitropack/runtime";
import type { NuxtAuthConfig } from "../../config.js";

/** What the route and `getServerSession` need from the config. */
export interface PreparedConfig {
  /** For the server route: the user's options with the module's `basePath`. */
  config: AuthConfig;
  /** For `getServerSession`: data instead of a `Response`, with the host trusted unless set. */
  session: AuthConfig & { raw: typeof raw };
}

let userConfig: NuxtAuthConfig | undefined;
let prepared: PreparedConfig | undefined;

/** Takes the app's config (the default export of `server/auth.config.ts`). */
export function registerAuthConfig(config: NuxtAuthConfig): void {
  userConfig = config;
  prepared = undefined;
}

/**
 * The configuration, prepared on first use (the runtime config, and so `NUXT_*` variables, is
 * read at request time, not at build time).
 */
export function preparedConfig(): PreparedConfig {
  if (!prepared) {
    if (!userConfig)
      throw new AuthError(
        '@tessera/nuxt has no auth configuration: add "@tessera/nuxt" to `modules` in nuxt.config.ts, which loads server/auth.config.ts when the server starts.',
      );
    const runtime = useRuntimeConfig() as unknown as {
      tessera?: { secret?: string };
      public: { tessera: { basePath: string } };
    };
    const config: AuthConfig = { ...userConfig, basePath: runtime.public.tessera.basePath };
    if (!config.secret && runtime.tessera?.secret) config.secret = runtime.tessera.secret;
    setEnvDefaults(process.env, config, true);
    prepared = {
      config,
      // Reading a session builds no link or redirect from the Host header (the poisoning that
      // host trust guards against), so it trusts the host unless the config says otherwise.
      session: {
        ...config,
        trustHost: userConfig.trustHost !== undefined ? config.trustHost : true,
        raw,
      },
    };
  }
  return prepared;
}
