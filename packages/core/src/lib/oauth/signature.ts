/**
 * Signatures of the JWTs an OpenID Provider signs for the client: the ID token (OIDC Core 1.0
 * §3.1.3.7), a signed userinfo response (§5.3.2) and a back-channel logout token (OpenID Connect
 * Back-Channel Logout 1.0 §2.6). HMAC algorithms (`HS256` …) are checked
 * against the client secret (§10.1), the others against the issuer's JWKS, whose rotation is
 * followed (§10.1.1).
 */
import {
  compactVerify,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  type JWTPayload,
  customFetch as joseCustomFetch,
} from "jose";
import * as o from "oauth4webapi";
import { OAuthCallbackError } from "../../errors.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import { fetchOf, httpOptions } from "./client.js";
import { refreshedServerMetadata, type ServerMetadata, withIssuer } from "./discovery.js";
import { PROVIDER_TIMEOUT_SECONDS } from "./timeout.js";

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
  if (await verifiedWithClientSecret(provider, jws, options.what)) return;
  if (!as.jwks_uri) return options.onUnchecked?.();
  await verifyWithJwks(provider, meta, as, processed);
}

/**
 * For an HMAC-signed JWS (`HS256` …), checks it against the client secret (OIDC Core 1.0 §10.1)
 * and answers true; false for any other algorithm.
 */
async function verifiedWithClientSecret(
  provider: InternalOAuthProvider,
  jws: string,
  what: string,
): Promise<boolean> {
  const { alg } = decodeProtectedHeader(jws);
  if (typeof alg !== "string" || !alg.startsWith("HS")) return false;
  if (!provider.clientSecret)
    throw new OAuthCallbackError(`HMAC-signed ${what} without a client secret.`);
  await compactVerify(jws, new TextEncoder().encode(provider.clientSecret), {
    algorithms: [alg],
  });
  return true;
}

/** Asymmetric JWS algorithms accepted from an OP's JWKS (never `none`, never HMAC there). */
const JWKS_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

/** Remote key sets per fetch implementation and JWKS URI (jose refetches on an unknown `kid`). */
const remoteKeySets = new WeakMap<
  typeof fetch,
  Map<string, ReturnType<typeof createRemoteJWKSet>>
>();

/**
 * Verifies a JWT the OP sent outside a token or userinfo response (a back-channel logout token)
 * against its JWKS — downloaded again when the token names a key it lacks, as after a rotation
 * (OIDC Core 1.0 §10.1.1) — or against the client secret for HMAC, only when the client is
 * registered for HMAC ID tokens (`client.id_token_signed_response_alg` HS*, OIDC Core 1.0 §10.1);
 * returns the payload. Throws when the signature does not verify, an HMAC arrives for a client
 * that is not registered for it, or the provider publishes no `jwks_uri`.
 *
 * @example
 * ```ts
 * const payload = await verifyJwtSignature(provider, meta, logoutToken)
 * ```
 */
export async function verifyJwtSignature(
  provider: InternalOAuthProvider,
  meta: ServerMetadata,
  jwt: string,
): Promise<JWTPayload> {
  // Algorithm confusion: a client that receives asymmetrically signed ID tokens (the default,
  // RS256) takes no MAC with its client secret as the OP's word; anyone else who learns the
  // secret could forge logout tokens. HMAC only for a client registered for HS* ID tokens.
  const registered = provider.client?.id_token_signed_response_alg;
  const hmacAllowed = typeof registered === "string" && registered.startsWith("HS");
  const { alg } = decodeProtectedHeader(jwt);
  if (!hmacAllowed && typeof alg === "string" && alg.startsWith("HS"))
    throw new TypeError(
      `Provider "${provider.id}" signs with its keys (id_token_signed_response_alg is not HS*): a ${alg} JWT is refused.`,
    );
  if (!hmacAllowed || !(await verifiedWithClientSecret(provider, jwt, "JWT"))) {
    const jwksUri = meta.as.jwks_uri;
    if (!jwksUri) throw new TypeError(`Provider "${provider.id}" publishes no jwks_uri.`);
    const fetcher = fetchOf(provider);
    let byUri = remoteKeySets.get(fetcher);
    if (!byUri) {
      byUri = new Map();
      remoteKeySets.set(fetcher, byUri);
    }
    let keySet = byUri.get(jwksUri);
    if (!keySet) {
      keySet = createRemoteJWKSet(new URL(jwksUri), {
        [joseCustomFetch]: (url, init) => fetcher(url, init),
        timeoutDuration: PROVIDER_TIMEOUT_SECONDS * 1000,
      });
      byUri.set(jwksUri, keySet);
    }
    await compactVerify(jwt, keySet, { algorithms: JWKS_ALGORITHMS });
  }
  return decodeJwt(jwt);
}
