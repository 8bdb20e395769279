/**
 * The tokens of a returning user's sign-in, written onto their account row. Auth.js keeps the
 * tokens of the first sign-in forever, so a refresh token revoked since (or an ID token from the
 * first visit) would stay; `getAccessToken` and RP-initiated logout need the current ones.
 */
import type { AccountUpdate } from "../../adapters.js";
import type { Account } from "../../types.js";
import type { AuthContext } from "../config/internal.js";

const TOKEN_FIELDS = [
  "access_token",
  "refresh_token",
  "id_token",
  "scope",
  "token_type",
  "session_state",
] as const;

/**
 * Stores `account`'s tokens on the existing account row through `updateAccount` (when the
 * adapter has that Tessera extension; otherwise the row keeps its tokens, as with Auth.js). A
 * token the provider did not send again (Google sends a refresh token at first consent only)
 * keeps its stored value.
 *
 * @example
 * ```ts
 * if (existingUser) await storeSignInTokens(ctx, account)
 * ```
 */
export async function storeSignInTokens(ctx: AuthContext, account: Account): Promise<void> {
  const { adapter, rawAdapter } = ctx.config;
  if (!adapter || typeof rawAdapter?.updateAccount !== "function") return;
  const fields: AccountUpdate = {};
  for (const field of TOKEN_FIELDS) {
    const value = account[field];
    if (typeof value === "string") fields[field] = value;
  }
  if (typeof account.expires_at === "number") fields.expires_at = account.expires_at;
  if (Object.keys(fields).length === 0) return;
  await adapter.updateAccount({
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    ...fields,
  });
}
