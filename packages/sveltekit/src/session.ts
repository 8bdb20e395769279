/** `locals.auth()`: the session of the current request, read through the core's session action. */
import type { RequestEvent } from "@sveltejs/kit";
import { readSession as readSessionInProcess, type Session } from "@tessera/core";
import { actionUrl, type PreparedConfig } from "./config.js";
import { setCookies } from "./cookies.js";

/**
 * Runs the session action in-process (`callAction`) with the request's cookies. A re-issued session cookie (rolling
 * expiry) is set on `event.cookies` while the response is still open.
 */
export async function readSession(
  event: RequestEvent,
  prepared: PreparedConfig,
): Promise<Session | null> {
  const { session, cookies } = await readSessionInProcess(prepared.raw, {
    url: actionUrl(event.url, prepared, "session"),
    cookies: event.request.headers.get("cookie") ?? "",
  });
  try {
    setCookies(event.cookies, cookies);
  } catch {
    // Called after the response was sent (e.g. from a streamed promise): the session is still
    // valid, only its refreshed cookie cannot be delivered on this response.
  }
  return session;
}
