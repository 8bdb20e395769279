/**
 * Reads the session by running the core's session action in-process (`callAction`), with the
 * cookies of the incoming request. Fails closed: a configuration error, an error response or an exception
 * all mean "no session", never an object that a caller could mistake for one.
 */
import { type Cookie, callAction, createActionURL, type Session } from "@tessera/core";
import type { ConfigVariants } from "./config.js";
import { logError } from "./config.js";

/** The session (or `null`) and the cookies the core wants set (a refreshed session cookie). */
export interface SessionLookup {
  session: Session | null;
  cookies: Cookie[];
}

/**
 * The absolute URL of `action` for a request with `headers`: from `AUTH_URL` when set, else from
 * the `Host`/`X-Forwarded-*` headers (which the core only trusts under `trustHost`).
 */
export function actionUrl(
  action: string,
  headers: Headers,
  variants: ConfigVariants,
  protocol?: string,
): URL {
  const proto = headers.get("x-forwarded-proto") ?? protocol ?? "https:";
  return createActionURL(action, proto, headers, process.env, variants.routes);
}

function isSession(body: unknown): body is Session {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

/**
 * Looks up the session for a request with `headers`.
 *
 * @example
 * ```ts
 * const { session, cookies } = await lookupSession(request.headers, variants, "https:")
 * ```
 */
export async function lookupSession(
  headers: Headers,
  variants: ConfigVariants,
  protocol?: string,
): Promise<SessionLookup> {
  try {
    const url = actionUrl("session", headers, variants, protocol);
    const cookies = headers.get("cookie") ?? "";
    const result = await callAction(variants.data, { action: "session", url, cookies });
    if ((result.status ?? 200) !== 200) return { session: null, cookies: [] };
    return { session: isSession(result.body) ? result.body : null, cookies: result.cookies ?? [] };
  } catch (error) {
    logError(variants.user, error);
    return { session: null, cookies: [] };
  }
}
