/**
 * Redirect targets on the application's own pages (`pages.signIn`, `pages.error`, …) and of the
 * account page's step-up. Shared by the actions and by `signin/email.ts`, so it lives below them
 * rather than in `signin.ts`.
 */
import { authenticatedRecently } from "../account/step-up.js";
import type { AuthContext } from "../config/internal.js";

/** Appends query parameters to a configured page path (which may carry a query already). */
export function pageUrl(
  ctx: AuthContext,
  path: string,
  params: Record<string, string | undefined>,
) {
  const url = new URL(path, ctx.url.origin);
  for (const [key, value] of Object.entries(params)) if (value) url.searchParams.set(key, value);
  return url.href;
}

/** The built-in account page's URL. */
export function accountPageUrl(ctx: AuthContext): string {
  return `${ctx.url.href.replace(/\/$/, "")}/account`;
}

/** The sign-in page (the app's own when configured), coming back to `callbackUrl`. */
export function signInPageUrl(ctx: AuthContext, callbackUrl: string): string {
  if (ctx.config.pages.signIn) return pageUrl(ctx, ctx.config.pages.signIn, { callbackUrl });
  return `${ctx.url.href.replace(/\/$/, "")}/signin?${new URLSearchParams({ callbackUrl })}`;
}

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
