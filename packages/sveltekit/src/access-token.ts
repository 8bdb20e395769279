/**
 * `getAccessToken` for load functions, form actions and endpoints: the core's `getAccessToken`,
 * run in-process with the event's request; a JWT session refreshed by the call has its cookie
 * re-issued through `event.cookies`.
 */
import type { RequestEvent } from "@sveltejs/kit";
import { type AccessToken, getAccessToken } from "@tessera/core";
import type { PreparedConfig } from "./config.js";
import { setCookies } from "./cookies.js";

/** The signed-in user's access token at `providerId`, refreshed when due; `null` without one. */
export function accessTokenOf(
  event: RequestEvent,
  prepared: PreparedConfig,
  providerId: string,
): Promise<AccessToken | null> {
  return getAccessToken(event.request, prepared.config, providerId, {
    onCookies: (cookies) => setCookies(event.cookies, cookies),
  });
}
