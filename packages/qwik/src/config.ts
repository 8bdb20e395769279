/**
 * A Qwik config made ready for the core: `AUTH_*` defaults read through Qwik's `env` getter
 * (so `.env` files under `vite dev` and platform variables on edge adapters both count), the base
 * path `/auth` unless the config or `AUTH_URL` names one, and the `raw` variant for in-process
 * calls. Prepared once per config object the app's function returns.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city";
import {
  type AuthConfig,
  setEnvDefaults as coreSetEnvDefaults,
  createActionURL,
} from "@tessera/core";

/** Tessera's configuration for Qwik: the core `AuthConfig` (`raw` is the integration's). */
export interface QwikAuthConfig extends Omit<AuthConfig, "raw"> {}

/** What the integration needs from a config. */
export interface PreparedConfig {
  config: AuthConfig;
  /** Without a trailing slash, e.g. `/auth`. */
  basePath: string;
  /** The environment the config was filled from (it also holds `AUTH_URL`). */
  env: Record<string, string | undefined>;
}

/** What Qwik's `requestEvent.env` offers. */
export interface EnvGetter {
  get(key: string): string | undefined;
}

/**
 * Qwik's env getter as the record the core reads `AUTH_*` from. A proxy, not a copy: the core
 * reads variables by name when it needs them (a provider's `AUTH_{ID}_SECRET`), and a platform's
 * variables cannot be listed.
 */
function envRecord(env: EnvGetter): Record<string, string | undefined> {
  return new Proxy({} as Record<string, string | undefined>, {
    get: (_, name) => (typeof name === "string" ? env.get(name) : undefined),
    has: (_, name) => typeof name === "string" && env.get(name) !== undefined,
  });
}

/**
 * Fills unset options of `config` from Qwik's `env` (`AUTH_SECRET` and its rotations,
 * `AUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_REDIRECT_PROXY_URL`, `AUTH_{PROVIDER}_ID/SECRET/ISSUER/KEY`)
 * and sets the base path `/auth` unless the config or the path of `AUTH_URL` names one. Mutates
 * `config`. `QwikAuth$` calls it; call it yourself only to run `Auth()` with the same config.
 *
 * @example
 * ```ts
 * import { setEnvDefaults } from "@tessera/qwik"
 * export const onGet: RequestHandler = (event) => { setEnvDefaults(event.env, config) }
 * ```
 */
export function setEnvDefaults(env: EnvGetter, config: AuthConfig): void {
  coreSetEnvDefaults(envRecord(env), config, true);
}

const prepared = new WeakMap<object, PreparedConfig>();

/**
 * `userConfig` with the environment defaults applied, cached for this config object: an app whose
 * function returns the same object each time has it resolved once.
 */
export function prepareConfig(userConfig: QwikAuthConfig, env: EnvGetter): PreparedConfig {
  let entry = prepared.get(userConfig);
  if (!entry) {
    const config = userConfig as AuthConfig;
    const record = envRecord(env);
    coreSetEnvDefaults(record, config, true);
    const basePath = `/${(config.basePath ?? "/auth").replace(/^\/+|\/+$/g, "")}`;
    entry = { config, basePath: basePath === "/" ? "" : basePath, env: record };
    prepared.set(userConfig, entry);
  }
  return entry;
}

/**
 * The absolute URL of `<basePath>/<action>`: on the origin of `AUTH_URL` when the environment
 * sets it, else on the request's (`event.url`, which Qwik's adapter derives).
 */
export function actionUrl(
  event: RequestEventCommon,
  prepared: PreparedConfig,
  action: string,
): string {
  return createActionURL(
    action,
    event.url.protocol,
    new Headers({ host: event.url.host }),
    prepared.env,
    prepared.config,
  ).href;
}
