/**
 * The user and account an OAuth sign-in describes: `provider.profile(profile, tokens)` maps the
 * provider's profile to a user (its `id` becomes the account's `providerAccountId`), and
 * `provider.account(tokens)` chooses the token fields stored on the account.
 */
import { OAuthProfileParseError } from "../../errors.js";
import type { Account, Profile, TokenSet, User } from "../../types.js";
import type { InternalOAuthProvider } from "../provider-types.js";

/** The user a provider profile maps to, and the account linking it to the provider. */
export interface ProfileResult {
  user: User & { id: string };
  account: Account;
}

/**
 * Runs the provider's `profile` and `account` callbacks. The e-mail is lower-cased so that the
 * same address always finds the same user. Throws `OAuthProfileParseError` when `profile` throws
 * or returns no `id` — a random id would create a new account on every sign-in.
 *
 * @example
 * ```ts
 * const { user, account } = await userAndAccount(provider, profile, tokens)
 * account.providerAccountId === user.id // true
 * ```
 */
export async function userAndAccount(
  provider: InternalOAuthProvider,
  profile: Profile,
  tokens: TokenSet,
): Promise<ProfileResult> {
  let mapped: User | undefined;
  try {
    mapped = await provider.profile(profile, tokens);
  } catch (error) {
    throw new OAuthProfileParseError(
      `The profile callback of "${provider.id}" threw: ${(error as Error)?.message ?? error}`,
      { cause: error },
    );
  }
  if (!mapped || typeof mapped !== "object")
    throw new OAuthProfileParseError(
      `The profile callback of "${provider.id}" must return a user object.`,
    );
  const id = mapped.id as unknown;
  if ((typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint") || id === "")
    throw new OAuthProfileParseError(
      `The profile callback of "${provider.id}" returned no \`id\`. Return the provider's stable user id (for example \`profile.sub\`).`,
    );
  // A profile without an address keeps none (Auth.js omits it too); "" is no address.
  const email =
    typeof mapped.email === "string" && mapped.email !== ""
      ? mapped.email.toLowerCase()
      : mapped.email === undefined
        ? undefined
        : null;
  const user = { ...mapped, id: String(id), email };
  const stored = provider.account(tokens) ?? {};
  const account: Account = {
    ...stored,
    // `token_type` is case-insensitive (RFC 6749 §5.1, https://www.rfc-editor.org/rfc/rfc6749#section-5.1)
    // and stored lower case, as Auth.js stores it, whatever a custom `account` callback returns.
    ...(typeof stored.token_type === "string" && { token_type: stored.token_type.toLowerCase() }),
    provider: provider.id,
    type: provider.type,
    providerAccountId: user.id,
  };
  return { user, account };
}
