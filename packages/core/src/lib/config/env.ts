/**
 * Environment inference, as Auth.js does it (`setEnvDefaults`): secrets, URL, host trust,
 * redirect proxy and per-provider client credentials come from `AUTH_*` variables (and the legacy
 * `NEXTAUTH_URL`/`NEXTAUTH_SECRET`).
 */
import { UntrustedHost } from "../../errors.js";
import type { AuthConfig } from "../../types.js";
import type { Provider, ProviderConfig } from "../provider-types.js";
import { createLogger } from "../utils/logger.js";

/** An environment: `process.env`, a platform's `env` object, or a plain record. */
export type EnvObject = Record<string, string | undefined>;

/** `process.env` where it exists, else an empty object (edge runtimes pass their own). */
export function processEnv(): EnvObject {
  const proc = (globalThis as { process?: { env?: EnvObject } }).process;
  return proc?.env ?? {};
}

/**
 * The key under which {@link setEnvDefaults} records its environment on the config. A symbol key,
 * enumerable, so that the copies integrations make (`{ ...config, raw }`) carry it along.
 */
const CONFIG_ENV = Symbol("tessera.env");

type WithEnv = { [CONFIG_ENV]?: EnvObject };

/**
 * The environment a config reads `AUTH_*` from: the object last given to {@link setEnvDefaults}
 * for it (a platform's `env`, SvelteKit's `$env/dynamic/private`), else `process.env`. Every
 * inference — secret, `AUTH_URL` origin, host trust, provider credentials — uses this one object.
 *
 * @example
 * ```ts
 * setEnvDefaults(platform.env, config)
 * envOf(config) === platform.env // true
 * ```
 */
export function envOf(config: AuthConfig): EnvObject {
  return (config as WithEnv)[CONFIG_ENV] ?? processEnv();
}

/** Secrets from the environment, newest first: AUTH_SECRET_3, _2, _1, then AUTH_SECRET. */
export function secretsFromEnv(env: EnvObject): string[] {
  const secrets: string[] = [];
  for (const name of ["AUTH_SECRET_3", "AUTH_SECRET_2", "AUTH_SECRET_1", "AUTH_SECRET"]) {
    const value = env[name];
    if (value) secrets.push(value);
  }
  if (secrets.length === 0 && env.NEXTAUTH_SECRET) secrets.push(env.NEXTAUTH_SECRET);
  return secrets;
}

/** Upper snake case of a provider id, as used in `AUTH_{ID}_SECRET`. */
export function envName(providerId: string): string {
  return providerId.toUpperCase().replace(/-/g, "_");
}

/** Options inferred for a provider from `AUTH_{ID}_ID`, `_SECRET`, `_ISSUER`, `_KEY`. */
export function providerEnvOptions(providerId: string, env: EnvObject) {
  const ID = envName(providerId);
  const options: { clientId?: string; clientSecret?: string; issuer?: string; apiKey?: string } =
    {};
  const clientId = env[`AUTH_${ID}_ID`];
  const clientSecret = env[`AUTH_${ID}_SECRET`];
  const issuer = env[`AUTH_${ID}_ISSUER`];
  const apiKey = env[`AUTH_${ID}_KEY`];
  if (clientId) options.clientId = clientId;
  if (clientSecret) options.clientSecret = clientSecret;
  if (issuer) options.issuer = issuer;
  if (apiKey) options.apiKey = apiKey;
  return options;
}

/**
 * The site's public URL from `AUTH_URL`, else the legacy `NEXTAUTH_URL`. The one place either
 * variable is read: an empty (or blank) value counts as unset, so `AUTH_URL=` in a `.env` file
 * falls back to `NEXTAUTH_URL` and then to the request's own URL everywhere alike.
 *
 * @example
 * ```ts
 * siteUrlFromEnv({ AUTH_URL: "", NEXTAUTH_URL: "https://app.example" }) // "https://app.example"
 * siteUrlFromEnv({ AUTH_URL: " " }) // undefined
 * ```
 */
export function siteUrlFromEnv(env: EnvObject): string | undefined {
  for (const value of [env.AUTH_URL, env.NEXTAUTH_URL]) if (value?.trim()) return value;
  return undefined;
}

/**
 * The path of the site URL (`AUTH_URL`) without trailing slashes, when it names one: the base
 * path Tessera infers. `undefined` when unset, unparseable (reported when the config is asserted)
 * or `/`.
 *
 * @example
 * ```ts
 * basePathFromEnv({ AUTH_URL: "https://app.example/api/auth/" }) // "/api/auth"
 * basePathFromEnv({ AUTH_URL: "https://app.example" }) // undefined
 * ```
 */
export function basePathFromEnv(env: EnvObject): string | undefined {
  const url = siteUrlFromEnv(env);
  if (url === undefined) return undefined;
  try {
    return new URL(url).pathname.replace(/\/+$/, "") || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origin of `AUTH_URL` (`https://app.example`), which then replaces the request's origin in
 * every URL Tessera builds. `undefined` when unset; an {@link UntrustedHost} error naming the fix
 * when it is set but is not an absolute http(s) URL (falling back to the Host header would
 * silently trust it).
 *
 * @example
 * ```ts
 * originFromEnv({ AUTH_URL: "https://app.example/auth" }) // "https://app.example"
 * ```
 */
export function originFromEnv(env: EnvObject): string | UntrustedHost | undefined {
  const url = siteUrlFromEnv(env);
  if (url === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {}
  if (parsed?.protocol === "https:" || parsed?.protocol === "http:") return parsed.origin;
  return new UntrustedHost(
    `AUTH_URL must be the absolute http(s) URL of the site (e.g. https://app.example), got ${JSON.stringify(url)}.`,
  );
}

/**
 * The {@link UntrustedHost} error of a config that trusts no Host header, naming the fixes in the
 * order the guides recommend them: `AUTH_URL` first, then `trustHost`/`AUTH_TRUST_HOST`.
 * `requestOrigin` is the origin the refused request named, when there is one.
 *
 * @example
 * ```ts
 * untrustedHost("http://10.0.0.7:3000").message // "Host must be trusted. URL was: http://10.0.0.7:3000. Set AUTH_URL …"
 * ```
 */
export function untrustedHost(requestOrigin?: string): UntrustedHost {
  const seen = requestOrigin === undefined ? "" : ` URL was: ${requestOrigin}.`;
  return new UntrustedHost(
    `Host must be trusted.${seen} Set AUTH_URL to the site's public URL (e.g. AUTH_URL=https://app.example), or set \`trustHost: true\` (AUTH_TRUST_HOST=true) when the Host header is set safely (e.g. behind your own proxy).`,
  );
}

/**
 * Whether the Host header can be trusted when the config does not say (`trustHost`). Only when
 * the environment says so: `AUTH_TRUST_HOST`, `AUTH_URL` (its origin is used instead of the
 * Host header), a platform that sets the host itself (`VERCEL`, `CF_PAGES`), or `NODE_ENV`
 * explicitly `development` or `test`.
 *
 * @example
 * ```ts
 * trustHostFromEnv({}) // false: an unset NODE_ENV is not development
 * trustHostFromEnv({ AUTH_TRUST_HOST: "true" }) // true
 * ```
 */
export function trustHostFromEnv(env: EnvObject): boolean {
  const explicit = env.AUTH_TRUST_HOST;
  if (explicit) return explicit === "true" || explicit === "1";
  if (siteUrlFromEnv(env) || env.VERCEL || env.CF_PAGES) return true;
  // Magic-link poisoning: many Node deployments never set NODE_ENV, so an unset NODE_ENV must not
  // let a forged Host header choose where sign-in links point.
  return isDevelopmentEnv(env);
}

/**
 * Whether `NODE_ENV` says development (or test) explicitly. An unset `NODE_ENV` is production:
 * plain Node deployments often never set it.
 *
 * @example
 * ```ts
 * isDevelopmentEnv(processEnv())
 * ```
 */
export function isDevelopmentEnv(env: EnvObject): boolean {
  return env.NODE_ENV === "development" || env.NODE_ENV === "test";
}

/**
 * Calls a provider factory as Auth.js does: once bare to learn its id, then with the options
 * `env` holds for that id (`AUTH_{ID}_ID`, `_SECRET`, `_ISSUER`, `_KEY`). Objects pass unchanged.
 *
 * @example
 * ```ts
 * callProviderFactory(GitHub, { AUTH_GITHUB_ID: "id" }) // GitHub({ clientId: "id" })
 * ```
 */
export function callProviderFactory(provider: Provider, env: EnvObject): ProviderConfig {
  if (typeof provider !== "function") return provider;
  const { id } = provider();
  return provider(providerEnvOptions(id, env));
}

/**
 * Gives `provider` the credentials `env` holds for it where it has none: `clientId`,
 * `clientSecret` and `issuer` for OAuth/OIDC, `apiKey` for e-mail. Mutates and returns it.
 *
 * @example
 * ```ts
 * fillProviderCredentials(provider, { AUTH_MY_IDP_SECRET: "s" }).clientSecret // "s" (unless set)
 * ```
 */
export function fillProviderCredentials<P extends ProviderConfig>(provider: P, env: EnvObject): P {
  const options = providerEnvOptions(provider.id, env);
  if (provider.type === "oauth" || provider.type === "oidc") {
    provider.clientId ??= options.clientId;
    provider.clientSecret ??= options.clientSecret;
    provider.issuer ??= options.issuer;
  } else if (provider.type === "email") {
    provider.apiKey ??= options.apiKey;
  }
  return provider;
}

/**
 * Fills unset options of `config` from `envObject`, mutating it as Auth.js's `setEnvDefaults`
 * does: `basePath` from the path of `AUTH_URL` (default `/auth`; with a `basePath` set too, a
 * warning unless `suppressBasePathWarning`), `secret` from `AUTH_SECRET` and its rotations,
 * `redirectProxyUrl`, `trustHost`, and each provider's `AUTH_{PROVIDER}_ID/SECRET/ISSUER/KEY`.
 *
 * `envObject` need not be `process.env` (Cloudflare's `env`, SvelteKit's `$env/dynamic/private`):
 * it is recorded on the config, and `Auth()` then reads everything else it infers, such as the
 * `AUTH_URL` origin that replaces the request's host, from it too.
 *
 * @example
 * ```ts
 * // Cloudflare Workers: the bindings are not in process.env
 * export default { fetch: (request, env) => { setEnvDefaults(env, config); return Auth(request, config) } }
 * ```
 */
export function setEnvDefaults(
  envObject: EnvObject,
  config: AuthConfig,
  suppressBasePathWarning = false,
): void {
  (config as WithEnv)[CONFIG_ENV] = envObject;
  const envBasePath = basePathFromEnv(envObject);
  if (!config.basePath) config.basePath = envBasePath;
  else if (envBasePath && !suppressBasePathWarning)
    createLogger(config).warn("env-url-basepath-redundant");
  config.basePath ??= "/auth";
  if (!config.secret || (Array.isArray(config.secret) && config.secret.length === 0)) {
    const secrets = secretsFromEnv(envObject);
    if (secrets.length) config.secret = secrets;
  }
  config.redirectProxyUrl ??= envObject.AUTH_REDIRECT_PROXY_URL;
  config.trustHost ??= trustHostFromEnv(envObject);
  if (Array.isArray(config.providers))
    config.providers = config.providers.map((provider) => {
      try {
        return fillProviderCredentials(callProviderFactory(provider, envObject), envObject);
      } catch {
        // A provider that cannot be built stays as given: resolving the config reports it as a
        // configuration error of the request, rather than this call throwing.
        return provider;
      }
    });
}

/**
 * The absolute URL of an action, from `AUTH_URL` when set, else from the request's host headers.
 *
 * @example
 * ```ts
 * createActionURL("signin", "https:", request.headers, process.env, { basePath: "/auth" })
 * ```
 */
export function createActionURL(
  action: string,
  protocol: string,
  headers: Headers,
  envObject: EnvObject,
  config: Pick<AuthConfig, "basePath" | "logger" | "debug">,
): URL {
  const basePath = config.basePath;
  const envUrl = siteUrlFromEnv(envObject);
  let url: URL;
  if (envUrl) {
    url = new URL(envUrl);
    if (basePath && basePath !== "/" && url.pathname !== "/") {
      // Compared as written, as Auth.js does: "/api/auth/" against "/api/auth" is worth a look too.
      if (url.pathname !== basePath) createLogger(config).warn("env-url-basepath-mismatch");
      url.pathname = "/";
    }
  } else {
    const host = headers.get("x-forwarded-host") ?? headers.get("host");
    const proto = headers.get("x-forwarded-proto") ?? protocol ?? "https";
    url = new URL(`${proto.endsWith(":") ? proto : `${proto}:`}//${host}`);
  }
  const origin = url.toString().replace(/\/$/, "");
  const path = (basePath ?? "").replace(/(^\/+|\/+$)/g, "");
  return new URL(path ? `${origin}/${path}/${action}` : `${origin}/${action}`);
}
