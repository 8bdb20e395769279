/**
 * A SvelteKit config made ready once per config object: environment defaults applied from the
 * app's environment (`$env/dynamic/private`), the base path under `$app/paths`' `base`, and the
 * `raw` variants built once so that the core resolves each of them a single time.
 */
import {
  type AuthConfig,
  createActionURL,
  raw,
  setEnvDefaults,
  siteUrlFromEnv,
} from "@tessera/core";
import type { KitEnvironment } from "./kit.js";

/** Tessera's configuration for SvelteKit: the core `AuthConfig` (`raw` is set by the integration). */
export type SvelteKitAuthConfig = Omit<AuthConfig, "raw">;

/** What the integration needs from a config. */
export interface PreparedConfig {
  config: AuthConfig;
  /**
   * For session reads and form actions: data instead of a `Response`. Form actions reach the
   * core in-process, which asks for no double-submit token: login CSRF defence is SvelteKit's
   * own origin check (`csrf.checkOrigin`, on by default), which refuses cross-site form posts.
   */
  raw: AuthConfig & { raw: typeof raw };
  /** Without a trailing slash, e.g. `/auth` or `/base/auth`. */
  basePath: string;
  /** Provider id → type, for choosing between `/signin/<id>` and `/callback/<id>`. */
  providerTypes: ReadonlyMap<string, string>;
  /** The environment the config was filled from; it also holds `AUTH_URL`. */
  env: Record<string, string | undefined>;
}

type ProviderLike = { id?: string; type?: string; options?: { id?: string; type?: string } };

function providerTypesOf(config: AuthConfig): Map<string, string> {
  const types = new Map<string, string>();
  for (const entry of config.providers ?? []) {
    let provider: ProviderLike | undefined;
    try {
      // A provider is an object, or a factory (e.g. `GitHub`) the core calls with no options.
      provider = (typeof entry === "function" ? (entry as () => unknown)() : entry) as
        | ProviderLike
        | undefined;
    } catch {
      continue; // The core reports a provider that cannot be built as a configuration error.
    }
    const id = provider?.options?.id ?? provider?.id;
    const type = provider?.options?.type ?? provider?.type;
    if (id && type) types.set(id, type);
  }
  return types;
}

/** Whether `url` parses and names a path below the root (which then is the auth base path). */
function hasPath(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return new URL(url).pathname.replace(/\/+$/, "") !== "";
  } catch {
    return false;
  }
}

const prepared = new WeakMap<SvelteKitAuthConfig, PreparedConfig>();

/**
 * Applies the environment defaults as @auth/sveltekit does — `trustHost` under `vite dev`, base
 * path `<base>/auth` unless the config or the path of `AUTH_URL` names one, then the core's
 * `setEnvDefaults` with the app's environment — and caches the variants for this config object.
 */
export function prepareConfig(
  userConfig: SvelteKitAuthConfig,
  kit: KitEnvironment,
): PreparedConfig {
  let entry = prepared.get(userConfig);
  if (!entry) {
    const config = userConfig as AuthConfig;
    const env = kit.env();
    if (kit.dev) config.trustHost ??= true;
    if (!config.basePath && !hasPath(siteUrlFromEnv(env))) config.basePath = `${kit.base}/auth`;
    setEnvDefaults(env, config, true);
    const basePath = `/${(config.basePath ?? "/auth").replace(/^\/+|\/+$/g, "")}`;
    entry = {
      config,
      raw: { ...config, raw },
      basePath: basePath === "/" ? "" : basePath,
      providerTypes: providerTypesOf(config),
      env,
    };
    prepared.set(userConfig, entry);
  }
  return entry;
}

/**
 * The absolute URL of `<basePath>/<action>`: on the origin of `AUTH_URL` when the environment
 * sets it, else on the request's (`event.url`, which the SvelteKit adapter derives).
 */
export function actionUrl(url: URL, prepared: PreparedConfig, action: string): string {
  return createActionURL(
    action,
    url.protocol,
    new Headers({ host: url.host }),
    prepared.env,
    prepared.config,
  ).href;
}
