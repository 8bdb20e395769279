/**
 * What a JWT session remembers of the OAuth account that created it, under one claim of the
 * encrypted session JWT: the provider, the account's tokens for a `refresh: true` provider, and
 * the ID token (with its `sub` and `sid`) for a `federatedLogout` provider or back-channel logout.
 * The session read refreshes the tokens there when due and re-issues the cookie.
 */
import { RefreshTokenError } from "../../errors.js";
import type { Account, JWT } from "../../types.js";
import type { ResolvedConfig } from "../config/internal.js";
import { fromBase64url, fromUtf8 } from "../crypto/encoding.js";
import { isDue, refreshOnce } from "../oauth/refresh-flight.js";
import type { InternalOAuthProvider } from "../provider-types.js";

/** The parts of a request read outside the pipeline: the session cookie and the origin. */
export interface RequestCookies {
  /** The origin the app is served at (the request's, or `AUTH_URL`'s). */
  origin: string;
  cookies: Record<string, string>;
}

/** The session cookie's name and options for `request`, as the pipeline chooses them. */
export function sessionCookieOption(config: ResolvedConfig, request: RequestCookies) {
  const secure = config.source.useSecureCookies ?? request.origin.startsWith("https:");
  return config.cookies[secure ? 1 : 0].sessionToken;
}

/** The claim of the session JWT that holds {@link SessionAccount}. */
export const SESSION_ACCOUNT_CLAIM = "tessera.oauth";

/** The account a JWT session was created through. */
export interface SessionAccount {
  provider: string;
  providerAccountId: string;
  access_token?: string;
  token_type?: string;
  expires_at?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
  /** The ID token's subject and session id, matched by back-channel logout tokens. */
  sub?: string;
  sid?: string;
  /** When the user signed in (milliseconds since the epoch): back-channel logouts after it count. */
  signedInAt?: number;
  /** Set when a refresh was refused: the user must sign in again (as Auth.js's guide does). */
  error?: "RefreshTokenError";
}

/** Whether sessions created through `provider` need the claim. */
function remembersAccount(provider: InternalOAuthProvider): boolean {
  return provider.refresh === true || provider.federatedLogout === true || provider.type === "oidc";
}

/**
 * The `sub` and `sid` of an ID token the OAuth callback has already verified: only its payload is
 * decoded here (no JOSE library on the session path).
 */
function idTokenIdentity(idToken: unknown): { sub?: string; sid?: string } {
  if (typeof idToken !== "string") return {};
  try {
    const payload: unknown = JSON.parse(fromUtf8(fromBase64url(idToken.split(".")[1] ?? "")));
    if (!payload || typeof payload !== "object") return {};
    const { sub, sid } = payload as { sub?: unknown; sid?: unknown };
    return {
      ...(typeof sub === "string" && { sub }),
      ...(typeof sid === "string" && { sid }),
    };
  } catch {
    return {};
  }
}

/**
 * The claim for a session created through `provider` with `account`, or `undefined` when the
 * provider needs none. Only what a feature needs is kept: tokens with `refresh: true`, the ID
 * token with `federatedLogout: true`, the ID token's `sub`/`sid` for back-channel logout.
 *
 * @example
 * ```ts
 * const claim = sessionAccountClaim(provider, account)
 * if (claim) token[SESSION_ACCOUNT_CLAIM] = claim
 * ```
 */
export function sessionAccountClaim(
  provider: InternalOAuthProvider,
  account: Account,
): SessionAccount | undefined {
  if (!remembersAccount(provider)) return undefined;
  const claim: SessionAccount = {
    provider: provider.id,
    providerAccountId: account.providerAccountId,
    ...idTokenIdentity(account.id_token),
    signedInAt: Date.now(),
  };
  if (provider.refresh === true) {
    for (const field of ["access_token", "token_type", "refresh_token", "scope"] as const) {
      const value = account[field];
      if (typeof value === "string") claim[field] = value;
    }
    if (typeof account.expires_at === "number") claim.expires_at = account.expires_at;
  }
  if (provider.federatedLogout === true && typeof account.id_token === "string")
    claim.id_token = account.id_token;
  return claim;
}

/**
 * The claims of a session JWT that may reach the page (a client component, an RSC or HTML
 * payload): all but the account's OAuth tokens ({@link SESSION_ACCOUNT_CLAIM}: access, refresh
 * and ID tokens are the user's credentials at the provider) and the session's revocation ids
 * (`sid`, `jti`). For integrations that show the token in place of a user.
 *
 * @example
 * ```ts
 * import { pageSafeClaims } from "@tessera/core"
 * const user = params.user ?? pageSafeClaims(params.token)
 * ```
 */
export function pageSafeClaims(token: JWT): JWT {
  const { [SESSION_ACCOUNT_CLAIM]: _account, sid: _sid, jti: _jti, ...shown } = token;
  return shown;
}

/** The {@link SessionAccount} of a decoded session JWT, if it has a well-formed one. */
export function sessionAccountOf(token: JWT | null | undefined): SessionAccount | undefined {
  const claim = token?.[SESSION_ACCOUNT_CLAIM];
  if (!claim || typeof claim !== "object") return undefined;
  const { provider, providerAccountId } = claim as Partial<SessionAccount>;
  if (typeof provider !== "string" || typeof providerAccountId !== "string") return undefined;
  return claim as SessionAccount;
}

function withAccount(token: JWT, account: SessionAccount): JWT {
  return { ...token, [SESSION_ACCOUNT_CLAIM]: account };
}

/**
 * `token` with its account's access token refreshed when due (once for concurrent reads, see
 * `refreshOnce`); the same object when nothing changed, so the caller knows whether to re-issue
 * the cookie. A refused refresh marks the account `error: "RefreshTokenError"` and fires
 * `events.refreshTokenError`; a network failure changes nothing (the next read tries again).
 *
 * @example
 * ```ts
 * const next = await refreshedSessionToken(config, payload, origin)
 * if (next !== payload) reissueCookie(next)
 * ```
 */
export function refreshedSessionToken(
  config: ResolvedConfig,
  token: JWT,
  origin: string,
): JWT | Promise<JWT> {
  const account = sessionAccountOf(token);
  // Synchronous while nothing is due (most reads): the session read then pays no promise.
  if (!account || account.error || typeof account.access_token !== "string") return token;
  if (!isDue(config, account.expires_at)) return token;
  const provider = config
    .providersFor(origin)
    .find((candidate) => candidate.id === account.provider) as InternalOAuthProvider | undefined;
  if (provider?.refresh !== true) return token;
  return refreshAccount(config, token, account, provider);
}

/** {@link refreshedSessionToken} once a refresh is due. */
async function refreshAccount(
  config: ResolvedConfig,
  token: JWT,
  account: SessionAccount,
  provider: InternalOAuthProvider,
): Promise<JWT> {
  const identity = {
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    ...(typeof token.sub === "string" && { userId: token.sub }),
  };
  const refreshToken = account.refresh_token;
  try {
    if (typeof refreshToken !== "string" || refreshToken === "")
      throw new RefreshTokenError(
        `The ${provider.id} account has an expired access token and no refresh token. Ask the provider for one (often the offline_access scope).`,
      );
    const tokens = await refreshOnce(config, provider, refreshToken, async () => {
      // The OAuth client loads with the first refresh: apps without one never load it.
      const { refreshTokens } = await import("../oauth/refresh.js");
      const refreshed = await refreshTokens(provider, refreshToken, account.sub);
      await config.events.tokenRefreshed?.({
        account: { ...identity, type: provider.type, ...refreshed },
      });
      return refreshed;
    });
    const refreshed: SessionAccount = { ...account, ...tokens };
    if (provider.federatedLogout !== true) delete refreshed.id_token;
    return withAccount(token, refreshed);
  } catch (error) {
    if (!(error instanceof RefreshTokenError)) {
      config.logger.error(error as Error);
      return token;
    }
    await config.events.refreshTokenError?.({ account: identity, error });
    return withAccount(token, { ...account, error: "RefreshTokenError" });
  }
}
