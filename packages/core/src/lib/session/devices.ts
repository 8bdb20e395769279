/**
 * A user's database sessions as devices: list them, revoke one, revoke all but the current one.
 *
 * A listed session is named by an opaque handle, never its token (the token is the credential
 * the cookie carries): the handle is an HMAC of the token under the first secret, so it can be
 * recomputed from the token but the token cannot be recovered from it, and revoking by handle
 * needs no adapter method beyond `listSessionsByUserId` (the user's sessions are listed and the
 * one whose handle matches is deleted). Rotating the first secret changes every handle, which
 * only means a list fetched before the rotation must be fetched again.
 */
import type { Adapter, AdapterSession, AdapterUser } from "../../adapters.js";
import type { Cookie } from "../../types.js";
import { requireAdapter, supportsSessionListing } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import { base64url, timingSafeEqual, utf8 } from "../crypto/encoding.js";
import { clearChunkedCookie, readChunkedCookie } from "../http/cookies.js";
import { deviceName } from "./device-name.js";

/** One entry of `GET <basePath>/sessions`. Dates are ISO 8601; unknown fields are null. */
export interface ListedSession {
  /** Opaque handle of the session, for `POST <basePath>/sessions/revoke` (not its token). */
  id: string;
  /** True for the session of the request's own cookie. */
  current: boolean;
  expires: string;
  createdAt: string | null;
  lastSeenAt: string | null;
  ip: string | null;
  userAgent: string | null;
  /** The device as people name it, read from `userAgent` ("Chrome on Linux"); null if unknown. */
  device: string | null;
}

/** Longest User-Agent stored: headers are client-chosen, storage is not free. */
export const MAX_USER_AGENT_LENGTH = 512;

/** Handle keys by secret; the secrets of a config rarely change, so this stays tiny. */
const handleKeys = new Map<string, Promise<CryptoKey>>();

function handleKey(secret: string): Promise<CryptoKey> {
  let key = handleKeys.get(secret);
  if (!key) {
    if (handleKeys.size >= 16) handleKeys.clear();
    key = crypto.subtle.importKey(
      "raw",
      utf8(`tessera session handle\0${secret}`),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    handleKeys.set(secret, key);
  }
  return key;
}

/**
 * The opaque handle of a session token: HMAC-SHA-256 under the first secret, 128 bits, base64url.
 *
 * @example
 * ```ts
 * const id = await sessionHandle(config.secrets, sessionToken) // "q3I0…" (22 characters)
 * ```
 */
export async function sessionHandle(secrets: readonly string[], token: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await handleKey(secrets[0] ?? ""), utf8(token));
  return base64url(new Uint8Array(mac, 0, 16));
}

/**
 * The device metadata to store with a new session, for adapters that read it back (see
 * `SessionMetadata` in adapters.ts); empty for the others, so an Auth.js adapter that passes the
 * whole object to its database never receives fields it has no column for.
 */
export function newSessionMetadata(ctx: AuthContext, now: Date): Partial<AdapterSession> {
  if (!supportsSessionListing(ctx.config)) return {};
  const userAgent = ctx.request.headers.get("user-agent");
  return {
    createdAt: now,
    lastSeenAt: now,
    ip: ctx.request.clientIp ?? null,
    userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT_LENGTH) : null,
  };
}

/** The signed-in user's current database session, or null when signed out. */
interface CurrentSession {
  token: string;
  session: AdapterSession;
  user: AdapterUser;
}

async function currentSession(
  ctx: AuthContext,
  adapter: Required<Adapter>,
): Promise<CurrentSession | null> {
  const token = readChunkedCookie(ctx.request.cookies, ctx.cookies.sessionToken.name);
  if (!token) return null;
  const found = await adapter.getSessionAndUser(token);
  if (!found || found.session.expires.valueOf() <= Date.now()) return null;
  return { token, ...found };
}

function isoOrNull(value: Date | null | undefined): string | null {
  return value instanceof Date ? value.toISOString() : null;
}

/**
 * The signed-in user's live sessions, the current one first, then the most recently seen; null
 * when the request has no live session.
 *
 * @example
 * ```ts
 * const sessions = await listUserSessions(ctx) // [{ id, current: true, … }, …]
 * ```
 */
export async function listUserSessions(ctx: AuthContext): Promise<ListedSession[] | null> {
  const adapter = requireAdapter(ctx.config, "Session listing");
  const current = await currentSession(ctx, adapter);
  if (!current) return null;
  const sessions = await adapter.listSessionsByUserId(current.user.id);
  const listed = await Promise.all(
    sessions.map(async (session) => ({
      id: await sessionHandle(ctx.config.secrets, session.sessionToken),
      current: session.sessionToken === current.token,
      expires: session.expires.toISOString(),
      createdAt: isoOrNull(session.createdAt),
      lastSeenAt: isoOrNull(session.lastSeenAt),
      ip: session.ip ?? null,
      userAgent: session.userAgent ?? null,
      device: deviceName(session.userAgent),
    })),
  );
  const seen = (entry: ListedSession) => entry.lastSeenAt ?? entry.createdAt ?? "";
  return listed.sort(
    (a, b) => Number(b.current) - Number(a.current) || seen(b).localeCompare(seen(a)),
  );
}

/** Which sessions {@link revokeUserSessions} ends. */
export type RevocationTarget = { id: string } | { others: true };

/** What {@link revokeUserSessions} did: how many sessions ended, and cookies to set. */
export interface Revocation {
  revoked: number;
  /** The cleared session cookie, when the current session was among the revoked. */
  cookies: Cookie[];
}

/**
 * Ends sessions of the signed-in user: the one with handle `id` (the current one included: that
 * is "sign out this device") or every one but the current. Fires `signOut` and `sessionRevoked`
 * for each. Returns null when the request has no live session; an unknown handle revokes nothing
 * (it may have been revoked already), and a handle of another user's session never matches.
 *
 * @example
 * ```ts
 * const { revoked } = (await revokeUserSessions(ctx, { others: true })) ?? { revoked: 0 }
 * ```
 */
export async function revokeUserSessions(
  ctx: AuthContext,
  target: RevocationTarget,
): Promise<Revocation | null> {
  const { config } = ctx;
  const adapter = requireAdapter(config, "Session revocation");
  const current = await currentSession(ctx, adapter);
  if (!current) return null;
  const sessions = await adapter.listSessionsByUserId(current.user.id);
  const doomed: AdapterSession[] = [];
  for (const session of sessions) {
    if ("others" in target) {
      if (session.sessionToken !== current.token) doomed.push(session);
      continue;
    }
    // Handles are compared in constant time: response times must not help guess one.
    const handle = await sessionHandle(config.secrets, session.sessionToken);
    if (timingSafeEqual(handle, target.id)) doomed.push(session);
  }
  let revoked = 0;
  let endsCurrent = false;
  for (const session of doomed) {
    const deleted = await adapter.deleteSession(session.sessionToken);
    revoked += 1;
    if (session.sessionToken === current.token) endsCurrent = true;
    const ended = deleted ?? session;
    await config.events.signOut?.({ session: ended });
    await config.events.sessionRevoked?.({ userId: current.user.id, session: ended });
  }
  // Extensions end what they keep per browser too (two-factor: trusted devices).
  if ("others" in target)
    for (const hook of config.signedOutElsewhere) await hook(ctx, current.user.id);
  const cookies = endsCurrent
    ? clearChunkedCookie(ctx.request.cookies, ctx.cookies.sessionToken)
    : [];
  return { revoked, cookies };
}
