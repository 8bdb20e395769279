/**
 * Step-up for sensitive account changes (unlinking a sign-in method): the session must have
 * authenticated recently. A session left open on a shared computer, or a stolen cookie, must not
 * be enough to remove a way in.
 */
import type { AuthContext } from "../config/internal.js";
import { readChunkedCookie } from "../http/cookies.js";
import {
  readJwtSession,
  SESSION_ACCOUNT_CLAIM,
  type SessionAccount,
} from "../session/jwt-cookie.js";
import { readSessionClaims } from "../session/session-claims.js";

/**
 * How long after the last authentication a sensitive account change (unlinking a sign-in method)
 * is allowed without authenticating again, in seconds.
 */
export const ACCOUNT_STEP_UP_MAX_AGE = 10 * 60;

/**
 * When the session of `ctx` last authenticated (milliseconds since the epoch), or null when it
 * cannot tell: the `auth_time` claim (written into every JWT session at sign-in, kept for a
 * database session by the two-factor extension, renewed by its step-up), else a database
 * session's creation (a sign-in always creates a new session), else the time of the OAuth
 * sign-in a JWT session issued before `auth_time` existed carries.
 */
export async function lastAuthenticatedAt(ctx: AuthContext): Promise<number | null> {
  const { config, cookies, request } = ctx;
  if (config.session.strategy === "jwt") {
    const token = await readJwtSession(config, request.cookies, cookies.sessionToken, 0);
    if (typeof token === "string") return null;
    if (typeof token.auth_time === "number") return token.auth_time * 1000;
    const account = token[SESSION_ACCOUNT_CLAIM] as SessionAccount | undefined;
    return typeof account?.signedInAt === "number" ? account.signedInAt : null;
  }
  const sessionToken = readChunkedCookie(request.cookies, cookies.sessionToken.name);
  const found = sessionToken ? await config.adapter?.getSessionAndUser(sessionToken) : null;
  if (!sessionToken || !found) return null;
  const claims = await readSessionClaims(config, sessionToken);
  if (typeof claims?.auth_time === "number") return claims.auth_time * 1000;
  return found.session.createdAt instanceof Date ? found.session.createdAt.getTime() : null;
}

/**
 * Step-up: whether the session authenticated within {@link ACCOUNT_STEP_UP_MAX_AGE}. A session
 * left open on a shared computer, or a stolen cookie, must not be enough to remove a way in.
 */
export async function authenticatedRecently(ctx: AuthContext): Promise<boolean> {
  const at = await lastAuthenticatedAt(ctx);
  return at !== null && Date.now() - at <= ACCOUNT_STEP_UP_MAX_AGE * 1000;
}
