/**
 * E-mail link callback (`GET /callback/<id>?token&email`): the token is consumed once, checked,
 * and the user is signed in (created, or their address marked verified, on first use). Tessera
 * adds `POST /callback/<id>` with the 6-digit code from the same e-mail.
 */
import type { VerificationToken } from "../../../adapters.js";
import { MissingCSRF, RateLimited, Verification } from "../../../errors.js";
import type { ResponseInternal } from "../../../types.js";
import { requireAdapter } from "../../config/adapter.js";
import type { AuthContext, InternalEmailProvider } from "../../config/internal.js";
import { timingSafeEqual } from "../../crypto/encoding.js";
import { normalizeProviderIdentifier } from "../../email/address.js";
import { countVerificationAttempt, resetVerificationAttempts } from "../../email/attempts.js";
import {
  clearSignInCodeCookie,
  dropSignInCode,
  isSignInCode,
  pendingSignInCode,
  signInCodeEnabled,
} from "../../email/sign-in-code.js";
import { emailSignInSubject } from "../../email/sign-in-subject.js";
import { hashVerificationToken, verificationSecrets } from "../../email/token.js";
import { json } from "../../http/response.js";
import { coreTranslator } from "../../i18n/core/translator.js";
import { renderVerifyRequestPage } from "../../pages/index.js";
import { clearSignInLimit, limitSignInAttempt } from "../../session/rate-limit.js";
import { authorizeSignIn, completeSignIn, resolveUser } from "../../session/sign-in.js";

/** Longer tokens are refused unhashed (they cannot come from a link Tessera sent). */
const MAX_TOKEN_LENGTH = 512;

const INVALID_LINK =
  "The sign-in link is invalid: it was already used, has expired, was altered, or belongs to another address. Request a new one.";

/**
 * Consumes the stored token matching `token` for `identifier`, trying the hash under every secret
 * it may have been created with (newest first), so secret rotation never breaks pending links.
 * `useVerificationToken` deletes what it returns, which makes a link single-use even when the
 * same link is opened many times at once.
 */
async function consumeToken(
  ctx: AuthContext,
  provider: InternalEmailProvider,
  identifier: string,
  token: string,
): Promise<VerificationToken | null> {
  const adapter = requireAdapter(ctx.config, "E-mail sign-in");
  for (const secret of verificationSecrets(provider, ctx.config.secrets)) {
    const hashed = await hashVerificationToken(token, secret);
    const found = await adapter.useVerificationToken({ identifier, token: hashed });
    if (!found) continue;
    // Defence in depth against an adapter that matches loosely: the record must be this one.
    if (found.identifier !== identifier || !timingSafeEqual(String(found.token), hashed))
      return null;
    return found;
  }
  return null;
}

/** Completes an e-mail sign-in. */
export async function callbackWithEmail(
  ctx: AuthContext,
  provider: InternalEmailProvider,
): Promise<ResponseInternal> {
  if (ctx.request.method === "POST") return callbackWithEmailCode(ctx, provider);
  const { token, email } = ctx.request.query;
  if (!token || !email || token.length > MAX_TOKEN_LENGTH)
    throw new Verification("The sign-in link is incomplete: it needs `token` and `email`.");
  const identifier = normalizeProviderIdentifier(provider, email, Verification);
  // Token guessing: tries per address and per client IP are limited before any lookup.
  await limitSignInAttempt(ctx, "email-callback", identifier);

  // Brute force of short codes: the try is counted before the token is looked up, so even
  // guesses sent in parallel cannot exceed `maxAttempts`.
  const withinLimit = await countVerificationAttempt(provider, identifier, ctx.config.state);
  // Consumed even when over the limit, so the pending token is void for good.
  const stored = await consumeToken(ctx, provider, identifier, token);
  if (!stored) throw new Verification(INVALID_LINK);
  if (!withinLimit)
    throw new Verification(
      "Too many wrong sign-in codes were tried for this address, so its pending link was voided. Request a new one.",
    );
  // The adapter may hand back an expired record (it is deleted all the same): never honour it.
  if (new Date(stored.expires).valueOf() <= Date.now())
    throw new Verification("The sign-in link has expired. Request a new one.");
  return finishEmailSignIn(ctx, provider, identifier);
}

/** Signs in the owner of `identifier`, whose link or code was just spent. */
async function finishEmailSignIn(
  ctx: AuthContext,
  provider: InternalEmailProvider,
  identifier: string,
): Promise<ResponseInternal> {
  await resetVerificationAttempts(provider, identifier, ctx.config.state);
  await clearSignInLimit(ctx, "email-callback", identifier);

  // Asked before any user is created or changed, so a refused address leaves no trace.
  const subject = await emailSignInSubject(ctx, provider, identifier);
  const redirect = await authorizeSignIn(ctx, subject);
  if (redirect) return { redirect };

  const { user, account, isNewUser } = await resolveUser(
    ctx,
    { email: identifier },
    subject.account,
  );
  return completeSignIn(ctx, { user, account, isNewUser });
}

/** The verify-request page again, with why the code was refused (or a JSON error for scripts). */
async function codeRefused(
  ctx: AuthContext,
  provider: InternalEmailProvider,
  error: "CodeInvalid" | "CodeExpired" | "RateLimited",
  canRetry: boolean,
): Promise<ResponseInternal> {
  const status = error === "RateLimited" ? 429 : 400;
  const cookies = canRetry ? [] : [clearSignInCodeCookie(ctx)];
  const accept = ctx.request.headers.get("accept") ?? "";
  if (ctx.request.inProcess || !accept.includes("text/html"))
    return { ...json({ error }, status), cookies };
  const page = renderVerifyRequestPage({
    url: ctx.url,
    theme: ctx.config.theme,
    provider: { id: provider.id, name: provider.name },
    ...(canRetry && { codeForm: { csrfToken: ctx.csrfToken ?? "" } }),
    error,
    t: await coreTranslator(ctx),
  });
  return { ...page, status, cookies };
}

/**
 * `POST /callback/<id>` with `code`: the 6-digit code from the sign-in e-mail, typed in the
 * browser where the sign-in started (its cookie finds the pending code; see
 * lib/email/sign-in-code.ts). The same limits as the link: rate-limited per address and IP, wrong
 * codes counted against `maxAttempts`, and one use for the code and the link together.
 */
async function callbackWithEmailCode(
  ctx: AuthContext,
  provider: InternalEmailProvider,
): Promise<ResponseInternal> {
  // Login CSRF: a foreign site must not post a code of the attacker's own sign-in.
  if (!ctx.csrfTokenVerified)
    throw new MissingCSRF("The sign-in code was posted without a valid csrfToken.");
  const found = signInCodeEnabled(provider) ? await pendingSignInCode(ctx) : null;
  if (!found) return codeRefused(ctx, provider, "CodeExpired", false);
  const { identifier } = found.pending;
  try {
    await limitSignInAttempt(ctx, "email-callback", identifier);
  } catch (error) {
    if (error instanceof RateLimited) return codeRefused(ctx, provider, "RateLimited", true);
    throw error;
  }
  // Brute force of six digits: the try is counted first, against the link's own limit.
  const withinLimit = await countVerificationAttempt(provider, identifier, ctx.config.state);
  const right = await isSignInCode(found, text(ctx.request.body?.code));
  if (!withinLimit) {
    // Void for good: the code, and the link with it (as the link callback does).
    await dropSignInCode(ctx, found);
    await requireAdapter(ctx.config, "E-mail sign-in").useVerificationToken({
      identifier,
      token: found.pending.token,
    });
    return codeRefused(ctx, provider, "CodeExpired", false);
  }
  if (!right) return codeRefused(ctx, provider, "CodeInvalid", true);
  // Single use under a race: only the request that removes the entry goes on.
  if (!(await dropSignInCode(ctx, found))) return codeRefused(ctx, provider, "CodeExpired", false);
  // The link is spent with the code; a link used first (or expired) leaves nothing to spend.
  const stored = await requireAdapter(ctx.config, "E-mail sign-in").useVerificationToken({
    identifier,
    token: found.pending.token,
  });
  if (!stored || new Date(stored.expires).valueOf() <= Date.now())
    return codeRefused(ctx, provider, "CodeExpired", false);
  const answer = await finishEmailSignIn(ctx, provider, identifier);
  return { ...answer, cookies: [...(answer.cookies ?? []), clearSignInCodeCookie(ctx)] };
}

function text(value: unknown): string {
  return typeof value === "string" ? value.slice(0, 20) : "";
}
