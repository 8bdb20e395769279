/**
 * Revocation of JWT sessions (opt-in: `jwt: { revocation: store }`). A JWT cannot be recalled
 * once issued, so a revoked session's id goes on a denylist in a shared store until the token
 * would expire anyway, and every session read looks it up.
 *
 * The id is the token's `sid` claim, which Tessera adds at sign-in while revocation is on and
 * which survives every re-issue of the cookie (the claims are carried over); a token without one
 * (issued before revocation was turned on, or by Auth.js) is known by its `jti`, which a re-issue
 * replaces. A `jwt` callback that sets `sid` itself (say, to the provider's session id) chooses
 * the id.
 */
import type { Awaitable } from "../../adapters.js";
import { AdapterError } from "../../errors.js";
import type { JWT, JWTDecodeParams, LoggerInstance } from "../../types.js";
import { sessionEnded } from "../crypto/jwe.js";
import { BoundedExpiringMap } from "../store/bounded-map.js";
import type { SharedStore } from "../store/shared-store.js";

/** How long a "not revoked" answer is trusted by default: see {@link isJwtSessionRevoked}. */
export const DEFAULT_REVOCATION_CACHE_SECONDS = 1;

/** Session ids found not revoked, per store, with the time they must be asked about again. */
const notRevoked = new WeakMap<SharedStore, BoundedExpiringMap<true>>();

function checkedIds(store: SharedStore): BoundedExpiringMap<true> {
  let ids = notRevoked.get(store);
  if (!ids) {
    ids = new BoundedExpiringMap<true>(50_000);
    notRevoked.set(store, ids);
  }
  return ids;
}

/** Store key of a user's cut-off: their sessions that started before it are revoked. */
function userCutoffKey(userId: string): string {
  return `tessera:jwt-user-revoked:${userId}`;
}

/** Store key of a revoked session id. */
function denylistKey(sessionId: string): string {
  return `tessera:jwt-revoked:${sessionId}`;
}

/**
 * The revocation id of a JWT session: its `sid`, else its `jti`; undefined when it has neither.
 *
 * @example
 * ```ts
 * jwtSessionId({ sid: "2b7…", jti: "9f1…" }) // "2b7…"
 * ```
 */
export function jwtSessionId(token: JWT | null | undefined): string | undefined {
  if (typeof token?.sid === "string" && token.sid !== "") return token.sid;
  if (typeof token?.jti === "string" && token.jti !== "") return token.jti;
  return undefined;
}

/**
 * Revokes the JWT session `sessionId` (see {@link jwtSessionId}) until `expiresAt` (a `Date`, or
 * seconds since the epoch; default: 30 days from now, the default `session.maxAge`): every read
 * of a cookie carrying it answers "signed out" from then on. Pass the store configured as
 * `jwt.revocation`. Returns false when the session was revoked already.
 *
 * Keep the entry for your `session.maxAge` from now, not until the `exp` of the token you hold:
 * a copy of the cookie re-issued earlier (a read past `updateAge`, a `POST /session`) carries the
 * same id with a later `exp`, and would read as a live session once the entry expired.
 *
 * @example
 * ```ts
 * import { jwtSessionId, revokeJwtSession } from "@tessera/core"
 * const maxAge = 30 * 24 * 60 * 60 // your session.maxAge
 * await revokeJwtSession(store, jwtSessionId(token)!, new Date(Date.now() + maxAge * 1000))
 * ```
 */
export async function revokeJwtSession(
  store: SharedStore,
  sessionId: string,
  expiresAt?: Date | number,
): Promise<boolean> {
  const endMs =
    expiresAt instanceof Date
      ? expiresAt.getTime()
      : typeof expiresAt === "number"
        ? expiresAt * 1000
        : Date.now() + 30 * 24 * 60 * 60 * 1000;
  // This instance sees its own revocations at once, whatever it remembered as not revoked.
  checkedIds(store).delete(sessionId);
  // Kept a minute past the end: a clock a little behind must not let the token back in.
  const ttlSeconds = Math.max(1, Math.ceil((endMs - Date.now()) / 1000) + 60);
  return store.add(denylistKey(sessionId), "1", ttlSeconds);
}

/**
 * Whether the session of `token` was revoked in `store`. A token without an id cannot be
 * revoked and is never denied. A "not revoked" answer is remembered for `cacheSeconds` (default
 * 1 s) by this process, so a burst of requests with one cookie (a page, its API calls) costs one
 * store lookup: a revocation made on another instance takes effect here within that time, one
 * made on this instance at once. `cacheSeconds: 0` asks the store on every read.
 *
 * @example
 * ```ts
 * if (await isJwtSessionRevoked(store, payload)) return signedOut()
 * ```
 */
export async function isJwtSessionRevoked(
  store: SharedStore,
  token: JWT,
  cacheSeconds = DEFAULT_REVOCATION_CACHE_SECONDS,
): Promise<boolean> {
  const sessionId = jwtSessionId(token);
  if (sessionId === undefined) return false;
  const ids = cacheSeconds > 0 ? checkedIds(store) : undefined;
  const now = Date.now();
  if (ids?.get(sessionId, now)) return false;
  const [denied, cutoff] = await Promise.all([
    store.get(denylistKey(sessionId)),
    typeof token.sub === "string" ? store.get(userCutoffKey(token.sub)) : null,
  ]);
  // A session from before the user's cut-off (a password reset) is over; one without a start
  // time was issued before cut-offs existed, so before any cut-off too.
  const started = typeof token.sst === "number" ? token.sst : 0;
  const revoked = denied !== null || (cutoff !== null && started < Number(cutoff));
  if (!revoked) ids?.set(sessionId, true, now + cacheSeconds * 1000, now);
  return revoked;
}

/**
 * Revokes every JWT session of `userId` that started before now (a password reset: whoever knew
 * the old password must be signed out everywhere), for `maxAgeSeconds` (your `session.maxAge`).
 * Sessions issued from now on are not affected. Another instance sees it within its
 * `revocationCacheSeconds`.
 *
 * @example
 * ```ts
 * await revokeUserJwtSessions(store, user.id, 30 * 24 * 60 * 60)
 * ```
 */
export async function revokeUserJwtSessions(
  store: SharedStore,
  userId: string,
  maxAgeSeconds: number,
): Promise<void> {
  const key = userCutoffKey(userId);
  // Replaced, not added: a later reset moves the cut-off forward.
  await store.delete(key);
  await store.add(key, String(Date.now()), Math.max(1, Math.ceil(maxAgeSeconds) + 60));
  // This instance forgets what it found not revoked: the cut-off applies here at once.
  notRevoked.delete(store);
}

/**
 * The denylist's verdict on `token`: `ended` when its session was revoked in `store`,
 * `unavailable` (after telling `onUnavailable` why) when the store could not be read.
 *
 * @example
 * ```ts
 * const verdict = await denylistVerdict(store, payload, 1, (cause) => logger.error(cause))
 * ```
 */
export function denylistVerdict(
  store: SharedStore,
  token: JWT,
  cacheSeconds: number | undefined,
  onUnavailable: (cause: unknown) => void,
): Promise<"valid" | "ended" | "unavailable"> {
  return isJwtSessionRevoked(store, token, cacheSeconds).then(
    (revoked) => (revoked ? "ended" : "valid"),
    (cause: unknown) => {
      onUnavailable(cause);
      return "unavailable";
    },
  );
}

/** What {@link readJwtToken} needs: `getToken`'s options, resolved. */
export interface JwtTokenRead {
  token: string;
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>;
  secret: string | string[];
  salt: string;
  maxAge: number | undefined;
  revocation: SharedStore | undefined;
  revocationCacheSeconds: number | undefined;
  logger: Pick<LoggerInstance, "error">;
}

/**
 * `getToken`'s read of a session token outside the pipeline: decoded, and with a revocation store
 * checked by {@link denylistVerdict}, the rule the session read's gate applies too (fail closed:
 * while the store cannot be read, the token is refused and the error logged). Null when the
 * token does not decode (logged) or its session was revoked. It lives here, not beside the
 * session read in jwt-cookie.ts, so that `@tessera/core/jwt` loads no back-channel or refresh
 * code.
 *
 * @example
 * ```ts
 * const payload = await readJwtToken({ token, decode, secret, salt, maxAge, revocation, revocationCacheSeconds, logger })
 * ```
 */
export async function readJwtToken(read: JwtTokenRead): Promise<JWT | null> {
  const { token, secret, salt, maxAge, revocation, logger } = read;
  let payload: JWT | null;
  try {
    payload = await read.decode({ token, secret, salt, maxAge });
  } catch (error) {
    logger.error(error as Error);
    return null;
  }
  // A session with a hard end (an impersonation) is over then, as the session read says too.
  if (!payload || sessionEnded(payload)) return null;
  if (!revocation) return payload;
  const verdict = await denylistVerdict(revocation, payload, read.revocationCacheSeconds, (cause) =>
    logger.error(
      new AdapterError(
        "getToken: the revocation store could not be read, so the token was refused. Check the store's connection.",
        { cause },
      ),
    ),
  );
  return verdict === "valid" ? payload : null;
}
