/**
 * Ends every session of one user at once: a password reset (whoever knew the old password must
 * be signed out everywhere), a ban, an administrator's "end this user's sessions".
 */
import type { AuthContext } from "../config/internal.js";
import { revokeUserJwtSessions } from "./jwt-revocation.js";

/**
 * Ends every session of `userId`: the database sessions (`deleteSessionsByUserId`), the JWT
 * sessions that started before now through the revocation store (`jwt.revocation`; without one a
 * JWT cannot be recalled and lives until it expires), and what extensions keep per browser
 * (trusted devices). Returns whether JWT sessions could be ended.
 *
 * @example
 * ```ts
 * await endEverySession(ctx, userId)
 * ```
 */
export async function endEverySession(ctx: AuthContext, userId: string): Promise<boolean> {
  await ctx.config.rawAdapter?.deleteSessionsByUserId?.(userId);
  const revocation = ctx.config.jwt.revocation;
  if (revocation) await revokeUserJwtSessions(revocation, userId, ctx.config.session.maxAge);
  for (const hook of ctx.config.signedOutElsewhere) await hook(ctx, userId);
  return revocation !== undefined;
}
