/**
 * A code by e-mail as another way through the challenge, sent through the configured e-mail
 * provider (its `sendVerificationRequest`, with the code as `token` and a link to the challenge
 * that fills it in). The code is kept hashed in the shared store for ten minutes and spent by
 * one compare-and-delete, so two parallel uses pass once. Not offered after an e-mail link
 * sign-in: the same mailbox twice is one factor, not two.
 */
import { AuthError, EmailSignInError } from "../../errors.js";
import type { AuthContext, InternalEmailProvider } from "../../lib/config/internal.js";
import { sha256Hex } from "../../lib/crypto/encoding.js";
import { emailLanguage } from "../../lib/i18n/core/translator.js";
import { limitSignInAttempt, sharedStoreOf } from "../../lib/session/rate-limit.js";
import type { PausedSignIn } from "../../lib/session/sign-in.js";

/** Seconds an e-mailed code stays valid. */
export const EMAIL_CODE_MAX_AGE = 10 * 60;

const codeKey = (userId: string) => `tessera:two-factor:email-code:${userId}`;

async function codeHash(userId: string, code: string): Promise<string> {
  return sha256Hex(`tessera.email-code\0${userId}\0${code}`);
}

/** The e-mail provider and the address to send a code to, when the paused sign-in may use one. */
export function emailCodeTarget(
  ctx: AuthContext,
  paused: PausedSignIn,
): { provider: InternalEmailProvider; email: string } | null {
  const provider = ctx.providers.find(
    (candidate): candidate is InternalEmailProvider => candidate.type === "email",
  );
  const email = paused.result.user.email;
  // The first factor was the mailbox already: a code sent there adds no second factor.
  if (!provider || !email || paused.providerId === provider.id) return null;
  if (ctx.providers.find((p) => p.id === paused.providerId)?.type === "email") return null;
  return { provider, email };
}

/** Six random digits (a 32-bit draw modulo 10^6: a bias below one in four thousand). */
function newEmailCode(): string {
  const [draw = 0] = crypto.getRandomValues(new Uint32Array(1));
  return String(draw % 1_000_000).padStart(6, "0");
}

/**
 * Sends a new code for the paused sign-in's user (replacing an earlier one). Counts against the
 * e-mail sending limits (mail bombing).
 */
export async function sendEmailCode(
  ctx: AuthContext,
  paused: PausedSignIn,
  target: { provider: InternalEmailProvider; email: string },
): Promise<void> {
  await limitSignInAttempt(ctx, "email-signin", target.email);
  const userId = String(paused.result.user.id);
  const code = newEmailCode();
  const store = sharedStoreOf(ctx.config);
  await store.delete(codeKey(userId));
  await store.add(codeKey(userId), await codeHash(userId, code), EMAIL_CODE_MAX_AGE);
  const expires = new Date(Date.now() + EMAIL_CODE_MAX_AGE * 1000);
  const url = `${ctx.url.href.replace(/\/$/, "")}/two-factor/verify?${new URLSearchParams({ emailCode: code })}`;
  try {
    await target.provider.sendVerificationRequest({
      identifier: target.email,
      token: code,
      expires,
      url,
      provider: target.provider,
      theme: ctx.config.theme,
      request: ctx.request.request,
      ...emailLanguage(ctx),
    });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new EmailSignInError(`Sending the two-factor code failed: ${cause.message}`, { cause });
  }
}

/** Spends the user's e-mailed code when `code` is it: true once, whoever races for it. */
export async function useEmailCode(
  ctx: AuthContext,
  userId: string,
  code: string,
): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  return sharedStoreOf(ctx.config).deleteIf(codeKey(userId), await codeHash(userId, code));
}
