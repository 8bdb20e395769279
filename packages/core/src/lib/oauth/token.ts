/**
 * The token request of the authorization code grant (RFC 6749 §4.1.3) and the validation of its
 * response, including the ID token (OIDC Core 1.0 §3.1.3.7): issuer, audience, expiry, nonce and
 * — unlike oauth4webapi's default — its signature against the provider's JWKS; then the ID token
 * checks oauth4webapi leaves to the client (it validates `iss`, `aud`, `azp`, `exp`, the presence
 * of `iat` and `sub`, and the nonce): an `iat` in the future (OIDC Core 1.0 §3.1.3.7 item 10,
 * https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation), the `at_hash` and
 * `c_hash` an OP may include (§3.1.3.8, §3.3.2.11), and the subject a refreshed ID token must
 * keep (§12.2).
 *
 * The signatures of the JWTs an OpenID Provider signs for the client are checked here too: the ID
 * token (OIDC Core 1.0 §3.1.3.7), a signed userinfo response (§5.3.2) and a back-channel logout
 * token (OpenID Connect Back-Channel Logout 1.0 §2.6). HMAC algorithms (`HS256` …) are checked
 * against the client secret (§10.1), the others against the issuer's JWKS, whose rotation is
 * followed (§10.1.1).
 */
import {
  base64url,
  compactVerify,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  type JWTPayload,
  customFetch as joseCustomFetch,
} from "jose";
import * as o from "oauth4webapi";
import { OAuthCallbackError } from "../../errors.js";
import type { LoggerInstance, TokenSet } from "../../types.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import { clientAuthOf, clientOf, fetchOf, httpOptions } from "./client.js";
import {
  matchesIssuerTemplate,
  refreshedServerMetadata,
  type ServerMetadata,
  withIssuer,
} from "./discovery.js";
import { PROVIDER_TIMEOUT_SECONDS } from "./timeout.js";

/** What the token step hands on. */
export interface TokenResult {
  tokens: TokenSet;
  /** Validated ID token claims, when the response carried an ID token. */
  idTokenClaims?: o.IDToken;
}

/** Inputs of the token step. */
export interface TokenRequestInput {
  /** Callback parameters as returned by `validateAuthResponse`. */
  callbackParams: URLSearchParams;
  redirectUri: string;
  codeVerifier?: string;
  nonce?: string;
  state?: string;
}

function jsonResponse(body: unknown, from?: Response): Response {
  return new Response(JSON.stringify(body), {
    status: from?.status ?? 200,
    headers: { "content-type": "application/json" },
  });
}

/**
 * Some providers (GitHub, VK) answer a failed token request with HTTP 200 and an `error` body;
 * RFC 6749 §5.2 requires 400. Re-status it so it is reported as the provider's error.
 */
export async function conformErrorStatus(response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response;
  }
  if (
    body &&
    typeof body === "object" &&
    typeof (body as { error?: unknown }).error === "string" &&
    (body as { access_token?: unknown }).access_token === undefined
  )
    return new Response(JSON.stringify(body), {
      status: 400,
      headers: { "content-type": "application/json" },
    });
  return response;
}

/** The issuer the ID token of `response` must carry, for multi-tenant issuer templates. */
async function metadataForResponse(
  meta: ServerMetadata,
  response: Response,
): Promise<o.AuthorizationServer> {
  if (!meta.issuerTemplate) return meta.as;
  let tid: unknown;
  try {
    const body = (await response.clone().json()) as { id_token?: unknown };
    if (typeof body.id_token === "string") tid = decodeJwt(body.id_token).tid;
  } catch {
    return meta.as;
  }
  if (typeof tid !== "string" || !/^[\w.-]+$/.test(tid)) return meta.as;
  const issuer = meta.issuerTemplate.replace("{tenantid}", tid);
  return matchesIssuerTemplate(meta.issuerTemplate, issuer) ? withIssuer(meta.as, issuer) : meta.as;
}

/**
 * Exchanges the authorization code and validates the token response.
 *
 * @example
 * ```ts
 * const { tokens, idTokenClaims } = await requestTokens(provider, meta, {
 *   callbackParams, redirectUri, codeVerifier, nonce,
 * }, logger)
 * ```
 */
export async function requestTokens(
  provider: InternalOAuthProvider,
  meta: ServerMetadata,
  input: TokenRequestInput,
  logger: LoggerInstance,
): Promise<TokenResult> {
  const client = clientOf(provider);
  let response: Response;
  const custom = provider.token?.request;
  if (custom) {
    const result = await custom({
      provider,
      params: Object.fromEntries(input.callbackParams),
      checks: {
        ...(input.codeVerifier !== undefined && { code_verifier: input.codeVerifier }),
        ...(input.nonce !== undefined && { nonce: input.nonce }),
        ...(input.state !== undefined && { state: input.state }),
      },
      tokens: {},
    });
    const tokens = (result as { tokens?: TokenSet } | undefined)?.tokens;
    if (!tokens || typeof tokens !== "object")
      throw new OAuthCallbackError(`The token.request of "${provider.id}" returned no { tokens }.`);
    // Validated like a real response, so a custom request cannot skip the ID token checks.
    response = jsonResponse({ token_type: "bearer", ...tokens });
  } else {
    response = await o.authorizationCodeGrantRequest(
      meta.as,
      client,
      clientAuthOf(provider),
      input.callbackParams,
      input.redirectUri,
      input.codeVerifier ?? o.nopkce,
      { ...httpOptions(provider), additionalParameters: provider.token?.params ?? {} },
    );
  }
  if (provider.token?.conform)
    response = (await provider.token.conform(response.clone())) ?? response;
  response = await conformErrorStatus(response);

  const as = await metadataForResponse(meta, response);
  const processed = await o.processAuthorizationCodeResponse(as, client, response, {
    // ID token replay defence (OIDC Core 1.0 §3.1.2.1): the nonce must be the one we sent.
    expectedNonce: input.nonce ?? o.expectNoNonce,
    requireIdToken: provider.type === "oidc",
  });
  const idTokenClaims = o.getValidatedIdTokenClaims(processed);
  // Pre-minted token replay (OIDC Core 1.0 §3.1.3.7 item 10): oauth4webapi checks only iat's type.
  if (idTokenClaims) checkIssuedAt(idTokenClaims);
  if (processed.id_token)
    await verifyJwsSignature(provider, meta, as, response, processed.id_token, {
      what: "ID token",
      // OIDC Core 1.0 §3.1.3.7 item 6: from the token endpoint over TLS, TLS stands in.
      onUnchecked: () =>
        logger.debug("id_token_signature_not_checked", {
          provider: provider.id,
          reason: "no jwks_uri (set `jwks_endpoint` or an issuer with discovery)",
        }),
    });
  // Access token and code substitution (OIDC Core 1.0 §3.1.3.8, §3.3.2.11): hashes the OP
  // included must match; oauth4webapi does not check them in the code flow.
  if (processed.id_token && idTokenClaims)
    await checkTokenHashes(processed.id_token, idTokenClaims, {
      accessToken: processed.access_token,
      code: input.callbackParams.get("code"),
    });

  const tokens: TokenSet = { ...(processed as unknown as TokenSet) };
  if (typeof processed.expires_in === "number")
    tokens.expires_at = Math.floor(Date.now() / 1000) + processed.expires_in;
  return { tokens, ...(idTokenClaims && { idTokenClaims }) };
}

// ID token checks oauth4webapi leaves to the client.

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

// --- signatures of the JWTs the provider signs --------------------------------------------------

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
