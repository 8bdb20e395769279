/**
 * ID token checks that oauth4webapi leaves to the client in the code flow (it validates `iss`,
 * `aud`, `azp`, `exp`, the presence of `iat` and `sub`, and the nonce): an `iat` in the future
 * (OIDC Core 1.0 §3.1.3.7 item 10).
 */
import type * as o from "oauth4webapi";
import { OAuthCallbackError } from "../../errors.js";

/**
 * How far in the future an ID token's `iat` may lie: the OP's clock may run somewhat ahead, but a
 * token issued later than this was minted for use at a later time (or comes from a broken OP).
 */
export const MAX_ISSUED_AT_SKEW_SECONDS = 5 * 60;

/**
 * Refuses an ID token issued in the future (OIDC Core 1.0 §3.1.3.7 item 10: `iat` may be used to
 * reject tokens issued too far away from the current time). Defends against a token minted ahead
 * of time and kept for replay, which an `exp` check alone lets through for the whole time it
 * covers.
 *
 * @example
 * ```ts
 * checkIssuedAt(o.getValidatedIdTokenClaims(processed)) // throws OAuthCallbackError if iat is too late
 * ```
 */
export function checkIssuedAt(claims: o.IDToken, now = Math.floor(Date.now() / 1000)): void {
  if (claims.iat > now + MAX_ISSUED_AT_SKEW_SECONDS)
    throw new OAuthCallbackError(
      `The ID token's "iat" (issued at) claim lies ${claims.iat - now} s in the future: it is refused beyond ${MAX_ISSUED_AT_SKEW_SECONDS} s. Check the provider's clock.`,
    );
}

