/**
 * The session as server code reads it: the session action's answer turned into the session (or
 * `null`) and the cookies to set. Every integration's `getSession`/`auth()` reads it this way, so
 * "signed out", "refused" and "misconfigured" mean the same in all of them.
 */
import { AuthError } from "../errors.js";
import type { Cookie, ResponseInternal, Session } from "../types.js";
import { callAction, type InProcessCall } from "./in-process.js";
import type { ConfigOrFactory } from "./pipeline.js";

/** What a session read gives server code. */
export interface SessionRead {
  /** The session, or `null` when signed out. */
  session: Session | null;
  /** Cookies to set on the response: a re-issued session cookie (rolling expiry) or a cleared one. */
  cookies: Cookie[];
}

/**
 * Turns the session action's answer into a {@link SessionRead}. A 400 (a request whose Host or
 * URL cannot be parsed) is nobody's session; any other failure is the configuration's, which the
 * server log names, and throws an `AuthError`.
 *
 * @example
 * ```ts
 * const { session, cookies } = sessionReadOf(await runInProcess(source, config, { action: "session" }))
 * ```
 */
export function sessionReadOf(answer: ResponseInternal): SessionRead {
  const status = answer.status ?? 200;
  const cookies = answer.cookies ?? [];
  if (status === 400) return { session: null, cookies };
  if (status !== 200)
    throw new AuthError(
      `Reading the session failed (the session action answered ${status}); the server log names the cause, most often a missing AUTH_SECRET.`,
    );
  // Signed out is `null`; an empty object counts as signed out too, as some wrappers answered it.
  const body = answer.body as Session | Record<string, never> | null | undefined;
  return { session: body && Object.keys(body).length > 0 ? (body as Session) : null, cookies };
}

/**
 * Reads the session of the request described by `call` (its URL, headers or cookies, client IP)
 * through the in-process session action.
 *
 * @example
 * ```ts
 * const { session, cookies } = await readSession(config, { url: request.url, headers: request.headers })
 * for (const cookie of cookies) response.headers.append("Set-Cookie", serializeCookie(cookie))
 * ```
 */
export async function readSession(
  config: ConfigOrFactory,
  call: Omit<InProcessCall, "action" | "providerId" | "subPath" | "method" | "body" | "query">,
): Promise<SessionRead> {
  return sessionReadOf(await callAction(config, { ...call, action: "session" }));
}
