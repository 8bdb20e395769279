/**
 * The OpenID Foundation's Relying Party test modules (`oidcc-client-test-*`) as Tessera runs them,
 * plus the cases of Tessera's own that the Foundation's plans leave out (`tessera-rp-*`). Each
 * entry says what the module checks and what Tessera must end with; a module that does not apply
 * says why. conformance.test.ts runs one test per applicable module and asserts the outcome given
 * here (a second one with `response_mode=form_post` for the Form Post Basic RP plan's modules); scripts/oidc-conformance-doc.mjs renders this list as docs/oidc-conformance.md. This file
 * holds data only (no imports), so that the script can load it on its own.
 */

/** How a sign-in ends. */
export type Outcome =
  /** A session exists, for the user the OP authenticated. */
  | "signed-in"
  /** The callback fails: no session, redirect to `<signIn page>?error=OAuthCallbackError`. */
  | "refused-at-callback"
  /** The sign-in does not start: no session, redirect to `<signIn page>?error=OAuthSignin`. */
  | "refused-at-start"
  /** After a sign-in, `getAccessToken` refreshes the expired access token and stores the new one. */
  | "refreshed"
  /** `getAccessToken` throws, and nothing of the refused answer is stored on the account. */
  | "refresh-refused";

/** The Foundation's RP test plans a module belongs to (and Tessera's own cases). */
export type Plan =
  | "Basic RP"
  | "Form Post Basic RP"
  | "Config RP"
  | "Dynamic RP"
  | "Implicit RP"
  | "Hybrid RP"
  | "Refresh token RP"
  | "3rd party initiated login RP"
  | "not in a certification plan"
  | "Tessera";

interface ModuleCommon {
  /** The module's test name (`oidcc-client-test-…`), or `tessera-rp-…` for Tessera's own. */
  id: string;
  plans: readonly Plan[];
  /** What the OP does in the module, and what the RP must do. */
  checks: string;
}

/** A module Tessera runs. */
export interface ApplicableModule extends ModuleCommon {
  expected: Outcome;
  /** The rule the module tests. */
  spec: string;
}

/** A module that does not apply to Tessera's code-flow Relying Party. */
export interface InapplicableModule extends ModuleCommon {
  notApplicable: string;
}

export type ConformanceModule = ApplicableModule | InapplicableModule;

export const CONFORMANCE_MODULES = [
  // Basic RP
  {
    id: "oidcc-client-test",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks:
      "Code flow with PKCE, state and nonce; the client authenticates with client_secret_post (the variant run here); the profile comes from the ID token.",
    spec: "OIDC Core 1.0 §3.1",
    expected: "signed-in",
  },
  {
    id: "oidcc-client-test-client-secret-basic",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks: "The client authenticates at the token endpoint with HTTP Basic (client_secret_basic).",
    spec: "OIDC Core 1.0 §9, RFC 6749 §2.3.1",
    expected: "signed-in",
  },
  {
    id: "oidcc-client-test-nonce-invalid",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks: "The ID token carries a nonce other than the one sent; the RP must reject it.",
    spec: "OIDC Core 1.0 §3.1.3.7 item 11",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-invalid-iss",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks: "The ID token's iss is not the OP's issuer.",
    spec: "OIDC Core 1.0 §3.1.3.7 item 2",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-invalid-aud",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks: "The ID token's aud is another client.",
    spec: "OIDC Core 1.0 §3.1.3.7 item 3",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-missing-sub",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks: "The ID token has no sub.",
    spec: "OIDC Core 1.0 §2",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-missing-iat",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks: "The ID token has no iat.",
    spec: "OIDC Core 1.0 §2",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-kid-absent-single-jwks",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks:
      "The ID token's header has no kid and the JWKS holds one key: the RP must use that key.",
    spec: "OIDC Core 1.0 §10.1",
    expected: "signed-in",
  },
  {
    id: "oidcc-client-test-kid-absent-multiple-jwks",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks:
      "The ID token's header has no kid and the JWKS holds two keys of its type. The module accepts either outcome; Tessera refuses, as it cannot tell which key the OP meant.",
    spec: "OIDC Core 1.0 §10.1",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-idtoken-sig-rs256",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks: "The ID token is signed with RS256, the key found in the JWKS by its kid.",
    spec: "OIDC Core 1.0 §3.1.3.7 item 6",
    expected: "signed-in",
  },
  {
    id: "oidcc-client-test-idtoken-sig-none",
    plans: ["Basic RP", "Form Post Basic RP", "Config RP", "Dynamic RP"],
    checks:
      'The client registered id_token_signed_response_alg "none" and the ID token is unsigned. The module accepts either outcome; Tessera refuses an unsigned ID token whenever the OP publishes a JWKS.',
    spec: "OIDC Core 1.0 §3.1.3.7 item 7",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-invalid-sig-rs256",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks: "The RS256 signature of the ID token is invalid.",
    spec: "OIDC Core 1.0 §3.1.3.7 item 6",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-userinfo-invalid-sub",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks:
      "Userinfo answers for another sub than the ID token's (run with `idToken: false`, so that the profile is read from userinfo).",
    spec: "OIDC Core 1.0 §5.3.2",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-nonce-unless-code-flow",
    plans: ["Implicit RP", "Hybrid RP"],
    checks: "Implicit and hybrid flows must send a nonce.",
    notApplicable:
      "Tessera runs the code flow only; it sends a nonce when the provider's checks include it.",
  },
  {
    id: "oidcc-client-test-scope-userinfo-claims",
    plans: ["Basic RP", "Form Post Basic RP"],
    checks:
      "The RP asks for the profile and email scopes and reads the claims from userinfo (`idToken: false`).",
    spec: "OIDC Core 1.0 §5.3, §5.4",
    expected: "signed-in",
  },
  // Config RP
  {
    id: "oidcc-client-test-discovery-openid-config",
    plans: ["Config RP", "Dynamic RP"],
    checks:
      "The RP learns the endpoints from the discovery document of the configured issuer (once, then cached).",
    spec: "OpenID Connect Discovery 1.0 §4",
    expected: "signed-in",
  },
  {
    id: "oidcc-client-test-discovery-jwks-uri-keys",
    plans: ["Config RP", "Dynamic RP"],
    checks:
      "The RP fetches the keys from the discovery document's jwks_uri (a path that changes each run), once for several sign-ins.",
    spec: "OpenID Connect Discovery 1.0 §3 (jwks_uri)",
    expected: "signed-in",
  },
  {
    id: "oidcc-client-test-discovery-issuer-mismatch",
    plans: ["Config RP", "Dynamic RP"],
    checks: "The discovery document names another issuer than the one it was fetched for.",
    spec: "OpenID Connect Discovery 1.0 §4.3",
    expected: "refused-at-start",
  },
  {
    id: "oidcc-client-test-signing-key-rotation",
    plans: ["Config RP", "Dynamic RP"],
    checks:
      "After a first sign-in the OP signs with a new key that only a fresh JWKS holds: the RP fetches the JWKS once more, then signs in.",
    spec: "OIDC Core 1.0 §10.1.1",
    expected: "signed-in",
  },
  {
    id: "oidcc-client-test-signing-key-rotation-just-before-signing",
    plans: ["Config RP", "Dynamic RP"],
    checks:
      "The OP replaces its key right before signing the ID token, after the RP cached the JWKS: the RP fetches the JWKS once more, then signs in.",
    spec: "OIDC Core 1.0 §10.1.1",
    expected: "signed-in",
  },
  // Dynamic RP
  {
    id: "oidcc-client-test-discovery-webfinger-acct",
    plans: ["Dynamic RP"],
    checks: "The RP finds the issuer of an acct: identifier by WebFinger.",
    notApplicable:
      "Tessera is configured with the provider's issuer; it does not look issuers up by WebFinger.",
  },
  {
    id: "oidcc-client-test-discovery-webfinger-url",
    plans: ["Dynamic RP"],
    checks: "The RP finds the issuer of a URL identifier by WebFinger.",
    notApplicable:
      "Tessera is configured with the provider's issuer; it does not look issuers up by WebFinger.",
  },
  {
    id: "oidcc-client-test-dynamic-registration",
    plans: ["Dynamic RP"],
    checks: "The RP registers itself at the OP's registration endpoint.",
    notApplicable:
      "Tessera's clients are registered in advance; the client id and secret come from the configuration.",
  },
  {
    id: "oidcc-client-test-request-uri-signed-none",
    plans: ["Dynamic RP"],
    checks: "The RP sends its authorization request as an unsigned request object by reference.",
    notApplicable: "Tessera sends plain authorization requests; it makes no request objects.",
  },
  {
    id: "oidcc-client-test-request-uri-signed-rs256",
    plans: ["Dynamic RP"],
    checks: "The RP sends its authorization request as a signed request object by reference.",
    notApplicable: "Tessera sends plain authorization requests; it makes no request objects.",
  },
  {
    id: "oidcc-client-test-userinfo-signed",
    plans: ["Dynamic RP"],
    checks:
      "Userinfo answers with a JWT signed with RS256 (userinfo_signed_response_alg registered); the RP checks its signature.",
    spec: "OIDC Core 1.0 §5.3.2",
    expected: "signed-in",
  },
  // Implicit and hybrid RP
  {
    id: "oidcc-client-test-invalid-athash",
    plans: ["Implicit RP", "Hybrid RP"],
    checks: "The at_hash of an ID token from the authorization endpoint is wrong.",
    notApplicable:
      "Implicit and hybrid flows only. In the code flow Tessera checks at_hash whenever the ID token carries one: see tessera-rp-at-hash-invalid.",
  },
  {
    id: "oidcc-client-test-missing-athash",
    plans: ["Implicit RP", "Hybrid RP"],
    checks: "An ID token from the authorization endpoint lacks at_hash.",
    notApplicable: "Implicit and hybrid flows only; in the code flow at_hash is optional.",
  },
  {
    id: "oidcc-client-test-invalid-chash",
    plans: ["Hybrid RP"],
    checks: "The c_hash of an ID token from the authorization endpoint is wrong.",
    notApplicable:
      "Hybrid flow only. In the code flow Tessera checks c_hash whenever the ID token carries one: see tessera-rp-c-hash-invalid.",
  },
  {
    id: "oidcc-client-test-missing-chash",
    plans: ["Hybrid RP"],
    checks: "An ID token from the authorization endpoint lacks c_hash.",
    notApplicable: "Hybrid flow only; in the code flow c_hash is optional.",
  },
  // Outside the certification plans
  {
    id: "oidcc-client-test-missing-aud",
    plans: ["not in a certification plan"],
    checks: "The ID token has no aud.",
    spec: "OIDC Core 1.0 §2",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-invalid-sig-hs256",
    plans: ["not in a certification plan"],
    checks:
      "The client registered HS256 (id_token_signed_response_alg); the ID token's HMAC with the client secret is invalid.",
    spec: "OIDC Core 1.0 §3.1.3.7 item 6, §10.1",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-invalid-sig-es256",
    plans: ["not in a certification plan"],
    checks: "The client registered ES256; the ID token's ES256 signature is invalid.",
    spec: "OIDC Core 1.0 §3.1.3.7 item 6",
    expected: "refused-at-callback",
  },
  {
    id: "oidcc-client-test-userinfo-bearer-header",
    plans: ["not in a certification plan"],
    checks:
      "The RP sends the access token to userinfo in the Authorization header (`idToken: false`).",
    spec: "OIDC Core 1.0 §5.3.1, RFC 6750 §2.1",
    expected: "signed-in",
  },
  {
    id: "oidcc-client-test-userinfo-bearer-body",
    plans: ["not in a certification plan"],
    checks: "The RP sends the access token to userinfo in a form-encoded POST body.",
    notApplicable:
      "Tessera sends the access token in the Authorization header (RFC 6750 §2.1), the method every OP must accept; the form-body method (§2.2) is not implemented.",
  },
  {
    id: "oidcc-client-test-aggregated-claims",
    plans: ["not in a certification plan"],
    checks: "Userinfo carries aggregated claims (_claim_names, _claim_sources with a JWT).",
    notApplicable:
      "Tessera does not resolve aggregated claims (OIDC Core 1.0 §5.6.2 leaves it optional); the profile keeps them as the OP sent them.",
  },
  {
    id: "oidcc-client-test-distributed-claims",
    plans: ["not in a certification plan"],
    checks: "Userinfo carries distributed claims, to be fetched from another endpoint.",
    notApplicable:
      "Tessera does not fetch distributed claims (OIDC Core 1.0 §5.6.2 leaves it optional); the profile keeps the references as the OP sent them.",
  },
  {
    id: "oidcc-client-test-refresh-token",
    plans: ["Refresh token RP"],
    checks:
      "After a sign-in (database sessions), the access token expires: `getAccessToken` refreshes it with the refresh token grant and stores the new tokens.",
    spec: "RFC 6749 §6, OIDC Core 1.0 §12",
    expected: "refreshed",
  },
  {
    id: "oidcc-client-test-refresh-token-invalid-issuer",
    plans: ["Refresh token RP"],
    checks: "The ID token of the refresh response names another issuer.",
    spec: "OIDC Core 1.0 §12.2",
    expected: "refresh-refused",
  },
  {
    id: "oidcc-client-test-refresh-token-invalid-sub",
    plans: ["Refresh token RP"],
    checks:
      "The ID token of the refresh response names another subject than the sign-in's ID token (token substitution).",
    spec: "OIDC Core 1.0 §12.2",
    expected: "refresh-refused",
  },
  {
    id: "oidcc-client-test-3rd-party-init-login",
    plans: ["3rd party initiated login RP"],
    checks: "The OP starts the sign-in by sending the browser to the RP's initiate_login_uri.",
    notApplicable:
      "Tessera has no initiate_login_uri endpoint (OIDC Core 1.0 §4 is optional); sign-ins start at POST /signin/<provider> with the CSRF token.",
  },
  // Tessera's own cases
  {
    id: "tessera-rp-nonce-missing",
    plans: ["Tessera"],
    checks: "A nonce was sent and the ID token carries none (a token minted for another request).",
    spec: "OIDC Core 1.0 §3.1.3.7 item 11",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-aud-array-with-azp",
    plans: ["Tessera"],
    checks: "The ID token's aud lists the client and another audience, and azp names the client.",
    spec: "OIDC Core 1.0 §3.1.3.7 items 3–5",
    expected: "signed-in",
  },
  {
    id: "tessera-rp-aud-array-without-azp",
    plans: ["Tessera"],
    checks: "The ID token's aud lists the client and an untrusted audience, without azp.",
    spec: "OIDC Core 1.0 §3.1.3.7 items 3–4",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-azp-invalid",
    plans: ["Tessera"],
    checks: "The ID token's aud lists the client and another audience; azp names the other one.",
    spec: "OIDC Core 1.0 §3.1.3.7 item 5",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-exp-expired",
    plans: ["Tessera"],
    checks: "The ID token's exp is in the past (a replayed old token).",
    spec: "OIDC Core 1.0 §3.1.3.7 item 9",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-exp-missing",
    plans: ["Tessera"],
    checks: "The ID token has no exp (a token valid forever).",
    spec: "OIDC Core 1.0 §2",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-iat-future",
    plans: ["Tessera"],
    checks:
      "The ID token's iat is an hour in the future (a token minted ahead for later use, or a broken OP clock).",
    spec: "OIDC Core 1.0 §3.1.3.7 item 10",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-idtoken-alg-none",
    plans: ["Tessera"],
    checks:
      'The ID token\'s signature is stripped (alg "none") while the OP signs with RS256 (signature stripping).',
    spec: "OIDC Core 1.0 §3.1.3.7 items 6–7",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-idtoken-hs256-client-secret",
    plans: ["Tessera"],
    checks:
      "The ID token is an HS256 MAC with the client secret where RS256 is expected, by the OP's metadata or the client's registration (algorithm confusion).",
    spec: "OIDC Core 1.0 §3.1.3.7 item 7, §10.1",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-forged-key",
    plans: ["Tessera"],
    checks:
      "The ID token is signed with a key the OP never published, offered in its jwk and jku headers: the RP fetches the JWKS once more, refuses, never reads jku, and later forgeries cause no further JWKS fetch.",
    spec: "OIDC Core 1.0 §10.1.1, RFC 8725 §3.10",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-discovery-unreachable",
    plans: ["Tessera"],
    checks: "The discovery document answers HTTP 500: the user is not sent to the OP.",
    spec: "OpenID Connect Discovery 1.0 §4.2",
    expected: "refused-at-start",
  },
  {
    id: "tessera-rp-jwks-unreachable",
    plans: ["Tessera"],
    checks: "The discovery document's jwks_uri answers HTTP 503.",
    spec: "OIDC Core 1.0 §3.1.3.7 item 6",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-userinfo-error",
    plans: ["Tessera"],
    checks:
      "Userinfo refuses the access token (401 with a Bearer challenge), or answers without sub (`idToken: false`).",
    spec: "OIDC Core 1.0 §5.3.3, RFC 6750 §3",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-token-endpoint-error",
    plans: ["Tessera"],
    checks:
      "The token endpoint answers an error: 400 invalid_grant, 500 with an HTML page, 200 with an error body, a non-JSON body.",
    spec: "RFC 6749 §5.2",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-at-hash-valid",
    plans: ["Tessera"],
    checks: "The ID token carries a correct at_hash and c_hash.",
    spec: "OIDC Core 1.0 §3.1.3.8, §3.3.2.11",
    expected: "signed-in",
  },
  {
    id: "tessera-rp-at-hash-invalid",
    plans: ["Tessera"],
    checks: "The ID token's at_hash does not match the access token (access token substitution).",
    spec: "OIDC Core 1.0 §3.1.3.8",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-c-hash-invalid",
    plans: ["Tessera"],
    checks: "The ID token's c_hash does not match the authorization code (code substitution).",
    spec: "OIDC Core 1.0 §3.3.2.11",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-authorization-response-iss",
    plans: ["Tessera"],
    checks:
      "The OP announces authorization_response_iss_parameter_supported and sends its issuer as iss.",
    spec: "RFC 9207 §2.4",
    expected: "signed-in",
  },
  {
    id: "tessera-rp-authorization-response-iss-invalid",
    plans: ["Tessera"],
    checks: "The authorization response's iss names another issuer (mix-up attack).",
    spec: "RFC 9207 §2.4",
    expected: "refused-at-callback",
  },
  {
    id: "tessera-rp-authorization-response-iss-missing",
    plans: ["Tessera"],
    checks: "The OP announces the iss parameter, and the authorization response lacks it.",
    spec: "RFC 9207 §2.4",
    expected: "refused-at-callback",
  },
] as const satisfies readonly ConformanceModule[];

/** The ids of the modules Tessera runs. */
export type ApplicableModuleId = Extract<
  (typeof CONFORMANCE_MODULES)[number],
  { expected: Outcome }
>["id"];

/** Whether `module` is run (rather than listed as not applicable). */
export function isApplicable<M extends ConformanceModule>(
  module: M,
): module is Extract<M, ApplicableModule> {
  return "expected" in module;
}
