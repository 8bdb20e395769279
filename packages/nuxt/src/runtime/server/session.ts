/**
 * `getServerSession(event)`: the session of an h3 event, read through the core's in-process
 * session action; `serverPasskeys(event)` and `serverActionRunner(event)`: the other server
 * functions, through the same in-process runner. Auto-imported in `server/` code.
 */
import {
  type ActionRunner,
  actionRunner,
  type Cookie,
  type PasskeysApi,
  passkeysApi,
  readSession as readSessionInProcess,
  type Session,
} from "@tessera/core";
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
  setCookies(event, cookies);
  return session;
}

/** Puts `cookies` on `event`'s response while it is still open. */
function setCookies(event: H3Event, cookies: readonly Cookie[]): void {
  if (event.node.res.headersSent) return;
  for (const { name, value, options } of cookies)
    setCookie(event, name, value, { ...options, path: options.path ?? "/" });
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

/**
 * Runs actions in-process for `event`'s request (cookies set on its response): the runner an
 * extension's server functions take, so every extension works in Nuxt without code of its own
 * here. Call its state-changing functions from routes your app protects against CSRF.
 *
 * @example
 * ```ts
 * // server/api/two-factor.get.ts
 * import { twoFactorApi } from "@tessera/core/two-factor"
 * export default defineEventHandler((event) => twoFactorApi(serverActionRunner(event)).status())
 * ```
 */
export function serverActionRunner(event: H3Event): ActionRunner {
  const clientIp = getRequestIP(event);
  return actionRunner(
    { url: getRequestURL(event), headers: event.headers },
    preparedConfig().config,
    {
      ...(clientIp && { clientIp }),
      onCookies: (cookies) => setCookies(event, cookies),
    },
  );
}

/**
 * The signed-in user's passkeys for `event`'s request: `list()` resolves with
 * `{ passkeys, signals }` or `null` when signed out; `rename(id, name)` and `delete(id)` with the
 * passkeys after the change, `null` when the user has no passkey with that id (another user's
 * included). They ask for no CSRF token: call them from routes your app protects against CSRF.
 * Throws an `AuthError` when the config cannot manage passkeys.
 *
 * @example
 * ```ts
 * // server/api/passkeys.get.ts
 * export default defineEventHandler((event) => serverPasskeys(event).list())
 * ```
 */
export function serverPasskeys(event: H3Event): PasskeysApi {
  return passkeysApi(serverActionRunner(event));
}
