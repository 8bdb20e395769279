/** Who an e-mail sign-in is about, as the `signIn` callback sees it. */
import type { AdapterUser } from "../../adapters.js";
import type { Account } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext, InternalEmailProvider } from "../config/internal.js";

/**
 * The user and account the `signIn` callback is asked about: the stored user with this address,
 * or the one that would be created (with a provisional id and `emailVerified: null`). Nothing is
 * written.
 *
 * @example
 * ```ts
 * const { user, account } = await emailSignInSubject(ctx, provider, "ada@example.com")
 * await authorizeSignIn(ctx, { user, account, email: { verificationRequest: true } })
 * ```
 */
export async function emailSignInSubject(
  ctx: AuthContext,
  provider: InternalEmailProvider,
  email: string,
): Promise<{ user: AdapterUser; account: Account }> {
  const existing = await requireAdapter(ctx.config, "E-mail sign-in").getUserByEmail(email);
  const user: AdapterUser = existing ?? { id: crypto.randomUUID(), email, emailVerified: null };
  const account: Account = {
    providerAccountId: email,
    userId: user.id,
    type: "email",
    provider: provider.id,
  };
  return { user, account };
}
