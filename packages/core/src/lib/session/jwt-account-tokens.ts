/**
 * The OAuth tokens a JWT session keeps for a `refresh: true` provider, as `getAccessToken` reads
 * them: through the same gate as the session read (a revoked or OP-ended session hands out no
 * token), refreshed when due, the cookie re-issued by the same rule as the session read's.
 */
import { RefreshTokenError } from "../../errors.js";
import type { Cookie } from "../../types.js";
import type { ResolvedConfig } from "../config/internal.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import {
  clearJwtSession,
  type JwtSessionRead,
  type RequestCookies,
  readJwtSession,
  refreshedSessionToken,
  reissueJwtSession,
  type SessionAccount,
  sessionAccountOf,
  sessionCookieOption,
} from "./jwt-cookie.js";

/** What {@link readJwtAccountTokens} found, and the cookies to set (re-issued or cleared). */
export interface JwtAccountTokens {
  tokens: SessionAccount | undefined;
  cookies: Cookie[];
}

/**
 * The tokens the session JWT of `request` holds for `provider`, refreshed when due; throws
 * `RefreshTokenError` when the session carries a refused refresh. A session that was revoked or
 * ended by its OpenID Provider has no tokens (its cookie is cleared); one whose revocation could
 * not be checked (store outage) has none either, and keeps its cookie.
 *
 * @example
 * ```ts
 * const { tokens, cookies } = await readJwtAccountTokens(config, { origin, cookies }, provider)
 * ```
 */
export async function readJwtAccountTokens(
  config: ResolvedConfig,
  request: RequestCookies,
  provider: InternalOAuthProvider,
): Promise<JwtAccountTokens> {
  const option = sessionCookieOption(config, request);
  // A copied cookie of a signed-out session must not yield a live access token, nor be
  // re-issued (with a fresh jti) into a valid session again.
  let payload: JwtSessionRead;
  try {
    payload = await readJwtSession(config, request.cookies, option);
  } catch {
    // An unreadable cookie holds no tokens; the session read logs it and clears it.
    payload = "none";
  }
  if (payload === "ended")
    return { tokens: undefined, cookies: clearJwtSession(request.cookies, option) };
  if (typeof payload === "string" || sessionAccountOf(payload)?.provider !== provider.id)
    return { tokens: undefined, cookies: [] };
  const next = await refreshedSessionToken(config, payload, request.origin);
  const account = sessionAccountOf(next);
  const cookies: Cookie[] = [];
  if (next !== payload) {
    const expires = new Date(Date.now() + config.jwt.maxAge * 1000);
    cookies.push(
      ...(await reissueJwtSession(config, request.cookies, option, payload, next, expires)),
    );
  }
  if (account?.error)
    throw new RefreshTokenError(
      `The ${provider.id} refresh token was refused; the user must sign in again.`,
    );
  return { tokens: account, cookies };
}
