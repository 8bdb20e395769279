/**
 * Where a user re-authenticates before a sensitive account change (unlinking a sign-in method,
 * deleting a passkey), for the account page and the passkey management: the two-factor step-up
 * or a fresh sign-in, then back to the account page.
 */
import { authenticatedRecently } from "../account/step-up.js";
import type { AuthContext } from "../config/internal.js";
import { accountPageUrl, signInPageUrl } from "./page-url.js";

/**
 * Where `userId` re-authenticates before a sensitive change, then comes back to the account
 * page: the two-factor extension's step-up when the user has a factor, else a fresh sign-in,
 * which is the re-authentication.
 *
 * @example
 * ```ts
 * const url = await stepUpUrl(ctx, user.id) // where the two-factor step-up or the sign-in page is
 * ```
 */
export async function stepUpUrl(ctx: AuthContext, userId: string): Promise<string> {
  const back = accountPageUrl(ctx);
  for (const section of ctx.config.accountSections) {
    if ((await section(ctx, userId)).twoFactor?.enabled)
      return `${ctx.url.href.replace(/\/$/, "")}/two-factor/reauthenticate?${new URLSearchParams({ callbackUrl: back })}`;
  }
  return signInPageUrl(ctx, back);
}

/**
 * Step-up for a sensitive change (unlinking a sign-in method, deleting a passkey): undefined when
 * the session authenticated recently, else the {@link stepUpUrl} where `userId` authenticates
 * again. A session left open on a shared computer, or a stolen cookie, must not be enough to
 * remove a way in.
 *
 * @example
 * ```ts
 * const url = await requiredStepUp(ctx, user.id)
 * if (url) return json({ error: "StepUpRequired", url }, 403)
 * ```
 */
export async function requiredStepUp(
  ctx: AuthContext,
  userId: string,
): Promise<string | undefined> {
  return (await authenticatedRecently(ctx)) ? undefined : stepUpUrl(ctx, userId);
}
