/**
 * A Hono app's config made ready once per config object: environment defaults from the runtime's
 * environment (`env(c)`: `process.env` on Node, the bindings on Workers), the base path, and the
 * session callback that also hands `getAuthUser` the token and the user it was given.
 */
import {
  type CallbacksOptions,
  type AuthConfig as CoreAuthConfig,
  defaultCallbacks,
  type JWT,
  type Session,
  setEnvDefaults as setCoreEnvDefaults,
  siteUrlFromEnv,
} from "@tessera/core";
import type { AdapterUser } from "@tessera/core/adapters";

/** Tessera's configuration for Hono: the core `AuthConfig` (as `@hono/auth-js` names it). */
export interface AuthConfig extends Omit<CoreAuthConfig, "raw"> {}

/** The variables Tessera reads from the runtime's environment. */
export type AuthEnv = {
  AUTH_URL?: string;
  AUTH_SECRET: string;
  AUTH_REDIRECT_PROXY_URL?: string;
  [key: string]: string | undefined;
};

/** Where `@hono/auth-js`'s README (and its React client) put the auth routes. */
export const DEFAULT_BASE_PATH = "/api/auth";

/** What the session callback was given besides the session, for `getAuthUser`. */
export interface SessionParts {
  /** The JWT (JWT strategy), after the `jwt` callback ran. */
  token?: JWT;
  /** The user from the adapter (database strategy). */
  user?: AdapterUser;
}

/**
 * The key under which the session callback's answer carries its {@link SessionParts}. A symbol:
 * `JSON.stringify` skips it, so `GET /session` answers exactly what the callback returned.
 */
export const SESSION_PARTS = Symbol("tessera.hono.sessionParts");

/** A session as the wrapped callback answers it. */
export type SessionWithParts = Session & { [SESSION_PARTS]?: SessionParts };

interface PreparedEntry {
  /** Where `authHandler()` was last seen mounted, for session reads outside it. */
  mounted?: string;
  /** One ready copy per base path, so that the core resolves each a single time. */
  byBasePath: Map<string, CoreAuthConfig>;
}

const prepared = new WeakMap<AuthConfig, PreparedEntry>();

/** Whether `url` parses and names a path below the root (which is then the base path). */
function hasPath(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return new URL(url).pathname.replace(/\/+$/, "") !== "";
  } catch {
    return false;
  }
}

/**
 * Fills unset options of `config` from `env`, as `@hono/auth-js`'s `setEnvDefaults` does:
 * `secret` from `AUTH_SECRET` (and its rotations), `AUTH_URL`, host trust, provider credentials.
 * Unlike it, an unset base path (no `basePath`, no path in `AUTH_URL`) is `mountPath`, else
 * `/api/auth`, instead of the core's `/auth` that made every request under `/api/auth` a 400.
 *
 * @example
 * ```ts
 * setEnvDefaults(env(c), config) // config.basePath === "/api/auth" unless AUTH_URL names one
 * ```
 */
export function setEnvDefaults(env: AuthEnv, config: AuthConfig, mountPath?: string): void {
  const core = config as CoreAuthConfig;
  if (!core.basePath && !hasPath(siteUrlFromEnv(env)))
    core.basePath = mountPath ?? DEFAULT_BASE_PATH;
  setCoreEnvDefaults(env, core, true);
}

/** `session` wrapped so that its answer also carries the token or user it was given. */
function withParts(session: CallbacksOptions["session"]): CallbacksOptions["session"] {
  return async (params) => {
    const answer = await session(params);
    const { token, user } = params as { token?: JWT; user?: AdapterUser };
    const parts: SessionParts = {};
    if (token) parts.token = token;
    if (user) parts.user = user;
    return { ...answer, [SESSION_PARTS]: parts } as SessionWithParts;
  };
}

/**
 * `config` ready for the core: a copy with the environment defaults applied (the app's object is
 * left as it is), the base path chosen, and the `session` callback wrapped for `getAuthUser`.
 * Cached per config object and base path, so a config returned for every request is prepared,
 * and resolved by the core, once. The base path is the config's or `AUTH_URL`'s when set, else
 * `mountPath` (given by `authHandler()`), else where `authHandler()` was last mounted, else
 * `/api/auth`: a session read before the first auth request never fixes the wrong one.
 */
export function prepareConfig(
  config: AuthConfig,
  env: AuthEnv,
  mountPath?: string,
): CoreAuthConfig {
  let entry = prepared.get(config);
  if (!entry) {
    entry = { byBasePath: new Map() };
    prepared.set(config, entry);
  }
  if (mountPath) entry.mounted = mountPath;
  const configured = Boolean(config.basePath) || hasPath(siteUrlFromEnv(env));
  const key = configured ? "" : (mountPath ?? entry.mounted ?? DEFAULT_BASE_PATH);
  let ready = entry.byBasePath.get(key);
  if (!ready) {
    const copy: CoreAuthConfig = { ...(config as CoreAuthConfig) };
    if (!configured) copy.basePath = key;
    setCoreEnvDefaults(env, copy, true);
    const session = copy.callbacks?.session ?? defaultCallbacks.session;
    ready = { ...copy, callbacks: { ...copy.callbacks, session: withParts(session) } };
    entry.byBasePath.set(key, ready);
  }
  return ready;
}
