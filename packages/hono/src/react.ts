/**
 * The React client of `@hono/auth-js/react` for Tessera: `SessionProvider`, `useSession`,
 * `signIn`, `signOut`, `getSession`, `getCsrfToken`, `getProviders` and `authConfigManager`.
 * The session state and hooks are `@tessera/next/react`'s (one React implementation for every
 * integration, itself on `@tessera/core/client`); this module only points them at the Hono app's
 * auth routes, `/api/auth` unless `authConfigManager.setConfig({ basePath })` says otherwise.
 *
 * @example
 * ```tsx
 * import { SessionProvider, signIn, signOut, useSession } from "@tessera/hono/react"
 *
 * function Status() {
 *   const { data: session, status } = useSession()
 *   if (status === "loading") return <p>…</p>
 *   return session ? <button onClick={() => signOut()}>Sign out {session.user?.name}</button>
 *                  : <button onClick={() => signIn("github")}>Sign in</button>
 * }
 * export const App = () => <SessionProvider><Status /></SessionProvider>
 * ```
 */
import type { Session } from "@tessera/core";
import {
  __NEXTAUTH,
  SessionProvider as SharedSessionProvider,
  type SessionProviderProps as SharedSessionProviderProps,
} from "@tessera/next/react";
import { createElement, type ReactNode } from "react";

export type {
  ClientSafeProvider,
  GetSessionParams,
  LiteralUnion,
  SessionContextValue,
  SignInAuthorizationParams,
  SignInOptions,
  SignInResponse,
  SignOutParams,
  SignOutResponse,
  UpdateSession,
  UseSessionOptions,
} from "@tessera/next/react";
export {
  getCsrfToken,
  getProviders,
  getSession,
  SessionContext,
  signIn,
  signOut,
  useSession,
} from "@tessera/next/react";
export type { Session };

/** Where the client sends its requests, as `@hono/auth-js/react`'s `authConfigManager` holds it. */
export interface AuthClientConfig {
  /** Origin of the auth routes; `""` (default) is the page's own. */
  baseUrl: string;
  /** Path of the auth routes, `/api/auth` by default; an absolute URL sets `baseUrl` too. */
  basePath: string;
  /**
   * Accepted for `@hono/auth-js` code. Requests always go `same-origin`: the session cookie is
   * `SameSite=Lax`, so a cross-site page could not use it anyway.
   */
  credentials: RequestCredentials;
}

/** Splits an absolute `basePath` (`https://api.example/api/auth`) into origin and path. */
function normalise(config: Partial<AuthClientConfig>): Partial<AuthClientConfig> {
  const { basePath } = config;
  if (basePath === undefined) return config;
  if (/^https?:\/\//i.test(basePath)) {
    const url = new URL(basePath);
    return { ...config, baseUrl: url.origin, basePath: url.pathname.replace(/\/+$/, "") };
  }
  return { ...config, basePath: basePath.replace(/\/+$/, "") };
}

/** The one client configuration of the page (a singleton, as in `@hono/auth-js/react`). */
class AuthConfigManager {
  #config: AuthClientConfig = { baseUrl: "", basePath: "/api/auth", credentials: "same-origin" };

  /**
   * Changes where the client sends its requests; call it before rendering.
   *
   * @example
   * ```ts
   * authConfigManager.setConfig({ basePath: "/custom" })
   * ```
   */
  setConfig(userConfig: Partial<AuthClientConfig>): void {
    this.#config = { ...this.#config, ...normalise(userConfig) };
    // The shared client reads its path from here; the origin goes through SessionProvider.
    __NEXTAUTH.basePath = this.#config.basePath;
  }

  /**
   * The current configuration.
   *
   * @example
   * ```ts
   * authConfigManager.getConfig().basePath // "/api/auth"
   * ```
   */
  getConfig(): AuthClientConfig {
    return this.#config;
  }
}

/**
 * Where the client functions send their requests.
 *
 * @example
 * ```ts
 * authConfigManager.setConfig({ basePath: "/custom" }) // if auth routes are not at /api/auth
 * ```
 */
export const authConfigManager = new AuthConfigManager();

/** Props of {@link SessionProvider}, as in `@hono/auth-js/react`. */
export type SessionProviderProps = Omit<SharedSessionProviderProps, "baseUrl" | "basePath">;

/**
 * Makes the session available to `useSession` below it and keeps it fresh (on focus, on an
 * interval, and when another tab signs in or out), talking to `authConfigManager`'s routes.
 *
 * @example
 * ```tsx
 * <SessionProvider refetchInterval={300}><App /></SessionProvider>
 * ```
 */
export function SessionProvider(props: SessionProviderProps): ReactNode {
  const { baseUrl, basePath } = authConfigManager.getConfig();
  return createElement(SharedSessionProvider, { ...props, baseUrl, basePath });
}
