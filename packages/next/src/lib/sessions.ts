/**
 * `listSessions`, `revokeSession`, `revokeOtherSessions` and `actionRunner` (which `passkeys`
 * runs on) for server components and server actions: the core's actions, run in-process with the
 * incoming request's headers.
 *
 * Next.js gives server code no client IP it can vouch for (`x-forwarded-for` is whatever the
 * client or the nearest proxy wrote), so sessions record an IP address, and rate limits count per
 * IP, only when the app names one with the `clientIp` option (the route handlers pass it).
 */
import {
  type ActionRunner,
  actionRunner,
  type ListedSession,
  listSessions,
  revokeOtherSessions,
  revokeSession,
  type SessionRevocationResult,
} from "@tessera/core";
import { headers as nextHeaders } from "next/headers";
import type { ConfigVariants } from "./config.js";
import { writeCookies } from "./cookies.js";
import { actionUrl } from "./session.js";

async function incoming(variants: ConfigVariants) {
  const headers = new Headers(await nextHeaders());
  return { url: actionUrl("sessions", headers, variants), headers };
}

async function revoked(result: Promise<SessionRevocationResult>): Promise<number> {
  const { revoked, cookies } = await result;
  // Revoking the current session signs this browser out: its cookie is cleared.
  await writeCookies(cookies);
  return revoked;
}

/** The signed-in user's sessions, the current one first; `null` when signed out. */
export async function listSessionsAction(
  variants: ConfigVariants,
): Promise<ListedSession[] | null> {
  return listSessions(await incoming(variants), variants.routes);
}

/** Ends the signed-in user's session `id`; returns how many ended (0 for an unknown id). */
export async function revokeSessionAction(variants: ConfigVariants, id: string): Promise<number> {
  return revoked(revokeSession(await incoming(variants), variants.routes, id));
}

/** Ends every session of the signed-in user but the current one; returns how many ended. */
export async function revokeOtherSessionsAction(variants: ConfigVariants): Promise<number> {
  return revoked(revokeOtherSessions(await incoming(variants), variants.routes));
}

/**
 * Runs actions in-process with the incoming request's headers, writing each answer's cookies
 * (best effort: a server component cannot set cookies, a server action or route handler can).
 */
export async function actionRunnerAction(variants: ConfigVariants): Promise<ActionRunner> {
  return actionRunner(await incoming(variants), variants.routes, {
    onCookies: (cookies) => writeCookies(cookies, true),
  });
}
