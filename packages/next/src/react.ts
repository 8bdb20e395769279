/**
 * Client-side session access for React, as `next-auth/react`: `SessionProvider`, `useSession`
 * (with `update()`), and `signIn`, `signOut`, `getSession`, `getCsrfToken`, `getProviders`, all
 * talking to the route handlers under `/api/auth`. The requests are `@tessera/core/client`'s;
 * this module adds React state and keeps tabs in step.
 *
 * @example
 * ```tsx
 * "use client"
 * import { SessionProvider, useSession, signIn, signOut } from "@tessera/next/react"
 * function Status() {
 *   const { data, status } = useSession()
 *   if (status === "loading") return <p>…</p>
 *   return data ? <button onClick={() => signOut()}>Sign out {data.user?.name}</button>
 *               : <button onClick={() => signIn()}>Sign in</button>
 * }
 * ```
 */
"use client";

import type { Session } from "@tessera/core";
import {
  authActionUrl,
  type ClientSafeProvider,
  getCsrfToken as clientGetCsrfToken,
  getProviders as clientGetProviders,
  getSession as clientGetSession,
  signOut as clientSignOut,
  navigate,
  type SignInAuthorizationParams,
  type SignInOptions,
  type SignInResponse,
  type SignOutResponse,
  updateSession,
} from "@tessera/core/client";
import {
  createContext,
  createElement,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import {
  __NEXTAUTH,
  type AuthClientConfig,
  broadcastSession,
  browserOrigin,
  currentEndpoint,
  type GetSessionParams,
  sessionChannel,
  sessionRefetchers,
  signInAndSync,
} from "./client-state.js";

export type {
  AuthClientConfig,
  ClientSafeProvider,
  GetSessionParams,
  Session,
  SignInAuthorizationParams,
  SignInOptions,
  SignInResponse,
  SignOutResponse,
};
export { __NEXTAUTH };

/** A string literal union that still accepts any string (next-auth's helper type). */
export type LiteralUnion<T extends U, U = string> = T | (U & Record<never, never>);

/** Seconds since the epoch, the unit of `__NEXTAUTH._lastSync`. */
function now(): number {
  return Math.floor(Date.now() / 1000);
}

function cookieOf(req: GetSessionParams["req"]): string | undefined {
  const headers = req?.headers;
  if (!headers) return undefined;
  const cookie = headers instanceof Headers ? headers.get("cookie") : headers.cookie;
  return Array.isArray(cookie) ? cookie.join("; ") : (cookie ?? undefined);
}

/**
 * The current session, or `null`. Works on a server too (the route handlers' URL then comes from
 * `NEXTAUTH_URL_INTERNAL`, `AUTH_URL` or `NEXTAUTH_URL`); pass `{ req }` to forward its cookies.
 *
 * @example
 * ```ts
 * const session = await getSession()
 * ```
 */
export async function getSession(params?: GetSessionParams): Promise<Session | null> {
  const cookie = cookieOf(params?.req);
  const session = await clientGetSession(currentEndpoint(), cookie ? { cookie } : undefined);
  if (params?.broadcast ?? true) broadcastSession("getSession");
  return session;
}

/**
 * A CSRF token for a form posted to the route handlers (double-submit cookie technique).
 *
 * @example
 * ```ts
 * const csrfToken = await getCsrfToken()
 * ```
 */
export async function getCsrfToken(): Promise<string> {
  return clientGetCsrfToken(currentEndpoint());
}

/**
 * The configured providers by id, or `null` when the server could not be reached.
 *
 * @example
 * ```ts
 * const providers = await getProviders()
 * ```
 */
export async function getProviders(): Promise<Record<string, ClientSafeProvider> | null> {
  return clientGetProviders(currentEndpoint());
}

/**
 * Signs in with `provider`. Without a provider, goes to the sign-in page. For credentials, pass
 * the fields in `options`; with `redirect: false` the promise resolves with the outcome.
 *
 * @example
 * ```ts
 * const result = await signIn("credentials", { email, password, redirect: false })
 * if (result?.error) showError(result.code)
 * ```
 */
export async function signIn<P extends string | undefined = undefined>(
  provider?: LiteralUnion<NonNullable<P>>,
  options?: SignInOptions,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined> {
  return signInAndSync(provider, options, authorizationParams);
}

/** Options of the client {@link signOut}. */
export interface SignOutParams<Redirect extends boolean = true> {
  /** Where to go afterwards. Default: the current page. */
  redirectTo?: string;
  /** @deprecated use `redirectTo` */
  callbackUrl?: string;
  /** `false` stays on the page and resolves with `{ url }`. Default `true`. */
  redirect?: Redirect;
}

/** @deprecated use {@link SignOutParams} */
export type SignOutOptions = SignOutParams<boolean>;

/**
 * Signs out: the session cookie is cleared and a database session deleted.
 *
 * @example
 * ```ts
 * await signOut({ redirectTo: "/" })
 * ```
 */
export async function signOut<Redirect extends boolean = true>(
  options: SignOutParams<Redirect> = {},
): Promise<Redirect extends true ? undefined : SignOutResponse> {
  const result = await clientSignOut(currentEndpoint(), options);
  broadcastSession("signout");
  if (result) await __NEXTAUTH._getSession({ event: "storage" });
  // `result` is undefined exactly when `redirect` was not false, which is what the type says.
  return result as Redirect extends true ? undefined : SignOutResponse;
}

/**
 * Updates the session: with `data`, `POST /session` (the `jwt` and `session` callbacks get
 * `trigger: "update"`); without, the session is read again.
 */
export type UpdateSession = (data?: unknown) => Promise<Session | null>;

/** What {@link useSession} returns. */
export type SessionContextValue<Required extends boolean = false> = Required extends true
  ?
      | { update: UpdateSession; data: Session; status: "authenticated" }
      | { update: UpdateSession; data: null; status: "loading" }
  :
      | { update: UpdateSession; data: Session; status: "authenticated" }
      | { update: UpdateSession; data: null; status: "unauthenticated" | "loading" };

/** The context {@link SessionProvider} fills and {@link useSession} reads. */
export const SessionContext = createContext<SessionContextValue | undefined>(undefined);

/** Props of {@link SessionProvider}. */
export interface SessionProviderProps {
  children: ReactNode;
  /** The session from the server (`await auth()`): no loading state on the first render. */
  session?: Session | null;
  /** Origin of the route handlers when not the page's own. Default: same origin. */
  baseUrl?: string;
  /** Where the route handlers are. Default `/api/auth`. */
  basePath?: string;
  /** Seconds between background re-fetches of the session; 0 (default) never. */
  refetchInterval?: number;
  /** Re-fetch when the tab becomes visible again. Default `true`. */
  refetchOnWindowFocus?: boolean;
  /** Also poll (`refetchInterval`) while the browser is offline. Default `false`. */
  refetchWhenOffline?: boolean;
}

/**
 * Makes the session available to {@link useSession} below it, and keeps it fresh: on focus, on
 * an interval, and when another tab signs in or out.
 *
 * @example
 * ```tsx
 * <SessionProvider session={await auth()}>{children}</SessionProvider>
 * ```
 */
export function SessionProvider(props: SessionProviderProps): ReactNode {
  const { children, baseUrl, basePath, refetchInterval = 0 } = props;
  const { refetchOnWindowFocus = true, refetchWhenOffline = false } = props;
  if (basePath !== undefined) __NEXTAUTH.basePath = basePath.replace(/\/+$/, "");
  if (baseUrl !== undefined) browserOrigin.value = baseUrl.replace(/\/+$/, "");

  const hasInitial = props.session !== undefined;
  const [session, setSession] = useState<Session | null>(() => {
    if (hasInitial) __NEXTAUTH._session = props.session;
    return props.session ?? null;
  });
  const [loading, setLoading] = useState(!hasInitial);
  const startedWithSession = useRef(hasInitial);
  // Answers of overlapping fetches can arrive out of order; only the newest one counts.
  const latest = useRef(0);

  const refetch = useCallback(async ({ event }: GetSessionParams = {}) => {
    try {
      const fromOtherTab = event === "storage";
      // Without an event, a session already read is good enough.
      if (!event && __NEXTAUTH._session !== undefined) {
        setSession(__NEXTAUTH._session);
        return;
      }
      const ticket = ++latest.current;
      __NEXTAUTH._lastSync = now();
      const next = await getSession({ broadcast: !fromOtherTab });
      if (ticket !== latest.current) return;
      __NEXTAUTH._session = next;
      setSession(next);
    } catch (error) {
      console.error("[tessera] reading the session failed:", error);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    // The clock is read after mount, never during render: with Cache Components a client
    // component that reads `Date.now()` while prerendering fails the build.
    if (startedWithSession.current) __NEXTAUTH._lastSync = now();
    sessionRefetchers.add(refetch);
    void refetch();
    const channel = sessionChannel();
    const onMessage = () => void refetch({ event: "storage" });
    channel?.addEventListener("message", onMessage);
    return () => {
      sessionRefetchers.delete(refetch);
      channel?.removeEventListener("message", onMessage);
      if (sessionRefetchers.size === 0) {
        __NEXTAUTH._session = undefined;
        __NEXTAUTH._lastSync = 0;
      }
    };
  }, [refetch]);

  useEffect(() => {
    if (!refetchOnWindowFocus) return;
    const onVisible = () => {
      if (document.visibilityState === "visible") void refetch({ event: "visibilitychange" });
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [refetchOnWindowFocus, refetch]);

  useEffect(() => {
    if (!refetchInterval) return;
    const timer = setInterval(() => {
      if (refetchWhenOffline || navigator.onLine !== false) void refetch({ event: "poll" });
    }, refetchInterval * 1000);
    return () => clearInterval(timer);
  }, [refetchInterval, refetchWhenOffline, refetch]);

  const update = useCallback<UpdateSession>(async (data) => {
    setLoading(true);
    try {
      const next = await updateSession(currentEndpoint(), data);
      latest.current++;
      // A failed update keeps the session shown (as next-auth does).
      if (next) {
        __NEXTAUTH._session = next;
        __NEXTAUTH._lastSync = now();
        setSession(next);
        broadcastSession("update");
      }
      return next;
    } finally {
      setLoading(false);
    }
  }, []);

  const value = useMemo<SessionContextValue>(() => {
    if (session) return { data: session, status: "authenticated", update };
    return { data: null, status: loading ? "loading" : "unauthenticated", update };
  }, [session, loading, update]);

  return createElement(SessionContext.Provider, { value }, children);
}

/** Options of {@link useSession}. */
export interface UseSessionOptions<Required extends boolean> {
  /** Send signed-out users to the sign-in page (or call `onUnauthenticated`). */
  required: Required;
  onUnauthenticated?: () => void;
}

/**
 * The session of the nearest {@link SessionProvider}: `{ data, status, update }`.
 *
 * @example
 * ```ts
 * const { data: session, status, update } = useSession()
 * await update({ user: { name: "New name" } })
 * ```
 */
export function useSession<Required extends boolean = false>(
  options?: UseSessionOptions<Required>,
): SessionContextValue<Required> {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession must be used inside a <SessionProvider>.");
  const required = options?.required === true;
  const onUnauthenticated = options?.onUnauthenticated;
  const mustLeave = required && value.status === "unauthenticated";
  useEffect(() => {
    if (!mustLeave) return;
    if (onUnauthenticated) onUnauthenticated();
    else {
      const params = new URLSearchParams({
        error: "SessionRequired",
        callbackUrl: window.location.href,
      });
      navigate(`${authActionUrl(currentEndpoint(), "signin")}?${params}`);
    }
  }, [mustLeave, onUnauthenticated]);
  if (mustLeave) return { data: null, update: value.update, status: "loading" };
  return value as SessionContextValue<Required>;
}
