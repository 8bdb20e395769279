/**
 * Tessera for Next.js (App Router): a drop-in replacement for `next-auth` v5.
 *
 * @example
 * ```ts
 * // auth.ts
 * import NextAuth from "@tessera/next"
 * import Credentials from "@tessera/next/providers/credentials"
 * export const { handlers, auth, signIn, signOut } = NextAuth({ providers: [Credentials({ authorize })] })
 *
 * // app/api/auth/[...nextauth]/route.ts
 * export const { GET, POST } = handlers
 *
 * // proxy.ts (middleware.ts before Next.js 16)
 * export { auth as proxy } from "@/auth"
 * ```
 */
import { Auth, passkeysApi } from "@tessera/core";
import type { NextRequest } from "next/server.js";
import { createAuth } from "./lib/auth.js";
import { configLoader } from "./lib/config.js";
import { withPublicOrigin } from "./lib/env.js";
import type { NextAuthConfigOrFactory, NextAuthResult } from "./types.js";

export type {
  AccessToken,
  Account,
  DefaultSession,
  JWT,
  ListedPasskey,
  ListedSession,
  PasskeyList,
  PasskeysApi,
  Profile,
  Session,
  User,
} from "@tessera/core";
export { customFetch } from "@tessera/core";
export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type {
  AuthFunction,
  AuthorizedCallback,
  AuthWrappedHandler,
  NextAuthConfig,
  NextAuthConfigOrFactory,
  NextAuthRequest,
  NextAuthResult,
  SignInAuthorizationParams,
  SignInOptions,
  SignOutOptions,
  SignOutResult,
} from "./types.js";

/*
 * The server actions load with their first call: `export { auth as middleware }` bundles this
 * module for the Edge runtime, where they never run, and a middleware isolate should not
 * evaluate them (nor the `next/navigation` they import) at start-up.
 */
const serverActions = () => import("./lib/actions.js");
const sessionActions = () => import("./lib/sessions.js");

/**
 * Sets up authentication for a Next.js app: route handlers for `/api/auth/*`, `auth()` and the
 * server actions. `config` may be a function of the request (`undefined` in server components and
 * server actions) to build the configuration per request.
 *
 * `AUTH_SECRET`, `AUTH_URL` (its path sets the base path) and `AUTH_TRUST_HOST` are read from the
 * environment when the config does not set them.
 *
 * @example
 * ```ts
 * export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth({
 *   providers: [GitHub],
 *   callbacks: { authorized: ({ auth }) => Boolean(auth) },
 * })
 * ```
 */
export default function NextAuth(config: NextAuthConfigOrFactory): NextAuthResult {
  const load = configLoader(config);
  // The route handlers keep CSRF checks: they receive plain form posts from anywhere.
  const handle = async (request: NextRequest) => {
    const variants = await load(request);
    const clientIp = variants.user.clientIp?.(request);
    return Auth(withPublicOrigin(request), variants.routes, clientIp ? { clientIp } : {});
  };
  return {
    handlers: { GET: handle, POST: handle },
    auth: createAuth(load),
    signIn: async (provider, options, authorizationParams) =>
      (await serverActions()).signInAction(
        await load(undefined),
        provider,
        options,
        authorizationParams,
      ) as never,
    signOut: async (options) =>
      (await serverActions()).signOutAction(await load(undefined), options) as never,
    unstable_update: async (data) =>
      (await serverActions()).updateAction(await load(undefined), data),
    listSessions: async () => (await sessionActions()).listSessionsAction(await load(undefined)),
    revokeSession: async (id) =>
      (await sessionActions()).revokeSessionAction(await load(undefined), id),
    revokeOtherSessions: async () =>
      (await sessionActions()).revokeOtherSessionsAction(await load(undefined)),
    getAccessToken: async (providerId) =>
      (await import("./lib/access-token.js")).getAccessTokenAction(
        await load(undefined),
        providerId,
      ),
    actionRunner: async () => (await sessionActions()).actionRunnerAction(await load(undefined)),
    // `passkeys.list()`, `.rename()` and `.delete()`: each call reads the request's headers
    // then, as `auth()` does, through a runner from the lazily loaded sessions module.
    passkeys: passkeysApi(async (call) =>
      (await (await sessionActions()).actionRunnerAction(await load(undefined)))(call),
    ),
  };
}

export { NextAuth };
