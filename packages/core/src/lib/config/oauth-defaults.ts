/**
 * What the request paths read of a normalised OAuth/OIDC provider: its protocol (OAuth 1.0a or
 * 2), the defaults a configuration without `profile` or `account` gets, and the refresh margin.
 * Apart from `oauth-provider.ts` (the normalisation and its checks, run once per configuration)
 * so that a callback or a session read does not load the normalisation, and so that the session
 * read can tell whether a refresh is due without loading the refresh machinery.
 */
import type { Profile, TokenSet, User } from "../../types.js";
import type { ResolvedConfig } from "./internal.js";

/** Whether `provider` signs in with OAuth 1.0a (`version: "1.0A"`, RFC 5849). */
export function isOAuth1(provider: { version?: string | undefined }): boolean {
  return provider.version?.startsWith("1.") === true;
}

/** Seconds before expiry from which a token is refreshed, unless `oauth.refreshMargin` says. */
const DEFAULT_REFRESH_MARGIN = 60;

/**
 * Whether an access token expiring at `expiresAt` (seconds since the epoch) must be refreshed
 * now: it has expired or expires within the margin. A token without expiry never is.
 *
 * @example
 * ```ts
 * if (isDue(config, account.expires_at)) await refresh()
 * ```
 */
export function isDue(config: ResolvedConfig, expiresAt: unknown): boolean {
  if (typeof expiresAt !== "number") return false;
  const margin = config.source.oauth?.refreshMargin ?? DEFAULT_REFRESH_MARGIN;
  return expiresAt - margin <= Math.floor(Date.now() / 1000);
}

/** Default mapping of an OIDC/OAuth profile to a user. */
export function defaultProfile(profile: Profile): User {
  const id = profile.sub ?? profile.id;
  return {
    id: id === undefined || id === null ? undefined : String(id),
    name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
    email: typeof profile.email === "string" ? profile.email : null,
    image: typeof profile.picture === "string" ? profile.picture : null,
  };
}

/**
 * Default subset of a token response stored on the account: the fields Auth.js keeps (RFC 6749
 * §5.1 token response, https://www.rfc-editor.org/rfc/rfc6749#section-5.1, plus OpenID Connect
 * Core 1.0 §3.1.3.3's `id_token`), with `expires_in` turned into `expires_at`.
 */
export function defaultAccount(tokens: TokenSet): TokenSet {
  const account: TokenSet = {};
  for (const key of ["access_token", "id_token", "refresh_token", "scope", "session_state"])
    if (tokens[key] !== undefined && tokens[key] !== null) account[key] = tokens[key];
  if (typeof tokens.token_type === "string") account.token_type = tokens.token_type.toLowerCase();
  if (typeof tokens.expires_at === "number") account.expires_at = tokens.expires_at;
  else if (typeof tokens.expires_in === "number")
    account.expires_at = Math.floor(Date.now() / 1000) + tokens.expires_in;
  return account;
}
