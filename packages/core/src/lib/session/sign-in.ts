/**
 * The end of every sign-in, in order: the first factor is done (a callback knows the user) →
 * the further sign-in steps of the config (none by default: a second factor, a forced e-mail
 * verification) → the session is issued. A step may pause the sign-in: it then waits, sealed in a
 * short-lived cookie bound to the user and the provider, until an action resumes it.
 */
import { InvalidCheck } from "../../errors.js";
import type { Cookie, CookieOption, ResponseInternal } from "../../types.js";
import type { AuthContext, SignInResult } from "../config/internal.js";
import { decodeSessionToken, encodeSessionToken, sharedSessionTokenCache } from "../crypto/jwe.js";
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie } from "../http/cookies.js";
import { issueSessionAndRedirect } from "./issue.js";

/** Seconds a paused sign-in may wait for its step: long enough to type a code, short for a thief. */
export const PAUSED_SIGN_IN_MAX_AGE = 10 * 60;

/** A sign-in waiting for one of its steps. */
export interface PausedSignIn {
  /** The name of the step that paused it. */
  step: string;
  /** The provider of the first factor (a configured one). */
  providerId: string;
  /** The callback URL the sign-in ends at. */
  callbackUrl: string;
  result: SignInResult;
}

/** What the cookie carries (claims of its JWE). */
interface PausedClaims {
  step: string;
  /** The user id the sign-in is for; a resume acts for this user only. */
  sub: string;
  provider: string;
  callbackUrl: string;
  result: SignInResult;
}

/** The cookie a paused sign-in waits in: `__Secure-` prefixed on https, like the session's. */
function pausedCookie(ctx: AuthContext): CookieOption {
  return {
    name: `${ctx.secureCookies ? "__Secure-" : ""}authjs.paused-sign-in`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure: ctx.secureCookies },
  };
}

/** Runs the steps after index `from`; pauses at the first step that asks to, else issues. */
async function runSteps(
  ctx: AuthContext,
  result: SignInResult,
  from: number,
): Promise<ResponseInternal> {
  const steps = ctx.config.signInSteps;
  let current = result;
  for (let index = from; index < steps.length; index++) {
    const step = steps[index] as (typeof steps)[number];
    const outcome = await step.run(ctx, current);
    if ("pause" in outcome) return pause(ctx, step.name, current, outcome.pause);
    if (outcome.claims) current = withClaims(current, outcome.claims);
  }
  return issueSessionAndRedirect(ctx, current);
}

function withClaims(result: SignInResult, claims: Record<string, unknown>): SignInResult {
  return { ...result, claims: { ...result.claims, ...claims } };
}

async function pause(
  ctx: AuthContext,
  step: string,
  result: SignInResult,
  answer: ResponseInternal,
): Promise<ResponseInternal> {
  const provider = ctx.provider;
  if (!provider || result.user.id === undefined)
    throw new TypeError(
      `The sign-in step "${step}" paused a sign-in without a provider or user id: only sign-ins of a known user can wait for a step.`,
    );
  const option = pausedCookie(ctx);
  const claims: PausedClaims = {
    step,
    sub: String(result.user.id),
    provider: provider.id,
    callbackUrl: ctx.callbackUrl,
    result,
  };
  // Sealed like the OAuth check cookies (salt = the cookie's own name), so the browser can
  // neither read the pending account tokens nor change whose sign-in it is.
  const sealed = await encodeSessionToken(
    {
      token: claims,
      secret: ctx.config.secrets,
      salt: option.name,
      maxAge: PAUSED_SIGN_IN_MAX_AGE,
    },
    sharedSessionTokenCache,
  );
  const expires = new Date(Date.now() + PAUSED_SIGN_IN_MAX_AGE * 1000);
  const cookies = writeChunkedCookie(ctx.request.cookies, option, sealed, { expires });
  return { ...answer, cookies: [...(answer.cookies ?? []), ...cookies] };
}

/**
 * Ends a sign-in whose first factor is done: runs the config's sign-in steps, then issues the
 * session and redirects (to `pages.newUser` on a first sign-in when configured, else to the
 * callback URL). Every callback (OAuth, e-mail, credentials, WebAuthn) ends here.
 *
 * @example
 * ```ts
 * return completeSignIn(ctx, { user, account, isNewUser })
 * ```
 */
export function completeSignIn(ctx: AuthContext, result: SignInResult): Promise<ResponseInternal> {
  return runSteps(ctx, result, 0);
}

/**
 * The sign-in paused by step `step` for this browser, or `null` when there is none (or it expired,
 * was sealed with another secret, was paused by another step, or its provider is no longer
 * configured). Sets `ctx.provider` to the sign-in's provider.
 *
 * @example
 * ```ts
 * const paused = await readPausedSignIn(ctx, "two-factor")
 * if (paused && codeIsRightFor(paused.result.user.id)) return resumeSignIn(ctx, paused)
 * ```
 */
export async function readPausedSignIn(
  ctx: AuthContext,
  step: string,
): Promise<PausedSignIn | null> {
  const option = pausedCookie(ctx);
  const token = readChunkedCookie(ctx.request.cookies, option.name);
  if (!token) return null;
  let claims: PausedClaims | null;
  try {
    claims = await decodeSessionToken<PausedClaims>(
      { token, secret: ctx.config.secrets, salt: option.name, maxAge: PAUSED_SIGN_IN_MAX_AGE },
      sharedSessionTokenCache,
    );
  } catch {
    return null; // tampered, expired or sealed with a retired secret
  }
  if (!claims || claims.step !== step) return null;
  // The seal binds the user id to the sign-in it carries: a mismatch is not ours.
  if (String(claims.result?.user?.id) !== claims.sub) return null;
  const provider = ctx.providers.find((p) => p.id === claims.provider);
  if (!provider) return null;
  ctx.provider = provider;
  return {
    step: claims.step,
    providerId: claims.provider,
    callbackUrl: claims.callbackUrl,
    result: claims.result,
  };
}

/**
 * Resumes `paused` (from {@link readPausedSignIn}) once its step is satisfied: runs the steps
 * after it, then issues the session with `claims` (what the step learnt: `amr`) added. The paused sign-in's cookie is cleared in every case.
 * Throws `InvalidCheck` when its step is no longer configured.
 *
 * @example
 * ```ts
 * return resumeSignIn(ctx, paused)
 * ```
 */
export async function resumeSignIn(
  ctx: AuthContext,
  paused: PausedSignIn,
  claims?: Record<string, unknown>,
): Promise<ResponseInternal> {
  const cleared: Cookie[] = clearChunkedCookie(ctx.request.cookies, pausedCookie(ctx));
  const index = ctx.config.signInSteps.findIndex((step) => step.name === paused.step);
  if (index === -1)
    throw new InvalidCheck(
      `The paused sign-in waits for the step "${paused.step}", which the configuration no longer has: sign in again.`,
    );
  ctx.callbackUrl = paused.callbackUrl;
  const result = claims ? withClaims(paused.result, claims) : paused.result;
  const answer = await runSteps(ctx, result, index + 1);
  return { ...answer, cookies: [...cleared, ...(answer.cookies ?? [])] };
}
