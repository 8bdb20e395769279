/**
 * `getServerSession` in its three v4 call shapes: `(req, res, options)` in `getServerSideProps`
 * and API routes, and `(options)` in server components, route handlers and server actions. Each
 * reads the session through `@tessera/next`'s `auth()`, which runs the core's session action
 * in-process.
 */
import type { ServerResponse } from "node:http";
import type { NodeRequestLike, NodeResponseLike } from "@tessera/next/types";
import type { AuthOptions, Session } from "../types.js";
import { preparedFor } from "./options.js";

/** A Pages Router request: `getServerSideProps`'s `context.req` or an API route's `req`. */
export type ServerSessionRequest = NodeRequestLike;
/** A Pages Router response, onto which a refreshed session cookie is appended. */
export type ServerSessionResponse = NodeResponseLike | ServerResponse;

/** The session as the app's `session` callback shapes it (`Session` by default). */
export type ServerSession<O extends AuthOptions> = O["callbacks"] extends {
  session: (...args: never[]) => infer R;
}
  ? Awaited<R>
  : Session;

/**
 * The signed-in user's session, or `null`. In `getServerSideProps` and API routes pass the
 * request, the response (a refreshed session cookie is written to it) and your options; in the
 * App Router pass only the options.
 *
 * @example
 * ```ts
 * export const getServerSideProps: GetServerSideProps = async ({ req, res }) => {
 *   const session = await getServerSession(req, res, authOptions)
 *   return session ? { props: { session } } : { redirect: { destination: "/api/auth/signin", permanent: false } }
 * }
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
    const [req, res, options] = args as [NodeRequestLike, NodeResponseLike, AuthOptions];
    return nonEmpty(await preparedFor(options).instance.auth(req, res));
  }
  const options = args[0] as AuthOptions | undefined;
  if (!options)
    throw new TypeError(
      "getServerSession() needs your options: call getServerSession(authOptions) (App Router) or getServerSession(req, res, authOptions) (Pages Router).",
    );
  return nonEmpty(await preparedFor(options).instance.auth());
}

/** v4 answers `null` for a session with no fields, as its `/session` route answers `{}`. */
function nonEmpty(session: unknown): unknown {
  if (session === null || typeof session !== "object") return null;
  return Object.keys(session).length === 0 ? null : session;
}
