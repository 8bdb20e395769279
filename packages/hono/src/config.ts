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

const prepared = new WeakMap<AuthConfig, CoreAuthConfig>();

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
 * Fills unset options of `config` from `env`, as `@hono/auth-js`'s `setEnvDefaults` is called:
 * `secret` from `AUTH_SECRET` (and its rotations), `AUTH_URL`, host trust, provider credentials.
 * Unlike it, an unset base path is `mountPath` (where `authHandler` is mounted), else
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

/**
 * `config` ready for the core, once per config object: environment defaults applied, and the
 * `session` callback wrapped so that its answer also carries the token or user it was given (for
 * `getAuthUser`). The copy is cached, so the core resolves it a single time.
 */
export function prepareConfig(
  config: AuthConfig,
  env: AuthEnv,
  mountPath?: string,
): CoreAuthConfig {
  let ready = prepared.get(config);
  if (!ready) {
    setEnvDefaults(env, config, mountPath);
    const session = config.callbacks?.session ?? defaultCallbacks.session;
    const withParts: CallbacksOptions["session"] = async (params) => {
      const answer = await session(params);
      const { token, user } = params as { token?: JWT; user?: AdapterUser };
      const parts: SessionParts = {};
      if (token) parts.token = token;
      if (user) parts.user = user;
      return { ...answer, [SESSION_PARTS]: parts } as SessionWithParts;
    };
    ready = {
      ...(config as CoreAuthConfig),
      callbacks: { ...config.callbacks, session: withParts },
    };
    prepared.set(config, ready);
  }
  return ready;
}
