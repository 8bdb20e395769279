/**
 * The refresh token grant (RFC 6749 §6): a new access token for an account whose token expired,
 * authenticated like the authorization code grant of the callback (`client_secret_basic`,
 * `client_secret_post`, `private_key_jwt`, …). An ID token in the answer is validated as at
 * sign-in, signature included (OIDC Core 1.0 §12.2).
 */
import * as o from "oauth4webapi";
import { RefreshTokenError } from "../../errors.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import { clientAuthOf, clientOf, httpOptions } from "./client.js";
import { serverMetadata } from "./discovery.js";
import { conformErrorStatus, verifyJwsSignature } from "./token.js";

/** The tokens an account holds after a refresh. */
export interface RefreshedTokens {
  access_token: string;
  /** Lower case, as stored at sign-in. */
  token_type: string;
  /** Seconds since the epoch; absent when the provider gave no `expires_in`. */
  expires_at?: number;
  /** The rotated refresh token, or the one used when the provider does not rotate. */
  refresh_token: string;
  scope?: string;
  /** A new ID token, when the provider sent one. */
  id_token?: string;
}

/**
 * Redeems `refreshToken` at `provider`'s token endpoint. Throws {@link RefreshTokenError} when
 * the provider answers `invalid_grant` (RFC 6749 §5.2: revoked, expired, already used, or issued
 * to another client); other failures (network, 5xx, malformed answers) are thrown as they are,
 * since the refresh token may still be good. With `expectedSubject` (the `sub` of the sign-in's
 * ID token), an ID token in the answer must be about that subject (OIDC Core 1.0 §12.2), or
 * `RefreshTokenError` is thrown and nothing of the answer is kept.
 *
 * @example
 * ```ts
 * const tokens = await refreshTokens(provider, account.refresh_token)
 * await adapter.updateAccount({ provider: provider.id, providerAccountId, ...tokens })
 * ```
 */
export async function refreshTokens(
  provider: InternalOAuthProvider,
  refreshToken: string,
  expectedSubject?: string,
): Promise<RefreshedTokens> {
  const meta = await serverMetadata(provider, "callback");
  const client = clientOf(provider);
  let response = await o.refreshTokenGrantRequest(
    meta.as,
    client,
    clientAuthOf(provider),
    refreshToken,
    httpOptions(provider),
  );
  if (provider.token?.conform)
    response = (await provider.token.conform(response.clone())) ?? response;
  response = await conformErrorStatus(response);
  let processed: o.TokenEndpointResponse;
  try {
    processed = await o.processRefreshTokenResponse(meta.as, client, response);
  } catch (error) {
    if (error instanceof o.ResponseBodyError && error.error === "invalid_grant")
      throw new RefreshTokenError(
        `The provider "${provider.id}" refused the refresh token (invalid_grant: ${error.error_description ?? "revoked, expired or already used"}). The user must sign in again.`,
        { cause: error },
      );
    throw error;
  }
  if (processed.id_token)
    await verifyJwsSignature(provider, meta, meta.as, response, processed.id_token, {
      what: "ID token",
    });
  // Token substitution on refresh (OIDC Core 1.0 §12.2): the new ID token must be about the user
  // who signed in; tokens for another subject must never be stored on this account.
  const subject = o.getValidatedIdTokenClaims(processed)?.sub;
  if (expectedSubject !== undefined && subject !== undefined && subject !== expectedSubject)
    throw new RefreshTokenError(
      `The provider "${provider.id}" answered the refresh with an ID token for another subject (OIDC Core 1.0 §12.2), so its tokens are discarded. The user must sign in again.`,
    );
  const tokens: RefreshedTokens = {
    access_token: processed.access_token,
    token_type: processed.token_type.toLowerCase(),
    // Providers that do not rotate refresh tokens send none back: the one used stays valid.
    refresh_token: processed.refresh_token ?? refreshToken,
  };
  if (typeof processed.expires_in === "number")
    tokens.expires_at = Math.floor(Date.now() / 1000) + processed.expires_in;
  if (typeof processed.scope === "string") tokens.scope = processed.scope;
  if (processed.id_token) tokens.id_token = processed.id_token;
  return tokens;
}
