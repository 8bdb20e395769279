/**
 * Redis key layout. Every key holds one record or one index, and all keys that belong to a user
 * share the hash tag `{<userId>}`, so on Redis Cluster they live in one slot and can be changed
 * together (multi-key DEL, MULTI). Lookups by session token, account, e-mail, credential id and
 * verification token cannot know the user in advance, so those keys hash on their own and are
 * only ever touched one key per command.
 *
 * User-supplied parts are percent-encoded: `:` cannot split them ambiguously and `{`/`}` cannot
 * hijack the hash tag.
 */

/** The keys of the records of one prefix. */
export interface KeyScheme {
  /** JSON of the user. */
  user(userId: string): string;
  /** Sorted set: the user's session tokens, scored by expiry (ms), for listing and cleanup. */
  userSessions(userId: string): string;
  /** Set: the user's accounts as {@link KeyScheme.accountId} values. */
  userAccounts(userId: string): string;
  /** Set: the user's WebAuthn credential ids. */
  userAuthenticators(userId: string): string;
  /** Hash: the user's TOTP factor (`secret`, `enabledAt` in ms, `lastUsedStep`). */
  userTwoFactor(userId: string): string;
  /** Set: the hashes of the user's unused backup codes. */
  userBackupCodes(userId: string): string;
  /** String: the user's password hash (a PHC string). */
  userPassword(userId: string): string;
  /** The id of the user with this e-mail. */
  email(email: string): string;
  /** Member of {@link KeyScheme.userAccounts} naming an account. */
  accountId(account: { provider: string; providerAccountId: string }): string;
  /** JSON of the account with this {@link KeyScheme.accountId}. */
  account(accountId: string): string;
  /** JSON of the session; expires with it. */
  session(sessionToken: string): string;
  /** JSON of the verification token; expires with it. */
  verificationToken(identifier: string, token: string): string;
  /** JSON of the authenticator. */
  authenticator(credentialID: string): string;
}

/**
 * The key scheme under a prefix (e.g. `"tessera:"`).
 *
 * @example
 * ```ts
 * keyScheme("auth:").user("42")            // "auth:user:{42}"
 * keyScheme("auth:").userSessions("42")    // "auth:user:{42}:sessions"
 * keyScheme("auth:").session("abc")        // "auth:session:abc"
 * ```
 */
export function keyScheme(prefix: string): KeyScheme {
  const part = encodeURIComponent;
  const userTag = (userId: string) => `${prefix}user:{${part(userId)}}`;
  return {
    user: userTag,
    userSessions: (userId) => `${userTag(userId)}:sessions`,
    userAccounts: (userId) => `${userTag(userId)}:accounts`,
    userAuthenticators: (userId) => `${userTag(userId)}:authenticators`,
    userTwoFactor: (userId) => `${userTag(userId)}:two-factor`,
    userBackupCodes: (userId) => `${userTag(userId)}:backup-codes`,
    userPassword: (userId) => `${userTag(userId)}:password`,
    email: (email) => `${prefix}email:${part(email)}`,
    accountId: ({ provider, providerAccountId }) => `${part(provider)}:${part(providerAccountId)}`,
    account: (accountId) => `${prefix}account:${accountId}`,
    session: (sessionToken) => `${prefix}session:${part(sessionToken)}`,
    verificationToken: (identifier, token) =>
      `${prefix}verification-token:${part(identifier)}:${part(token)}`,
    authenticator: (credentialID) => `${prefix}authenticator:${part(credentialID)}`,
  };
}
