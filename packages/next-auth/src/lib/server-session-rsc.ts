/**
 * `getServerSession` for the App Router: `getServerSession(options)` reads the request through
 * `next/headers` (server components, route handlers, server actions); the Pages Router shape
 * `(req, res, options)` works here too. Next.js loads this module through the `react-server`
 * export condition, the only place where `next/headers` may be imported.
 */
import { cookies as nextCookies, headers as nextHeaders } from "next/headers";
import type { AuthOptions } from "../types.js";
import {
  type ServerSession,
  type ServerSessionRequest,
  type ServerSessionResponse,
  sessionOfNodeRequest,
} from "./server-session.js";
import { readSession } from "./session-read.js";

/**
 * The signed-in user's session, or `null`, in every v4 call shape. A re-issued session cookie is
 * written where Next.js lets code set cookies (route handlers and server actions); a server
 * component cannot, and the next request that can carries it.
 *
 * @example
 * ```ts
 * // app/page.tsx
 * const session = await getServerSession(authOptions)
 * ```
 */
export function getServerSession<O extends AuthOptions>(
  req: ServerSessionRequest,
  res: ServerSessionResponse,
  options: O,
): Promise<ServerSession<O> | null>;
export function getServerSession<O extends AuthOptions>(
  options: O,
): Promise<ServerSession<O> | null>;
export async function getServerSession(...args: unknown[]): Promise<unknown> {
  if (args.length >= 3) {
    const [req, res, options] = args as [ServerSessionRequest, ServerSessionResponse, AuthOptions];
    return sessionOfNodeRequest(req, res, options);
  }
  const options = args[0] as AuthOptions | undefined;
  if (!options)
    throw new TypeError(
      "getServerSession() needs your options: getServerSession(authOptions) in the App Router, getServerSession(req, res, authOptions) in the Pages Router.",
    );
  const { session, cookies } = await readSession(new Headers(await nextHeaders()), options);
  if (cookies.length > 0) {
    const store = await nextCookies();
    for (const { name, value, options: attributes } of cookies) {
      const { encode: _encode, ...rest } = attributes;
      try {
        store.set(name, value, rest as Parameters<typeof store.set>[2]);
      } catch {
        // Server components cannot set cookies: the session stays valid, its renewal waits.
        break;
      }
    }
  }
  return session;
}
