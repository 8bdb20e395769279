/**
 * Redirect targets on the application's own pages (`pages.signIn`, `pages.error`, …). Shared by
 * the actions and by `signin/email.ts`, so it lives below them rather than in `signin.ts`. The
 * account page's step-up, which reads the session, is in step-up-url.ts: the pages that only
 * redirect load nothing of the session for it.
 */
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
