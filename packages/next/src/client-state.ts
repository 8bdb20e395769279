/**
 * State shared by the browser entry points `@tessera/next/react` and `@tessera/next/webauthn`:
 * where the route handlers are (`__NEXTAUTH`), the tab-to-tab session channel, and the sign-in
 * both entries run.
 */
import type { Session } from "@tessera/core";
import {
  type AuthEndpoint,
  signIn as clientSignIn,
  endpointFromUrl,
  type SignInAuthorizationParams,
  type SignInExtensions,
  type SignInOptions,
  type SignInResponse,
} from "@tessera/core/client";

/** What `getSession()` and `SessionProvider`'s refetch accept, as in next-auth. */
export interface GetSessionParams {
  /** Why the session is read: `"storage"` (another tab changed it), `"poll"`, `"visibilitychange"`… */
  event?: "storage" | "timer" | "hidden" | string;
  /** Accepted for next-auth v4 code; has no effect. */
  triggerEvent?: boolean;
  /** Tell the other tabs to read the session too. Default `true`. */
  broadcast?: boolean;
  /** On a server: the incoming request, whose `cookie` header is forwarded. */
  req?: { headers?: Headers | Record<string, string | string[] | undefined> };
}

/** The client's configuration and state, with the shape of next-auth's `__NEXTAUTH`. */
export interface AuthClientConfig {
  /** Origin of the route handlers (from `AUTH_URL`/`NEXTAUTH_URL`). */
  baseUrl: string;
  /** Path of the route handlers, `/api/auth` unless `AUTH_URL`/`NEXTAUTH_URL` or `SessionProvider` say otherwise. */
  basePath: string;
  /** Origin used on a server, where relative URLs cannot be fetched. */
  baseUrlServer: string;
  /** Path used on a server. */
  basePathServer: string;
  /** The last session read; `undefined` before the first. */
  _session?: Session | null | undefined;
  /** When the session was last read (seconds since the epoch). */
  _lastSync: number;
  /** Makes every mounted `SessionProvider` read the session again. */
  _getSession: (params?: GetSessionParams) => Promise<void>;
}

function env(name: string): string | undefined {
  return typeof process === "undefined" ? undefined : process.env[name] || undefined;
}

const publicEndpoint = endpointFromUrl(env("AUTH_URL") ?? env("NEXTAUTH_URL") ?? env("VERCEL_URL"));
const serverEndpoint = endpointFromUrl(
  env("NEXTAUTH_URL_INTERNAL") ?? env("AUTH_URL") ?? env("NEXTAUTH_URL") ?? env("VERCEL_URL"),
);

/** Refetchers of the mounted `SessionProvider`s. */
export const sessionRefetchers = new Set<(params?: GetSessionParams) => Promise<void>>();

/**
 * Where the client functions send their requests, and the session they last read, as next-auth's
 * `__NEXTAUTH`. `SessionProvider`'s `basePath` prop changes `basePath`.
 *
 * @example
 * ```ts
 * import { __NEXTAUTH } from "@tessera/next/react"
 * __NEXTAUTH.basePath = "/auth" // the route handlers live under app/auth/[...nextauth]
 * ```
 */
export const __NEXTAUTH: AuthClientConfig = {
  baseUrl: publicEndpoint.baseUrl,
  basePath: publicEndpoint.basePath,
  baseUrlServer: serverEndpoint.baseUrl,
  basePathServer: serverEndpoint.basePath,
  _session: undefined,
  _lastSync: 0,
  _getSession: async (params) => {
    await Promise.all([...sessionRefetchers].map((refetch) => refetch(params)));
  },
};

/** Origin of the route handlers in the browser: `""` (the page's) unless `SessionProvider` names one. */
export const browserOrigin = { value: "" };

/**
 * The endpoint to talk to now: relative in the browser, absolute (from the environment) on a
 * server, as next-auth does.
 */
export function currentEndpoint(): AuthEndpoint {
  if (typeof window === "undefined")
    return { baseUrl: __NEXTAUTH.baseUrlServer, basePath: __NEXTAUTH.basePathServer };
  return { baseUrl: browserOrigin.value, basePath: __NEXTAUTH.basePath };
}

const CHANNEL = "tessera.session";
let channel: BroadcastChannel | undefined;

/**
 * The tab's one session channel. A channel object does not hear its own messages, so posting and
 * listening on the same one keeps a tab from answering itself.
 */
export function sessionChannel(): BroadcastChannel | undefined {
  // Servers have no tabs; a channel there would only keep the process alive.
  if (typeof window === "undefined" || typeof BroadcastChannel === "undefined") return undefined;
  channel ??= new BroadcastChannel(CHANNEL);
  return channel;
}

/** Tells the other tabs that the session changed, so they read it again. */
export function broadcastSession(trigger: string): void {
  sessionChannel()?.postMessage({ event: "session", data: { trigger } });
}

/**
 * Signs in through the core client; after a sign-in that completed on the page, this tab's
 * providers and the other tabs read the new session.
 */
export async function signInAndSync(
  provider: string | undefined,
  options: SignInOptions | undefined,
  authorizationParams: SignInAuthorizationParams | undefined,
  extensions?: SignInExtensions,
): Promise<SignInResponse | undefined> {
  const result = await clientSignIn(
    currentEndpoint(),
    provider,
    options,
    authorizationParams,
    extensions,
  );
  if (result?.ok) {
    await __NEXTAUTH._getSession({ event: "storage" });
    broadcastSession("signin");
  }
  return result;
}
