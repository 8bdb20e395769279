/**
 * Tessera with next-auth v4's API: an app written for `next-auth@4` moves by replacing
 * `next-auth` with `@tessera/next-auth` in its imports. Sessions carry over both ways: the
 * cookies are v4's (names, JWE, CSRF), so nobody is signed out by the switch or by a rollback.
 *
 * @example
 * ```ts
 * // pages/api/auth/[...nextauth].ts
 * import NextAuth, { type NextAuthOptions } from "@tessera/next-auth"
 * import GitHubProvider from "@tessera/next-auth/providers/github"
 *
 * export const authOptions: NextAuthOptions = {
 *   providers: [GitHubProvider({ clientId: "…", clientSecret: "…" })],
 * }
 * export default NextAuth(authOptions)
 * ```
 */
import type { ServerResponse } from "node:http";
import { type ApiRequestLike, handlePagesRequest, handleRouteRequest } from "./lib/handler.js";
import type { AuthOptions } from "./types.js";

export {
  getServerSession,
  type ServerSession,
  type ServerSessionRequest,
  type ServerSessionResponse,
} from "./lib/server-session.js";
export type {
  Account,
  AdapterUser,
  AuthOptions,
  Awaitable,
  CallbacksOptions,
  CredentialInput,
  DefaultSession,
  DefaultUser,
  EventCallbacks,
  ISODateString,
  NextAuthOptions,
  PagesOptions,
  Profile,
  ProviderType,
  Session,
  SessionOptions,
  SessionStrategy,
  Theme,
  User,
} from "./types.js";

/** What `NextAuth(options)` returns: one handler for both routers. */
export type NextAuthHandler = {
  (req: ApiRequestLike, res: ServerResponse): Promise<void>;
  (request: Request, context?: unknown): Promise<Response>;
};

function isFetchRequest(value: unknown): value is Request {
  if (value instanceof Request) return true;
  const candidate = value as { url?: unknown; headers?: { get?: unknown } } | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.url === "string" &&
    typeof candidate.headers?.get === "function"
  );
}

function dispatch(req: unknown, res: unknown, options: AuthOptions): Promise<unknown> {
  // A Fetch request (App Router) has `headers.get`; a Node request (Pages Router) a header record.
  if (isFetchRequest(req)) return handleRouteRequest(req, options);
  return handlePagesRequest(req as ApiRequestLike, res as ServerResponse, options);
}

/**
 * The handler of `/api/auth/*`, as next-auth v4's `NextAuth`: `NextAuth(options)` returns a
 * handler for a Pages Router API route (`export default`) and an App Router route handler
 * (`export { handler as GET, handler as POST }`); `NextAuth(req, res, options)` answers at once.
 *
 * @example
 * ```ts
 * // app/api/auth/[...nextauth]/route.ts
 * import NextAuth from "@tessera/next-auth"
 * import { authOptions } from "@/auth"
 *
 * const handler = NextAuth(authOptions)
 * export { handler as GET, handler as POST }
 * ```
 */
function NextAuth(options: AuthOptions): NextAuthHandler;
function NextAuth(req: ApiRequestLike, res: ServerResponse, options: AuthOptions): Promise<void>;
function NextAuth(request: Request, context: unknown, options: AuthOptions): Promise<Response>;
function NextAuth(...args: unknown[]): unknown {
  if (args.length === 1) {
    const options = args[0] as AuthOptions;
    return (req: unknown, res: unknown) => dispatch(req, res, options);
  }
  return dispatch(args[0], args[1], args[2] as AuthOptions);
}

export default NextAuth;
export { NextAuth };
