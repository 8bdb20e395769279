/** `locals.auth()`: the session of the current request, read through the core's session action. */
import type { RequestEvent } from "@sveltejs/kit";
import { Auth, type Session } from "@tessera/core";
import { AuthError } from "@tessera/core/errors";
import { actionUrl, type PreparedConfig } from "./config.js";
import { setCookies } from "./cookies.js";

/**
 * Runs `GET <basePath>/session` with the request's cookies. A re-issued session cookie (rolling
 * expiry) is set on `event.cookies` while the response is still open.
 */
export async function readSession(
  event: RequestEvent,
  prepared: PreparedConfig,
): Promise<Session | null> {
  const cookie = event.request.headers.get("cookie");
  const request = new Request(
    actionUrl(event.url, prepared, "session"),
    cookie ? { headers: { cookie } } : undefined,
  );
  const internal = await Auth(request, prepared.raw);
  if ((internal.status ?? 200) !== 200)
    throw new AuthError(
      "Reading the session failed because the auth configuration is invalid; the server log names the cause.",
    );
  try {
    setCookies(event.cookies, internal.cookies);
  } catch {
    // Called after the response was sent (e.g. from a streamed promise): the session is still
    // valid, only its refreshed cookie cannot be delivered on this response.
  }
  return (internal.body as Session | null | undefined) ?? null;
}
