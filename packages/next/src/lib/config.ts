/**
 * Turns the user's configuration into the three variants the integration passes to `Auth()`:
 * - `routes`: for the route handlers, exactly as configured (CSRF checked).
 * - `data`: for reading sessions; `Auth()` returns data (status, body, cookies), not a `Response`.
 * - `action`: for server actions; data. They reach the core in-process (`callAction`), which asks
 *   for no CSRF token: Next.js already refuses cross-site server-action posts (Origin check).
 *   The app's CSRF setting is kept as it is, so no `csrf-disabled` warning is logged for it.
 * Each variant is one object per user config, so the core resolves it once, not per request.
 */
import { type AuthConfig, assertStartupConfig, pageSafeClaims, raw } from "@tessera/core";
import type { NextRequest } from "next/server.js";
import type { NextAuthConfig, NextAuthConfigOrFactory } from "../types.js";
import { setEnvDefaults } from "./env.js";
import { v4SessionCookies } from "./next-auth-v4-cookies.js";

/** The variants of one user configuration. */
export interface ConfigVariants {
  user: NextAuthConfig;
  basePath: string;
  routes: AuthConfig;
  data: AuthConfig & { raw: typeof raw };
  action: AuthConfig & { raw: typeof raw };
}

const variantsByConfig = new WeakMap<NextAuthConfig, ConfigVariants>();

type SessionCallback = NonNullable<NonNullable<AuthConfig["callbacks"]>["session"]>;

/**
 * The session callback `auth()` runs, as next-auth wraps it: the answer carries `user` — the
 * adapter user (database strategy, so `session.user.id` is set) or the token (JWT strategy) —
 * under whatever the app's own callback returns (the token without the provider tokens and
 * revocation ids it carries: see `pageSafeClaims`). Without an app callback the session is passed
 * through whole, except its `sessionToken`: `auth()` results are handed to client components,
 * and the database session's token is the user's credential.
 */
function userInSession(own: SessionCallback | undefined): SessionCallback {
  return async (params) => {
    let shaped: Awaited<ReturnType<SessionCallback>>;
    if (own) shaped = await own(params);
    else {
      const { sessionToken: _credential, ...session } = params.session;
      const expires: Date | string = session.expires;
      shaped = { ...session, expires: expires instanceof Date ? expires.toISOString() : expires };
    }
    // The token stands in for the user, minus the provider tokens and revocation ids it carries:
    // this answer ends up in RSC and HTML payloads (a refresh token there is an account takeover).
    return { user: params.user ?? (params.token && pageSafeClaims(params.token)), ...shaped };
  };
}

function variantsOf(config: NextAuthConfig): ConfigVariants {
  const known = variantsByConfig.get(config);
  if (known) return known;
  setEnvDefaults(config);
  if (config.nextAuthV4Cookies) readV4Cookies(config);
  // The `authorized` callback takes a NextRequest; the core never calls it.
  const routes = config as AuthConfig;
  const variants: ConfigVariants = {
    user: config,
    basePath: config.basePath ?? "",
    routes,
    data: {
      ...routes,
      callbacks: { ...routes.callbacks, session: userInSession(routes.callbacks?.session) },
      raw,
    },
    action: { ...routes, raw },
  };
  variantsByConfig.set(config, variants);
  return variants;
}

/**
 * Adds next-auth v4's session cookies to the legacy session cookies the core reads, decoded with
 * the configured secrets and `NEXTAUTH_SECRET` (v4's secret variable).
 */
function readV4Cookies(config: NextAuthConfig): void {
  const secrets = () => {
    const configured = Array.isArray(config.secret) ? config.secret : [config.secret];
    const all = [...configured, process.env.NEXTAUTH_SECRET];
    return [...new Set(all.filter((secret): secret is string => Boolean(secret)))];
  };
  config.jwt = {
    ...config.jwt,
    legacySessionCookies: [
      ...(config.jwt?.legacySessionCookies ?? []),
      ...v4SessionCookies(secrets),
    ],
  };
}

/** Loads the variants for one request (`undefined` in server components and server actions). */
export type ConfigLoader = (request: NextRequest | undefined) => Promise<ConfigVariants>;

/**
 * A loader for a fixed config (prepared once, now) or a lazy one (called per request).
 *
 * @example
 * ```ts
 * const load = configLoader((request) => ({ providers: [...] }))
 * const { routes } = await load(request)
 * ```
 */
export function configLoader(config: NextAuthConfigOrFactory): ConfigLoader {
  if (typeof config === "function") return async (request) => variantsOf(await config(request));
  const fixed = variantsOf(config);
  warnOfConfigError(fixed);
  return async () => fixed;
}

/**
 * Logs a fixed config's error when `NextAuth()` runs, so that it shows at start-up and not only
 * at the first request. Logged, not thrown: `next build` imports the route modules without the
 * runtime environment (AUTH_SECRET is often set only where the app runs), so a throw here would
 * break builds that work; every request still answers the error until it is fixed. Silent while
 * `next build` runs, where the runtime environment is not known.
 */
function warnOfConfigError(variants: ConfigVariants): void {
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  try {
    assertStartupConfig(variants.routes);
  } catch (error) {
    logError(variants.user, error);
  }
}

/** Logs through the configured logger, else the console (never throws). */
export function logError(config: NextAuthConfig, error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error));
  try {
    if (config.logger?.error) config.logger.error(err);
    else console.error(`[tessera][error] ${err.name}: ${err.message}`);
  } catch {
    // A failing logger must not turn a handled error into an unhandled one.
  }
}
