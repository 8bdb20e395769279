/**
 * Provider normalisation, done once per configuration: factories are called with the options
 * inferred from the environment, user options are merged over provider defaults, and each type
 * gets its defaults. Only the per-origin URLs are added per request (and cached per origin).
 */
import type {
  EmailConfig,
  OAuthConfig,
  Provider,
  ProviderConfig,
  PublicProvider,
} from "../provider-types.js";
import type { EnvObject } from "./env.js";
import { callProviderFactory, fillProviderCredentials } from "./env.js";
import type { InternalProvider } from "./internal.js";
import { normalizeOAuthProvider } from "./oauth-provider.js";

/** A provider without its per-origin URLs. */
export type StaticProvider = InternalProvider extends infer P
  ? P extends InternalProvider
    ? Omit<P, "signinUrl" | "callbackUrl">
    : never
  : never;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Deep merge of plain objects; arrays, class instances and functions are replaced whole. */
export function merge<T extends Record<string, unknown>>(
  target: T,
  ...sources: (Record<string, unknown> | undefined)[]
): T {
  const out: Record<string, unknown> = { ...target };
  for (const source of sources) {
    if (!source) continue;
    for (const key of Reflect.ownKeys(source)) {
      const value = (source as Record<string | symbol, unknown>)[key];
      if (value === undefined) continue;
      const current = (out as Record<string | symbol, unknown>)[key];
      (out as Record<string | symbol, unknown>)[key] =
        isPlainObject(current) && isPlainObject(value) ? merge(current, value) : value;
    }
  }
  return out as T;
}

const ENDPOINT_KEYS = ["authorization", "token", "userinfo"] as const;

/**
 * A user option `{ params }` for an endpoint the provider gives as a URL string extends that URL
 * instead of replacing it (so `authorization: { params: { prompt: "consent" } }` keeps the URL).
 */
function endpointsAsObjects(
  options: Record<string, unknown> | undefined,
  defaults: Record<string, unknown>,
): Record<string, unknown> | undefined {
  if (!options) return options;
  let adjusted: Record<string, unknown> | undefined;
  for (const key of ENDPOINT_KEYS) {
    const given = options[key];
    const base = defaults[key];
    if (typeof base === "string" && isPlainObject(given) && given.url === undefined) {
      adjusted ??= { ...options };
      adjusted[key] = { url: base, ...given };
    }
  }
  return adjusted ?? options;
}

/** Calls a provider factory (with env-inferred options) and applies its user `options`. */
export function instantiateProvider(provider: Provider, env: EnvObject): ProviderConfig {
  const config = callProviderFactory(provider, env);
  const { options, ...defaults } = config as ProviderConfig & { options?: Record<string, unknown> };
  const merged = merge(
    defaults as Record<string, unknown>,
    endpointsAsObjects(options, defaults as Record<string, unknown>),
  ) as unknown as ProviderConfig;
  return fillProviderCredentials(merged, env);
}

const DEFAULT_EMAIL_MAX_AGE = 24 * 60 * 60;

/** Normalises one provider (without URLs). */
export function normalizeProvider(config: ProviderConfig): StaticProvider {
  switch (config.type) {
    case "oauth":
    case "oidc":
      return normalizeOAuthProvider(config as OAuthConfig) as StaticProvider;
    case "email":
      return {
        ...(config as EmailConfig),
        maxAge: config.maxAge ?? DEFAULT_EMAIL_MAX_AGE,
      } as StaticProvider;
    default:
      return config as StaticProvider;
  }
}

/** Adds the absolute sign-in and callback URLs of `origin` to each provider. */
export function withUrls(
  providers: readonly StaticProvider[],
  origin: string,
  basePath: string,
  redirectProxyUrl: string | undefined,
): InternalProvider[] {
  return providers.map((provider) => {
    const signinUrl = `${origin}${basePath}/signin/${encodeURIComponent(provider.id)}`;
    let callbackUrl = `${origin}${basePath}/callback/${encodeURIComponent(provider.id)}`;
    if (provider.type === "oauth" || provider.type === "oidc") {
      const proxy = provider.redirectProxyUrl ?? redirectProxyUrl;
      if (proxy)
        callbackUrl = `${proxy.replace(/\/+$/, "")}/callback/${encodeURIComponent(provider.id)}`;
    }
    return { ...provider, signinUrl, callbackUrl } as InternalProvider;
  });
}

/** The client-safe description of a provider (`GET /providers`). */
export function toPublicProvider(provider: InternalProvider): PublicProvider {
  return {
    id: provider.id,
    name: provider.name,
    type: provider.type,
    signinUrl: provider.signinUrl,
    callbackUrl: provider.callbackUrl,
  };
}
