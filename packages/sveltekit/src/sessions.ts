/**
 * Session listing and revocation for load functions and form actions: the core's sessions
 * action, run in-process with the event's request, and the client IP SvelteKit's adapter reports.
 */
import type { RequestEvent } from "@sveltejs/kit";
import {
  type ActionRunner,
  actionRunner,
  type ListedSession,
  listSessions,
  revokeOtherSessions,
  revokeSession,
  type SessionRevocationResult,
} from "@tessera/core";
import type { PreparedConfig } from "./config.js";
import { setCookies } from "./cookies.js";

/**
 * The client's address as SvelteKit's adapter reports it (the socket, or the platform's own
 * header), undefined where there is none (prerendering, some adapters throw).
 */
export function clientAddress(event: RequestEvent): string | undefined {
  try {
    return event.getClientAddress() || undefined;
  } catch {
    return undefined;
  }
}

function options(event: RequestEvent) {
  const clientIp = clientAddress(event);
  return clientIp ? { clientIp } : {};
}

async function revoked(event: RequestEvent, result: Promise<SessionRevocationResult>) {
  const { revoked, cookies } = await result;
  // Revoking the current session signs this browser out: its cookie is cleared.
  setCookies(event.cookies, cookies);
  return revoked;
}

/** The signed-in user's sessions, the current one first; `null` when signed out. */
export function listSessionsOf(
  event: RequestEvent,
  prepared: PreparedConfig,
): Promise<ListedSession[] | null> {
  return listSessions(event.request, prepared.config, options(event));
}

/** Ends the signed-in user's session `id`; resolves with how many ended (0 for an unknown id). */
export function revokeSessionOf(
  event: RequestEvent,
  prepared: PreparedConfig,
  id: string,
): Promise<number> {
  return revoked(event, revokeSession(event.request, prepared.config, id, options(event)));
}

/** Ends every session of the signed-in user but the current one; resolves with how many ended. */
export function revokeOtherSessionsOf(
  event: RequestEvent,
  prepared: PreparedConfig,
): Promise<number> {
  return revoked(event, revokeOtherSessions(event.request, prepared.config, options(event)));
}

/**
 * The runner an extension's server functions take (`twoFactorApi(runner)`): the event's request
 * in-process, each answer's cookies set on `event.cookies`.
 */
export function actionRunnerOf(event: RequestEvent, prepared: PreparedConfig): ActionRunner {
  return actionRunner(event.request, prepared.config, {
    ...options(event),
    onCookies: (cookies) => setCookies(event.cookies, cookies),
  });
}
