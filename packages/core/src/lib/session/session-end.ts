/**
 * A hard end for one session, whatever its strategy and however often it is read: the claim
 * `sxp` (seconds since the epoch), beside `sst` (when the session started). A session that
 * carries it reads as signed out from then on, and is never extended past it. Sessions of a
 * limited purpose (an administrator's impersonation of a user) carry it; ordinary sessions do
 * not, and roll with `updateAge` as before.
 */

/** The claim that ends a session at a fixed time (seconds since the epoch). */
export const SESSION_END_CLAIM = "sxp";

/**
 * The end of the session whose claims are `claims`, in milliseconds since the epoch, or
 * undefined when it has none (a session that rolls on with use).
 *
 * @example
 * ```ts
 * const end = sessionEndOf(token) // 1767225600000
 * ```
 */
export function sessionEndOf(
  claims: Record<string, unknown> | null | undefined,
): number | undefined {
  const end = claims?.[SESSION_END_CLAIM];
  return typeof end === "number" && Number.isFinite(end) ? end * 1000 : undefined;
}

/**
 * Whether the session whose claims are `claims` has passed its hard end.
 *
 * @example
 * ```ts
 * if (sessionEnded(token)) return signedOut()
 * ```
 */
export function sessionEnded(
  claims: Record<string, unknown> | null | undefined,
  now = Date.now(),
): boolean {
  const end = sessionEndOf(claims);
  return end !== undefined && end <= now;
}
