/**
 * Step 2 of the pipeline: the configuration with defaults and environment inference applied,
 * providers normalised and the static checks run — once per config object, not per request.
 */
import type { Adapter } from "../../adapters.js";
import { AdapterError, EventError, MissingAdapterMethods } from "../../errors.js";
import type { AuthConfig, CallbacksOptions, EventCallbacks, SessionOptions } from "../../types.js";
import { createActionTable } from "../actions/table.js";
import { sessionTokenCodec } from "../crypto/jwe.js";
import { defaultRedirect } from "../http/callback-url.js";
import { defaultCookies, mergeCookies } from "../http/cookies.js";
import { skipCSRFCheck } from "../symbols.js";
import { createLogger } from "../utils/logger.js";
import { appStateFor } from "./app-state.js";
import { assertConfig } from "./assert.js";
import {
  basePathFromEnv,
  type EnvObject,
  envOf,
  originFromEnv,
  secretsFromEnv,
  trustHostFromEnv,
  untrustedHost,
} from "./env.js";
import { resolveExtensions } from "./extensions.js";
import type { InternalProvider, ResolvedConfig } from "./internal.js";
import {
  instantiateProvider,
  normalizeProvider,
  type StaticProvider,
  withUrls,
} from "./providers.js";

// The callbacks a configuration gets where it sets none (Auth.js's defaults): allow every
// sign-in, redirect within the site, expose a minimal session, keep the token as it is.

function toIsoString(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * The default callbacks: allow sign-in, same-origin redirects, minimal session, token as is.
 * Integrations that wrap a callback call the default where the app sets none.
 *
 * @example
 * ```ts
 * const session = config.callbacks?.session ?? defaultCallbacks.session
 * ```
 */
export const defaultCallbacks: CallbacksOptions = {
  signIn: () => true,
  redirect: defaultRedirect,
  session: ({ session }) => ({
    user: { name: session.user?.name, email: session.user?.email, image: session.user?.image },
    expires: toIsoString(session.expires as string | Date),
  }),
  jwt: ({ token }) => token,
};

const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;
const DEFAULT_UPDATE_AGE = 24 * 60 * 60;
/** Distinct origins whose provider URLs are kept; Host headers are client-chosen, so bounded. */
const MAX_ORIGINS = 32;

function wrapEvents(
  events: Partial<EventCallbacks> | undefined,
  logger: ReturnType<typeof createLogger>,
): Partial<EventCallbacks> {
  const wrapped: Record<string, (message: never) => Promise<void>> = {};
  for (const [name, handler] of Object.entries(events ?? {})) {
    if (typeof handler !== "function") continue;
    wrapped[name] = async (message: never) => {
      try {
        await (handler as (m: never) => unknown)(message);
      } catch (error) {
        logger.error(new EventError(error as Error));
      }
    };
  }
  return wrapped as Partial<EventCallbacks>;
}

/**
 * Wraps every adapter method: failures become `AdapterError`s with the cause kept. `then` and
 * symbol keys are passed through untouched: answering them with a stub would make the adapter a
 * thenable (`await adapter` would never settle) and confuse `Symbol.iterator`/`toPrimitive` probes.
 */
function wrapAdapter(
  adapter: Adapter | undefined,
  logger: ReturnType<typeof createLogger>,
): Required<Adapter> | undefined {
  if (!adapter) return undefined;
  // One wrapper per method, made on first use and kept while the adapter keeps that method: a
  // session read then builds no closure for its adapter call.
  const wrappers = new Map<string, { method: unknown; wrapper: unknown }>();
  return new Proxy(adapter, {
    get(target, name, receiver) {
      if (typeof name === "symbol" || name === "then") return Reflect.get(target, name, receiver);
      const method = (target as Record<string, unknown>)[name];
      const known = wrappers.get(name);
      if (known !== undefined && known.method === method) return known.wrapper;
      if (typeof method !== "function") {
        return async () => {
          throw new MissingAdapterMethods(
            `The adapter has no "${name}" method, which this request needs. Implement it or use an adapter that has it.`,
          );
        };
      }
      const label = `adapter_${name}`;
      const wrapper = async (...args: unknown[]) => {
        try {
          // Arguments are not logged: they include session and verification tokens.
          logger.debug(label);
          return await (method as (...a: unknown[]) => unknown).apply(target, args);
        } catch (error) {
          const wrapped = new AdapterError(error as Error);
          wrapped.message = `Adapter method "${name}" failed: ${(error as Error)?.message ?? error}`;
          throw wrapped;
        }
      };
      wrappers.set(name, { method, wrapper });
      return wrapper;
    },
  }) as Required<Adapter>;
}

const cache = new WeakMap<AuthConfig, ResolvedConfig>();

/**
 * Resolves `config` (cached per object: a fixed config is resolved once).
 *
 * @example
 * ```ts
 * const resolved = resolveConfig({ providers: [], secret: "…" })
 * resolved.session.maxAge // 2592000
 * ```
 */
export function resolveConfig(config: AuthConfig, env?: EnvObject): ResolvedConfig {
  const hit = cache.get(config);
  if (hit) return hit;
  // The environment is read on a miss only: a cached config was resolved with it already.
  const resolved = buildResolvedConfig(config, env ?? envOf(config));
  cache.set(config, resolved);
  return resolved;
}

function buildResolvedConfig(config: AuthConfig, env: EnvObject): ResolvedConfig {
  const logger = createLogger(config);
  let secrets: string[];
  if (Array.isArray(config.secret)) secrets = config.secret.filter(Boolean);
  else if (config.secret) secrets = [config.secret];
  else secrets = secretsFromEnv(env);

  let basePath = config.basePath || basePathFromEnv(env) || "/auth";
  basePath = `/${basePath.replace(/^\/+|\/+$/g, "")}`.replace(/^\/$/, "");

  const strategy: SessionOptions["strategy"] =
    config.session?.strategy ?? (config.adapter ? "database" : "jwt");
  const maxAge = config.session?.maxAge ?? DEFAULT_MAX_AGE;
  const session: SessionOptions = {
    strategy,
    maxAge,
    updateAge: config.session?.updateAge ?? DEFAULT_UPDATE_AGE,
    generateSessionToken: config.session?.generateSessionToken ?? (() => crypto.randomUUID()),
  };

  let providers: StaticProvider[] = [];
  let providerError: Error | undefined;
  try {
    providers = (config.providers ?? []).map((p) => normalizeProvider(instantiateProvider(p, env)));
  } catch (error) {
    providerError = error as Error;
  }

  const redirectProxyUrl = config.redirectProxyUrl ?? env.AUTH_REDIRECT_PROXY_URL;
  const origin = originFromEnv(env);
  const byOrigin = new Map<string, InternalProvider[]>();
  const extensions = resolveExtensions(config);

  const resolved: ResolvedConfig = {
    source: config,
    basePath,
    secrets,
    trustHost: config.trustHost ?? trustHostFromEnv(env),
    ...(typeof origin === "string" && { origin }),
    debug: config.debug === true,
    logger,
    pages: config.pages ?? {},
    theme: { colorScheme: "auto", logo: "", brandColor: "", buttonText: "", ...config.theme },
    session,
    jwt: { maxAge, ...sessionTokenCodec(), ...config.jwt },
    callbacks: { ...defaultCallbacks, ...config.callbacks },
    events: wrapEvents(config.events, logger),
    adapter: wrapAdapter(config.adapter, logger),
    rawAdapter: config.adapter,
    csrfDisabled: config.skipCSRFCheck === skipCSRFCheck,
    ...(redirectProxyUrl !== undefined && { redirectProxyUrl }),
    experimental: { enableWebAuthn: config.experimental?.enableWebAuthn === true },
    state: appStateFor(secrets),
    actionTable: createActionTable(extensions.actions),
    signInSteps: extensions.signInSteps,
    sessionFields: extensions.sessionFields,
    // `auth_time` (set at sign-in) survives a `jwt` callback that builds a new token.
    keptClaims: [...new Set(["auth_time", ...extensions.keptClaims])],
    signedOutElsewhere: extensions.signedOutElsewhere,
    accountSections: extensions.accountSections,
    cookies: [
      mergeCookies(defaultCookies(false), config.cookies),
      mergeCookies(defaultCookies(true), config.cookies),
    ],
    providersFor(origin) {
      let list = byOrigin.get(origin);
      if (!list) {
        if (byOrigin.size >= MAX_ORIGINS) byOrigin.clear();
        list = withUrls(providers, origin, basePath, redirectProxyUrl);
        byOrigin.set(origin, list);
      }
      return list;
    },
  };
  const checked =
    providerError ??
    extensions.error ??
    (origin instanceof Error ? origin : assertConfig(resolved, providers));
  if (checked instanceof Error) resolved.configError = checked;
  else for (const warning of checked) logger.warn(warning);
  return resolved;
}

/**
 * Checks a fixed `config` now, for integrations to call when the app creates its handler: throws
 * the configuration error every request would otherwise answer with (a missing secret, an
 * untrusted host without `AUTH_URL`, an invalid provider, …), so that a misconfigured server
 * stops at start-up with the fix in the message instead of failing its first request. The config
 * is resolved (and cached) with the environment as it is now, as its first request would.
 *
 * @example
 * ```ts
 * const config = { providers: [GitHub] }
 * assertStartupConfig(config) // throws MissingSecret when AUTH_SECRET is unset
 * ```
 */
export function assertStartupConfig(config: AuthConfig): void {
  const resolved = resolveConfig(config);
  const error = resolved.configError ?? (resolved.trustHost ? undefined : untrustedHost());
  if (error) throw error;
}
