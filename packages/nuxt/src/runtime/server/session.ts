/**
 * `getServerSession(event)`: the session of an h3 event, read through the core's in-process
 * session action. Auto-imported in `server/` code.
 */
import { readSession as readSessionInProcess, type Session } from "@tessera/core";
import { getRequestIP, getRequestURL, type H3Event, setCookie } from "h3";
import { preparedConfig } from "./config.js";

/** One read per request: the page's plugin and the app's own calls share it. */
const reads = new WeakMap<H3Event, Promise<Session | null>>();

async function readSession(event: H3Event): Promise<Session | null> {
  const clientIp = getRequestIP(event);
  const { session, cookies } = await readSessionInProcess(preparedConfig().session, {
    url: getRequestURL(event),
    headers: event.headers,
    ...(clientIp && { clientIp }),
  });
  // A re-issued session cookie (rolling expiry) goes on the response while it is still open.
  if (!event.node.res.headersSent)
    for (const { name, value, options } of cookies)
      setCookie(event, name, value, { ...options, path: options.path ?? "/" });
  return session;
}

/**
 * The session of `event`, or `null` when signed out. Throws an `AuthError` when the
 * configuration is invalid (no `AUTH_SECRET`, …); the server log names the cause and the fix.
 *
 * @example
 * ```ts
 * // server/api/me.get.ts
 * export default defineEventHandler(async (event) => {
 *   const session = await getServerSession(event)
 *   if (!session) throw createError({ statusCode: 401 })
 *   return session.user
 * })
 * ```
 */
export function getServerSession(event: H3Event): Promise<Session | null> {
  let read = reads.get(event);
  if (!read) {
    read = readSession(event);
    reads.set(event, read);
  }
  return read;
}
