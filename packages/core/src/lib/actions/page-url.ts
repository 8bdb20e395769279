/**
 * Redirect targets on the application's own pages (`pages.signIn`, `pages.error`, …). Shared by
 * the actions and by `signin/email.ts`, so it lives below them rather than in `signin.ts`.
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
