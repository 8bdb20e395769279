/**
 * E-mail sign-in start (`POST /signin/<id>` with `email`): the address is normalised, the
 * `signIn` callback may refuse it, a single-use token is stored hashed, and the link is sent.
 */
import { AuthError, EmailSignInError } from "../../../errors.js";
import type { ResponseInternal } from "../../../types.js";
import { requireAdapter } from "../../config/adapter.js";
import type { AuthContext, InternalEmailProvider } from "../../config/internal.js";
import { normalizeProviderIdentifier } from "../../email/address.js";
import { resetVerificationAttempts } from "../../email/attempts.js";
import { signInCodeEnabled, startSignInCode } from "../../email/sign-in-code.js";
import { emailSignInSubject } from "../../email/sign-in-subject.js";
import { createVerificationToken, hashVerificationToken } from "../../email/token.js";
import { emailLanguage } from "../../i18n/core/translator.js";
import { limitSignInAttempt } from "../../session/rate-limit.js";
import { authorizeSignIn } from "../../session/sign-in.js";
import { pageUrl } from "../page-url.js";

/**
 * Sends the sign-in link and redirects to the verify-request page. The answer is the same
 * whether or not the address belongs to a user, so it reveals nothing about who is registered.
 */
export async function signinWithEmail(
  ctx: AuthContext,
  provider: InternalEmailProvider,
): Promise<ResponseInternal> {
  const { config } = ctx;
  const email = normalizeProviderIdentifier(provider, ctx.request.body?.email, EmailSignInError);
  // Mail bombing: links sent per address and per client IP are limited.
  await limitSignInAttempt(ctx, "email-signin", email);

  const { user, account } = await emailSignInSubject(ctx, provider, email);
  const redirect = await authorizeSignIn(ctx, {
    user,
    account,
    email: { verificationRequest: true },
  });
  if (redirect) return { redirect };

  const token = await createVerificationToken(provider);
  const secret = provider.secret ?? config.secrets[0]!;
  const expires = new Date(Date.now() + provider.maxAge * 1000);
  // A new link starts a new count of wrong tries (reset before the token exists, so no try
  // against it goes uncounted).
  await resetVerificationAttempts(provider, email, config.state);
  // Stored before the e-mail leaves, so a delivered link always has its token.
  const storedToken = await hashVerificationToken(token, secret);
  await requireAdapter(config, "E-mail sign-in").createVerificationToken({
    identifier: email,
    token: storedToken,
    expires,
  });
  // The code beside the link, bound to this browser by a cookie (lib/email/sign-in-code.ts).
  const signInCode = signInCodeEnabled(provider)
    ? await startSignInCode(ctx, provider, email, storedToken)
    : undefined;

  const query = new URLSearchParams({ callbackUrl: ctx.callbackUrl, token, email });
  const url = `${provider.callbackUrl}?${query}`;
  try {
    await provider.sendVerificationRequest({
      identifier: email,
      token,
      expires,
      url,
      provider,
      theme: config.theme,
      request: ctx.request.request,
      ...emailLanguage(ctx),
      ...(signInCode && { code: signInCode.code }),
    });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new EmailSignInError(
      `Sending the sign-in e-mail with "${provider.id}" failed: ${cause.message}`,
      { cause },
    );
  }

  const params = { provider: provider.id, type: provider.type };
  const cookies = signInCode ? [signInCode.cookie] : [];
  if (config.pages.verifyRequest)
    return { redirect: pageUrl(ctx, config.pages.verifyRequest, params), cookies };
  return { redirect: `${ctx.url.href}/verify-request?${new URLSearchParams(params)}`, cookies };
}
