/**
 * E-mail code sign-in (a Tessera addition to Auth.js's e-mail providers): the sign-in e-mail
 * carries a 6-digit code beside the link, and the verify-request page takes the code, for phones
 * and installed web apps whose mail app opens links in another browser than the one waiting.
 *
 * The code works only in the browser where the sign-in started: that browser gets a short-lived
 * cookie holding a random binding id, and the code is kept (hashed with that id) in the shared
 * store under a key derived from it. A code read over someone's shoulder, or phished, is useless
 * without the cookie. The code and the link are one sign-in: the entry holds the stored (hashed)
 * link token, and a right code spends it through `useVerificationToken`, so whichever is used
 * first voids the other. Wrong codes count against the link's own attempt limit
 * (`maxAttempts`, lib/email/attempts.ts), so six digits cannot be guessed either.
 */
import type { Cookie, CookieOption } from "../../types.js";
import type { AuthContext, InternalEmailProvider } from "../config/internal.js";
import { randomHex, sha256Hex, timingSafeEqual } from "../crypto/encoding.js";
import { CHECK_COOKIE_MAX_AGE } from "../http/cookies.js";
import { sharedStoreOf } from "../session/rate-limit.js";

/** What the shared store keeps for one pending code. */
interface PendingCode {
  /** The normalised address the code signs in. */
  identifier: string;
  /** The link's token as the adapter stores it (hashed), spent by a right code. */
  token: string;
  /** sha256 of the binding id and the code. */
  code: string;
}

/** Whether `provider` puts a code in its e-mails: on unless `signInCode: false`. */
export function signInCodeEnabled(provider: Pick<InternalEmailProvider, "signInCode">): boolean {
  return provider.signInCode !== false;
}

/**
 * Seconds a code (and its cookie) lives: the link's lifetime, at most 15 minutes, as the other
 * short-lived check cookies (PKCE, state, WebAuthn challenge).
 */
export function signInCodeMaxAge(provider: Pick<InternalEmailProvider, "maxAge">): number {
  return Math.min(provider.maxAge, CHECK_COOKIE_MAX_AGE);
}

/** The cookie that binds a code to the browser that asked for it. */
export function signInCodeCookie(ctx: AuthContext): CookieOption {
  return {
    name: `${ctx.secureCookies ? "__Secure-" : ""}authjs.email-code`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure: ctx.secureCookies },
  };
}

const storeKey = async (binding: string) =>
  `tessera:email-code:${(await sha256Hex(`tessera.email-code\0${binding}`)).slice(0, 40)}`;

const codeHash = (binding: string, code: string) =>
  sha256Hex(`tessera.email-code.value\0${binding}\0${code}`);

/** Six random digits (a 32-bit draw modulo 10^6: a bias below one in four thousand). */
function newCode(): string {
  const [draw = 0] = crypto.getRandomValues(new Uint32Array(1));
  return String(draw % 1_000_000).padStart(6, "0");
}

/**
 * Makes the code for a sign-in whose link token the adapter stores as `storedToken`: keeps it in
 * the shared store and answers the code (for the e-mail) and the cookie binding it to this browser.
 *
 * @example
 * ```ts
 * const { code, cookie } = await startSignInCode(ctx, provider, "ada@example.com", hashedToken)
 * ```
 */
export async function startSignInCode(
  ctx: AuthContext,
  provider: InternalEmailProvider,
  identifier: string,
  storedToken: string,
): Promise<{ code: string; cookie: Cookie }> {
  const binding = randomHex(32);
  const code = newCode();
  const maxAge = signInCodeMaxAge(provider);
  const pending: PendingCode = {
    identifier,
    token: storedToken,
    code: await codeHash(binding, code),
  };
  await sharedStoreOf(ctx.config).add(await storeKey(binding), JSON.stringify(pending), maxAge);
  const option = signInCodeCookie(ctx);
  return { code, cookie: { ...option, value: binding, options: { ...option.options, maxAge } } };
}

/** The pending code of this browser, or null (no cookie, expired, already spent). */
export async function pendingSignInCode(
  ctx: AuthContext,
): Promise<{ binding: string; key: string; raw: string; pending: PendingCode } | null> {
  const binding = ctx.request.cookies[signInCodeCookie(ctx).name];
  if (!binding || !/^[0-9a-f]{64}$/.test(binding)) return null;
  const key = await storeKey(binding);
  const raw = await sharedStoreOf(ctx.config).get(key);
  if (!raw) return null;
  try {
    const pending = JSON.parse(raw) as PendingCode;
    if (typeof pending.identifier !== "string" || typeof pending.token !== "string") return null;
    return { binding, key, raw, pending };
  } catch {
    return null;
  }
}

/** Whether `typed` is the code of `found` (constant time over the hashes). */
export async function isSignInCode(
  found: { binding: string; pending: PendingCode },
  typed: string,
): Promise<boolean> {
  const digits = typed.replace(/\s/g, "");
  if (!/^\d{6}$/.test(digits)) return false;
  return timingSafeEqual(await codeHash(found.binding, digits), found.pending.code);
}

/**
 * Removes the pending code (compare-and-delete: of two requests racing with the right code, one
 * gets true). Called when the code is spent, and when too many wrong ones void it.
 */
export function dropSignInCode(ctx: AuthContext, found: { key: string; raw: string }) {
  return sharedStoreOf(ctx.config).deleteIf(found.key, found.raw);
}

/** Clears the binding cookie. */
export function clearSignInCodeCookie(ctx: AuthContext): Cookie {
  const option = signInCodeCookie(ctx);
  return { ...option, value: "", options: { ...option.options, maxAge: 0 } };
}
