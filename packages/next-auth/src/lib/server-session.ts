/**
 * `getServerSession(req, res, options)` for `getServerSideProps` and Pages Router API routes: the
 * session of the Node request, with a re-issued session cookie appended to the response. The
 * App Router shape `getServerSession(options)` is in `server-session-rsc.ts`, which Next.js loads
 * for server components and route handlers (the `react-server` export condition): it reads the
 * request through `next/headers`, which Next.js refuses in Pages Router code.
 */
import type { AuthOptions, Session } from "../types.js";
import { readSession, setCookieHeaders } from "./session-read.js";

/** A Pages Router request: `getServerSideProps`'s `context.req` or an API route's `req`. */
export interface ServerSessionRequest {
  headers: Record<string, string | string[] | undefined>;
  /** A TLS socket says the request came over HTTPS (when no proxy sets `X-Forwarded-Proto`). */
  socket?: unknown;
}

/** A Pages Router response, onto which a re-issued session cookie is appended. */
export interface ServerSessionResponse {
  appendHeader?: (name: string, value: string | readonly string[]) => unknown;
  setHeader?: (name: string, value: string | readonly string[]) => unknown;
  getHeader?: (name: string) => unknown;
  headersSent?: boolean;
}

/** The session as the app's `session` callback shapes it (`Session` by default). */
export type ServerSession<O extends AuthOptions> = O["callbacks"] extends {
  session: (...args: never[]) => infer R;
}
  ? Awaited<R>
  : Session;

function nodeHeaders(record: ServerSessionRequest["headers"]): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined || name.startsWith(":")) continue;
    // Cookie headers are joined with "; ", every other repeated header with ", " (RFC 9110 5.3).
    result.set(name, Array.isArray(value) ? value.join(name === "cookie" ? "; " : ", ") : value);
  }
  return result;
}

function appendSetCookie(res: ServerSessionResponse, values: string[]): void {
  if (values.length === 0 || res.headersSent) return;
  if (res.appendHeader) {
    res.appendHeader("Set-Cookie", values);
    return;
  }
  const existing = res.getHeader?.("Set-Cookie");
  const previous = Array.isArray(existing)
    ? existing.map(String)
    : existing
      ? [String(existing)]
      : [];
  res.setHeader?.("Set-Cookie", [...previous, ...values]);
}

/**
 * The session of a Pages Router request, or `null`.
 *
 * @example
 * ```ts
 * const session = await sessionOfNodeRequest(req, res, authOptions)
 * ```
 */
export async function sessionOfNodeRequest(
  req: ServerSessionRequest,
  res: ServerSessionResponse | undefined,
  options: AuthOptions,
): Promise<Record<string, unknown> | null> {
  const socket = req.socket as { encrypted?: unknown } | null | undefined;
  const protocol = socket?.encrypted === true ? "https:" : "http:";
  const { session, cookies } = await readSession(nodeHeaders(req.headers), options, protocol);
  if (res) appendSetCookie(res, setCookieHeaders(cookies));
  return session;
}

/**
 * The signed-in user's session, or `null`. In `getServerSideProps` and API routes pass the
 * request, the response (a re-issued session cookie is written to it) and your options; in the
 * App Router (server components, route handlers, server actions) pass only the options.
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
    const [req, res, options] = args as [ServerSessionRequest, ServerSessionResponse, AuthOptions];
    return sessionOfNodeRequest(req, res, options);
  }
  throw new TypeError(
    "getServerSession(options) reads the request through Next.js's headers(), which only the App Router has (server components, route handlers, server actions). In the Pages Router (getServerSideProps, API routes) call getServerSession(req, res, options).",
  );
}
