/**
 * next-auth v4's React client (`next-auth/react`): `SessionProvider`, `useSession` (with
 * `required` and `onUnauthenticated`), `signIn`, `signOut`, `getSession`, `getCsrfToken` and
 * `getProviders`. They are `@tessera/next/react`'s, which talk to the same `/api/auth` routes with
 * the same requests, typed here with this package's augmentable `Session`.
 *
 * @example
 * ```ts
 * "use client"
 * import { signIn, signOut, useSession } from "@tessera/next-auth/react"
 *
 * export function useGreeting(): string {
 *   const { data: session } = useSession({ required: true })
 *   return session ? `Signed in as ${session.user?.email}` : "Loading…"
 * }
 * export const login = () => signIn("credentials", { username: "ada", password: "…", callbackUrl: "/" })
 * export const logout = () => signOut({ callbackUrl: "/" })
 * ```
 */
"use client";

import {
  getSession as getV5Session,
  useSession as useV5Session,
  type SessionContextValue as V5SessionContextValue,
} from "@tessera/next/react";
import type { Session } from "./types.js";

export type {
  ClientSafeProvider,
  GetSessionParams,
  LiteralUnion,
  SessionProviderProps,
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
  SessionContext,
  SessionProvider,
  signIn,
  signOut,
} from "@tessera/next/react";

/** What {@link useSession} returns, with this package's (augmentable) `Session`. */
export type SessionContextValue<R extends boolean = false> =
  V5SessionContextValue<R> extends infer V
    ? V extends { data: infer D }
      ? Omit<V, "data"> & { data: D extends null ? null : Session }
      : never
    : never;

/**
 * The session of the nearest `SessionProvider`: `{ data, status, update }`. With
 * `required: true`, a signed-out user is sent to the sign-in page (or `onUnauthenticated` runs).
 *
 * @example
 * ```ts
 * const { data: session, status } = useSession({ required: true, onUnauthenticated: () => history.back() })
 * ```
 */
export function useSession<R extends boolean = false>(options?: {
  required: R;
  onUnauthenticated?: () => void;
}): SessionContextValue<R> {
  return useV5Session<R>(options) as unknown as SessionContextValue<R>;
}

/**
 * The current session, or `null` (in the browser, or on a server with `{ req }`).
 *
 * @example
 * ```ts
 * const session = await getSession()
 * ```
 */
export async function getSession(
  params?: Parameters<typeof getV5Session>[0],
): Promise<Session | null> {
  return (await getV5Session(params)) as Session | null;
}
