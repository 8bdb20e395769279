/**
 * A SvelteKit config made ready once per config object: environment defaults applied, and the
 * `raw` variants built once so that the core resolves each of them a single time.
 */
import { type AuthConfig, raw, setEnvDefaults, skipCSRFCheck } from "@tessera/core";

/** Tessera's configuration for SvelteKit: the core `AuthConfig` (`raw` is set by the integration). */
export type SvelteKitAuthConfig = Omit<AuthConfig, "raw">;

/** What the integration needs from a config. */
export interface PreparedConfig {
  config: AuthConfig;
  /** For session reads: data instead of a `Response`. */
  raw: AuthConfig & { raw: typeof raw };
  /**
   * For form actions: data, and no double-submit token. Login CSRF defence is SvelteKit's own
   * origin check (`csrf.checkOrigin`, on by default), which refuses cross-site form posts.
   */
  formAction: AuthConfig & { raw: typeof raw };
  /** Without a trailing slash, e.g. `/auth`. */
  basePath: string;
  /** Provider id → type, for choosing between `/signin/<id>` and `/callback/<id>`. */
  providerTypes: ReadonlyMap<string, string>;
}

type ProviderLike = { id?: string; type?: string; options?: { id?: string; type?: string } };

function providerTypesOf(config: AuthConfig): Map<string, string> {
  const types = new Map<string, string>();
  for (const entry of config.providers ?? []) {
    // A provider is an object, or a factory (e.g. `GitHub`) the core calls with no options.
    const provider = (typeof entry === "function" ? (entry as () => unknown)() : entry) as
      | ProviderLike
      | undefined;
    const id = provider?.options?.id ?? provider?.id;
    const type = provider?.options?.type ?? provider?.type;
    if (id && type) types.set(id, type);
  }
  return types;
}

const prepared = new WeakMap<SvelteKitAuthConfig, PreparedConfig>();

/** The process environment where there is one (adapter-node); edge adapters pass config values. */
function environment(): Record<string, string | undefined> {
  return (
    (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {}
  );
}

/**
 * Applies `AUTH_*` environment defaults (base path `/auth` unless `AUTH_URL` names one) and
 * caches the variants for this config object.
 */
export function prepareConfig(userConfig: SvelteKitAuthConfig): PreparedConfig {
  let entry = prepared.get(userConfig);
  if (!entry) {
    const config = userConfig as AuthConfig;
    setEnvDefaults(environment(), config);
    const basePath = `/${(config.basePath ?? "/auth").replace(/^\/+|\/+$/g, "")}`;
    entry = {
      config,
      raw: { ...config, raw },
      formAction: { ...config, raw, skipCSRFCheck },
      basePath: basePath === "/" ? "" : basePath,
      providerTypes: providerTypesOf(config),
    };
    prepared.set(userConfig, entry);
  }
  return entry;
}
