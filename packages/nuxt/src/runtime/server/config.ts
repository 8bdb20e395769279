/**
 * The app's auth configuration (`server/auth.config.ts`) made ready once: the module's base path,
 * the secret from `runtimeConfig.tessera.secret` when set, and the other unset options from
 * `AUTH_*` variables.
 */
import { type AuthConfig, raw, setEnvDefaults } from "@tessera/core";
import { useRuntimeConfig } from "nitropack/runtime";
import userConfig from "#tessera/config";

/** What the route and `getServerSession` need from the config. */
export interface PreparedConfig {
  /** For the server route: the user's options with the module's `basePath`. */
  config: AuthConfig;
  /** For `getServerSession`: data instead of a `Response`, with the host trusted unless set. */
  session: AuthConfig & { raw: typeof raw };
}

let prepared: PreparedConfig | undefined;

/**
 * The configuration, prepared on first use (the runtime config, and so `NUXT_*` variables, is
 * read at request time, not at build time).
 */
export function preparedConfig(): PreparedConfig {
  if (!prepared) {
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
