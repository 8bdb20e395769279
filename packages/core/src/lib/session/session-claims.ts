/**
 * The sign-in claims of a database session (how and when its user authenticated), which a
 * session row has no column for: kept in the shared store under a hash of the session token (the
 * store never holds a token), for as long as the session may live. Only configs whose extensions
 * show such claims (`sessionFields`) write or read them.
 */
import type { ResolvedConfig } from "../config/internal.js";
import { sha256Hex } from "../crypto/encoding.js";
import { sharedStoreOf } from "./rate-limit.js";

async function claimsKey(sessionToken: string): Promise<string> {
  return `tessera:session-claims:${await sha256Hex(`tessera.session-claims\0${sessionToken}`)}`;
}

/**
 * Keeps `claims` for the database session `sessionToken` for `ttlSeconds` (replacing earlier
 * ones, as step-up does).
 *
 * @example
 * ```ts
 * await storeSessionClaims(config, session.sessionToken, { amr: ["pwd"] }, config.session.maxAge)
 * ```
 */
export async function storeSessionClaims(
  config: ResolvedConfig,
  sessionToken: string,
  claims: Record<string, unknown>,
  ttlSeconds: number,
): Promise<void> {
  if (config.sessionFields.length === 0) return;
  const store = sharedStoreOf(config);
  const key = await claimsKey(sessionToken);
  await store.delete(key);
  await store.add(key, JSON.stringify(claims), Math.max(1, Math.ceil(ttlSeconds)));
}

/** The claims kept for `sessionToken`, or null (none, or unreadable). */
export async function readSessionClaims(
  config: ResolvedConfig,
  sessionToken: string,
): Promise<Record<string, unknown> | null> {
  if (config.sessionFields.length === 0) return null;
  const value = await sharedStoreOf(config).get(await claimsKey(sessionToken));
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "object" && parsed !== null
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
