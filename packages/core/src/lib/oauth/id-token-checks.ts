/**
 * ID token checks that oauth4webapi leaves to the client in the code flow (it validates `iss`,
 * `aud`, `azp`, `exp`, the presence of `iat` and `sub`, and the nonce): an `iat` in the future
 * (OIDC Core 1.0 §3.1.3.7 item 10), and the `at_hash` and `c_hash` an OP may include (§3.1.3.8,
 * §3.3.2.11); and the subject a refreshed ID token must keep (§12.2).
 */
import { base64url, decodeJwt, decodeProtectedHeader } from "jose";
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

/** The hash of `at_hash` / `c_hash` for a JWS algorithm (OIDC Core 1.0 §3.1.3.6, §3.3.2.11). */
function hashOf(alg: unknown): "SHA-256" | "SHA-384" | "SHA-512" | undefined {
  if (alg === "EdDSA" || alg === "Ed25519") return "SHA-512";
  const bits =
    typeof alg === "string" ? /^(?:HS|RS|PS|ES)(256|384|512)$/.exec(alg)?.[1] : undefined;
  return bits ? (`SHA-${bits}` as "SHA-256" | "SHA-384" | "SHA-512") : undefined;
}

/** base64url of the left half of the hash of `value` (the `at_hash` / `c_hash` encoding). */
async function leftHalfHash(value: string, hash: "SHA-256" | "SHA-384" | "SHA-512") {
  const digest = new Uint8Array(await crypto.subtle.digest(hash, new TextEncoder().encode(value)));
  return base64url.encode(digest.subarray(0, digest.length / 2));
}

/**
 * Checks the ID token's `at_hash` against the access token (OIDC Core 1.0 §3.1.3.8) and its
 * `c_hash` against the authorization code (§3.3.2.11) when the OP included them. Both are optional
 * in the code flow, but a value that does not match means the token response was assembled from
 * parts of different ones (access token or code substitution), so the sign-in is refused.
 *
 * @example
 * ```ts
 * await checkTokenHashes(idToken, claims, { accessToken: tokens.access_token, code })
 * ```
 */
export async function checkTokenHashes(
  idToken: string,
  claims: o.IDToken,
  values: { accessToken?: string | undefined; code?: string | null | undefined },
): Promise<void> {
  const pairs: [string, unknown, string | null | undefined, string][] = [
    ["at_hash", claims.at_hash, values.accessToken, "access token"],
    ["c_hash", claims.c_hash, values.code, "authorization code"],
  ];
  if (pairs.every(([, claimed]) => claimed === undefined)) return;
  const hash = hashOf(decodeProtectedHeader(idToken).alg);
  for (const [name, claimed, value, what] of pairs) {
    if (claimed === undefined) continue;
    if (!hash || typeof claimed !== "string" || typeof value !== "string")
      throw new OAuthCallbackError(`The ID token's "${name}" claim cannot be checked.`);
    if (claimed !== (await leftHalfHash(value, hash)))
      throw new OAuthCallbackError(
        `The ID token's "${name}" claim does not match the ${what} of the token response.`,
      );
  }
}

/**
 * The `sub` of an ID token stored at sign-in (validated then), or `undefined` when there is none
 * or it cannot be read. A refresh compares the new ID token's subject with it (OIDC Core 1.0
 * §12.2).
 *
 * @example
 * ```ts
 * await refreshTokens(provider, account.refresh_token, subjectOf(account.id_token))
 * ```
 */
export function subjectOf(idToken: unknown): string | undefined {
  if (typeof idToken !== "string") return undefined;
  try {
    const { sub } = decodeJwt(idToken);
    return typeof sub === "string" ? sub : undefined;
  } catch {
    return undefined;
  }
}
