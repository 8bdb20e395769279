/**
 * "Don't ask again on this browser": a sealed cookie that lets a sign-in of its user skip the
 * challenge for a while. It names the user and the factor it was earned with, so it stops
 * working when the factor is turned off or replaced; and it is refused when issued before the
 * user's trust epoch, which `forgetTrustedDevices` moves (after a password change, or "sign out
 * everywhere"). The epoch lives in the shared store, so every instance sees it.
 */
import type { AuthContext } from "../../lib/config/internal.js";
import {
  decodeSessionToken,
  encodeSessionToken,
  sharedSessionTokenCache,
} from "../../lib/crypto/jwe.js";
import { readChunkedCookie, writeChunkedCookie } from "../../lib/http/cookies.js";
import { sharedStoreOf } from "../../lib/session/rate-limit.js";
import type { Cookie, CookieOption } from "../../types.js";
import type { TwoFactorRecord } from "./storage.js";

interface TrustClaims {
  /** The user the browser was trusted for. */
  sub: string;
  /** When the factor it was earned with was activated (ms): another factor, another trust. */
  factor: number;
  iat?: number;
}

function trustCookie(ctx: AuthContext): CookieOption {
  return {
    name: `${ctx.secureCookies ? "__Secure-" : ""}authjs.two-factor-trust`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure: ctx.secureCookies },
  };
}

const epochKey = (userId: string) => `tessera:two-factor:trust-epoch:${userId}`;

/** The cookie that trusts this browser for `record`'s user for `maxAge` seconds. */
export async function trustThisDevice(
  ctx: AuthContext,
  record: TwoFactorRecord,
  maxAge: number,
): Promise<Cookie[]> {
  if (!record.enabledAt) return [];
  const option = trustCookie(ctx);
  const claims: TrustClaims = { sub: record.userId, factor: record.enabledAt.getTime() };
  const sealed = await encodeSessionToken(
    { token: claims, secret: ctx.config.secrets, salt: option.name, maxAge },
    sharedSessionTokenCache,
  );
  const expires = new Date(Date.now() + maxAge * 1000);
  return writeChunkedCookie(ctx.request.cookies, option, sealed, { expires });
}

/**
 * Whether this browser holds a trust cookie for `record`'s user and factor, issued after the
 * user's trust epoch. Another user's cookie (or one sealed with another secret) is no trust.
 */
export async function isTrustedDevice(
  ctx: AuthContext,
  record: TwoFactorRecord,
  maxAge: number,
): Promise<boolean> {
  if (!record.enabledAt) return false;
  const option = trustCookie(ctx);
  const token = readChunkedCookie(ctx.request.cookies, option.name);
  if (!token) return false;
  let claims: TrustClaims | null;
  try {
    claims = await decodeSessionToken<TrustClaims>(
      { token, secret: ctx.config.secrets, salt: option.name, maxAge },
      sharedSessionTokenCache,
    );
  } catch {
    return false;
  }
  // A trust cookie of another user, or earned with a factor since turned off or replaced.
  if (!claims || claims.sub !== record.userId || claims.factor !== record.enabledAt.getTime())
    return false;
  const epoch = await sharedStoreOf(ctx.config).get(epochKey(record.userId));
  return epoch === null || (claims.iat ?? 0) * 1000 >= Number(epoch);
}

/**
 * Ends the trust of every browser of `userId`: their next sign-in asks for a code again. Kept for
 * `maxAge` seconds, as long as a trust cookie lives.
 */
export async function forgetTrustedDevices(
  ctx: AuthContext,
  userId: string,
  maxAge: number,
): Promise<void> {
  const store = sharedStoreOf(ctx.config);
  await store.delete(epochKey(userId));
  // From the next whole second (`iat` counts seconds): a cookie issued in this one is not trusted.
  await store.add(epochKey(userId), String(Math.floor(Date.now() / 1000) * 1000 + 1000), maxAge);
}
