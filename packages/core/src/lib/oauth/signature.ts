/**
 * Signatures of the JWTs an OpenID Provider signs for the client: the ID token (OIDC Core 1.0
 * §3.1.3.7) and a signed userinfo response (§5.3.2). HMAC algorithms (`HS256` …) are checked
 * against the client secret (§10.1), the others against the issuer's JWKS, whose rotation is
 * followed (§10.1.1).
 */
import { compactVerify, decodeProtectedHeader } from "jose";
import * as o from "oauth4webapi";
import { OAuthCallbackError } from "../../errors.js";
import type { InternalOAuthProvider } from "../../providers/index.js";
import { refreshedServerMetadata, type ServerMetadata, withIssuer } from "./discovery.js";
import { httpOptions } from "./http.js";

/** Whether `error` says that the JWKS has no key for the token's `kid` (and algorithm). */
function isUnknownSigningKey(error: unknown): boolean {
  if (!(error instanceof o.OperationProcessingError) || error.code !== o.KEY_SELECTION)
    return false;
  const { cause } = error;
  return (
    typeof cause === "object" &&
    cause !== null &&
    "candidates" in cause &&
    Array.isArray(cause.candidates) &&
    cause.candidates.length === 0
  );
}

/**
 * Checks the signature against the issuer's JWKS, cached per metadata object by oauth4webapi. A
 * key the cached JWKS lacks means the OP may have rotated its keys (OIDC Core 1.0 §10.1.1): the
 * keys are downloaded once more (see {@link refreshedServerMetadata}) and the check repeated.
 */
async function verifyWithJwks(
  provider: InternalOAuthProvider,
  meta: ServerMetadata,
  as: o.AuthorizationServer,
  processed: Response,
): Promise<void> {
  try {
    await o.validateApplicationLevelSignature(as, processed, httpOptions(provider));
  } catch (error) {
    if (!isUnknownSigningKey(error)) throw error;
    const fresh = await refreshedServerMetadata(provider, meta).catch(() => undefined);
    if (!fresh?.as.jwks_uri) throw error;
    // The tenant's issuer, for a multi-tenant template (its ID token claims are checked already).
    const freshAs = fresh.issuerTemplate ? withIssuer(fresh.as, as.issuer) : fresh.as;
    await o.validateApplicationLevelSignature(freshAs, processed, httpOptions(provider));
  }
}

/**
 * Verifies the signature of `jws`, which came in `processed` from an endpoint of `as`. Without a
 * JWKS URI there is nothing to check an asymmetric signature against: the JWT came straight from
 * the endpoint over TLS, which OIDC Core 1.0 accepts in its place; `onUnchecked` hears of it.
 *
 * @example
 * ```ts
 * await verifyJwsSignature(provider, meta, meta.as, response, idToken, { what: "ID token" })
 * ```
 */
export async function verifyJwsSignature(
  provider: InternalOAuthProvider,
  meta: ServerMetadata,
  as: o.AuthorizationServer,
  processed: Response,
  jws: string,
  options: { what: string; onUnchecked?: () => void },
): Promise<void> {
  const { alg } = decodeProtectedHeader(jws);
  if (typeof alg === "string" && alg.startsWith("HS")) {
    if (!provider.clientSecret)
      throw new OAuthCallbackError(`HMAC-signed ${options.what} without a client secret.`);
    await compactVerify(jws, new TextEncoder().encode(provider.clientSecret), {
      algorithms: [alg],
    });
    return;
  }
  if (!as.jwks_uri) return options.onUnchecked?.();
  await verifyWithJwks(provider, meta, as, processed);
}
