/**
 * Client-side session access for React, as `next-auth/react`: `SessionProvider`, `useSession`
 * (with `update()`), and `signIn`, `signOut`, `getSession`, `getCsrfToken`, `getProviders`, all
 * talking to the route handlers under `/api/auth`.
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
import { findProvider } from "@tessera/core/client";
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

export type { Session };

/** Where the route handlers are; `SessionProvider` props change it for the whole page. */
const endpoint = { baseUrl: "", basePath: "/api/auth" };

function apiUrl(path: string): string {
  return `${endpoint.baseUrl}${endpoint.basePath}/${path}`;
}

/** Session changes in this tab notify every provider; other tabs hear it on a BroadcastChannel. */
const listeners = new Set<() => void>();
const CHANNEL = "tessera.session";

function announceSessionChange(): void {
  for (const listener of listeners) listener();
  if (typeof BroadcastChannel !== "undefined") {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage({ event: "session" });
    channel.close();
  }
}

async function fetchJson<T>(path: string, init?: RequestInit): Promise<T | null> {
  try {
    const response = await fetch(apiUrl(path), { credentials: "same-origin", ...init });
    if (!response.ok) return null;
    return (await response.json()) as T;
  } catch (error) {
    console.error("[tessera] request to", path, "failed:", error);
    return null;
  }
}

/** A provider as `GET /api/auth/providers` lists it. */
export interface ClientSafeProvider {
  id: string;
  name: string;
  type: string;
  signinUrl: string;
  callbackUrl: string;
}

/**
 * The current session, or `null`.
 *
 * @example
 * ```ts
 * const session = await getSession()
 * ```
 */
export async function getSession(): Promise<Session | null> {
  return fetchJson<Session>("session");
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
  const body = await fetchJson<{ csrfToken?: string }>("csrf");
  return body?.csrfToken ?? "";
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
  return fetchJson<Record<string, ClientSafeProvider>>("providers");
}

function navigate(url: string): void {
  window.location.href = url;
  // A change of the hash alone does not load a page.
  if (url.includes("#")) window.location.reload();
}

/** Options of the client {@link signIn}; other keys are posted as credentials or form fields. */
export interface SignInOptions extends Record<string, unknown> {
  /** Where to go after signing in. Default: the current page. */
  redirectTo?: string;
  /** @deprecated use `redirectTo` */
  callbackUrl?: string;
  /** `false` stays on the page and resolves with the outcome. Default `true`. */
  redirect?: boolean;
}

/** The outcome of `signIn(…, { redirect: false })`. */
export interface SignInResponse {
  /** The error type (e.g. `CredentialsSignin`), when sign-in failed. */
  error: string | undefined;
  /** The `code` of a `CredentialsSignin` error. */
  code: string | undefined;
  status: number;
  ok: boolean;
  /** Where the user would have been sent; `null` on error. */
  url: string | null;
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
export async function signIn(
  provider?: string,
  options: SignInOptions = {},
  authorizationParams?: string | string[][] | Record<string, string> | URLSearchParams,
): Promise<SignInResponse | undefined> {
  const { redirect = true, redirectTo, callbackUrl, ...fields } = options;
  const target = redirectTo ?? callbackUrl ?? window.location.href;
  const providers = await getProviders();
  if (!providers) {
    navigate(apiUrl("error"));
    return undefined;
  }
  // Own keys only: "__proto__" or "toString" must not name a provider (prototype key confusion).
  const found = findProvider(providers, provider);
  if (!provider || !found) {
    navigate(`${apiUrl("signin")}?${new URLSearchParams({ callbackUrl: target })}`);
    return undefined;
  }
  const isCredentials = found.type === "credentials";
  const path = `${isCredentials ? "callback" : "signin"}/${encodeURIComponent(provider)}`;
  const query = authorizationParams ? `?${new URLSearchParams(authorizationParams)}` : "";
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined && value !== null) body.set(name, String(value));
  body.set("csrfToken", await getCsrfToken());
  body.set("callbackUrl", target);
  const response = await fetch(apiUrl(path) + query, {
    method: "POST",
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Auth-Return-Redirect": "1",
    },
    body,
  });
  const data = (await response.json().catch(() => ({}))) as { url?: unknown };
  const url = typeof data.url === "string" ? data.url : target;
  if (redirect) {
    navigate(url);
    return undefined;
  }
  const params = new URL(url, window.location.href).searchParams;
  const error = params.get("error") ?? undefined;
  if (response.ok && !error) announceSessionChange();
  return {
    error,
    code: params.get("code") ?? undefined,
    status: response.status,
    ok: response.ok,
    url: error ? null : url,
  };
}

/** Options of the client {@link signOut}. */
export interface SignOutOptions {
  /** Where to go afterwards. Default: the current page. */
  redirectTo?: string;
  /** @deprecated use `redirectTo` */
  callbackUrl?: string;
  /** `false` stays on the page and resolves with `{ url }`. Default `true`. */
  redirect?: boolean;
}

/**
 * Signs out: the session cookie is cleared and a database session deleted.
 *
 * @example
 * ```ts
 * await signOut({ redirectTo: "/" })
 * ```
 */
export async function signOut(options: SignOutOptions = {}): Promise<{ url: string } | undefined> {
  const { redirect = true, redirectTo, callbackUrl } = options;
  const target = redirectTo ?? callbackUrl ?? window.location.href;
  const body = new URLSearchParams({ csrfToken: await getCsrfToken(), callbackUrl: target });
  const response = await fetch(apiUrl("signout"), {
    method: "POST",
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Auth-Return-Redirect": "1",
    },
    body,
  });
  const data = (await response.json().catch(() => ({}))) as { url?: unknown };
  const url = typeof data.url === "string" ? data.url : target;
  announceSessionChange();
  if (redirect) {
    navigate(url);
    return undefined;
  }
  return { url };
}

/** Sends `data` to `POST /session`; the `jwt` and `session` callbacks get `trigger: "update"`. */
export type UpdateSession = (data?: unknown) => Promise<Session | null>;

/** What {@link useSession} returns. */
export type SessionContextValue<Required extends boolean = false> = Required extends true
  ?
      | { update: UpdateSession; data: Session; status: "authenticated" }
      | { update: UpdateSession; data: null; status: "loading" }
  :
      | { update: UpdateSession; data: Session; status: "authenticated" }
      | { update: UpdateSession; data: null; status: "unauthenticated" | "loading" };

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

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
 * Makes the session available to {@link useSession} below it.
 *
 * @example
 * ```tsx
 * <SessionProvider session={await auth()}>{children}</SessionProvider>
 * ```
 */
export function SessionProvider(props: SessionProviderProps): ReactNode {
  const { children, baseUrl, basePath, refetchInterval = 0 } = props;
  const { refetchOnWindowFocus = true, refetchWhenOffline = false } = props;
  if (basePath !== undefined) endpoint.basePath = basePath.replace(/\/+$/, "");
  if (baseUrl !== undefined) endpoint.baseUrl = baseUrl.replace(/\/+$/, "");

  const hasInitial = props.session !== undefined;
  const [session, setSession] = useState<Session | null>(props.session ?? null);
  const [loading, setLoading] = useState(!hasInitial);
  // Answers of overlapping fetches can arrive out of order; only the newest one counts.
  const latest = useRef(0);

  const refetch = useCallback(async () => {
    const ticket = ++latest.current;
    const next = await getSession();
    if (ticket !== latest.current) return;
    setSession(next);
    setLoading(false);
  }, []);

  useEffect(() => {
    if (!hasInitial) void refetch();
    listeners.add(refetch);
    const channel =
      typeof BroadcastChannel !== "undefined" ? new BroadcastChannel(CHANNEL) : undefined;
    if (channel) channel.onmessage = () => void refetch();
    return () => {
      listeners.delete(refetch);
      channel?.close();
    };
  }, [hasInitial, refetch]);

  useEffect(() => {
    if (!refetchOnWindowFocus) return;
    const onVisible = () => {
      if (document.visibilityState === "visible") void refetch();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [refetchOnWindowFocus, refetch]);

  useEffect(() => {
    if (!refetchInterval) return;
    const timer = setInterval(() => {
      if (refetchWhenOffline || navigator.onLine !== false) void refetch();
    }, refetchInterval * 1000);
    return () => clearInterval(timer);
  }, [refetchInterval, refetchWhenOffline, refetch]);

  const update = useCallback<UpdateSession>(async (data) => {
    setLoading(true);
    try {
      const body = JSON.stringify({ csrfToken: await getCsrfToken(), data });
      const next = await fetchJson<Session>("session", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      });
      latest.current++;
      setSession(next);
      if (next) announceSessionChange();
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
      navigate(`${apiUrl("signin")}?${params}`);
    }
  }, [mustLeave, onUnauthenticated]);
  if (mustLeave) return { data: null, update: value.update, status: "loading" };
  return value as SessionContextValue<Required>;
}
