/**
 * OpenID Connect Relying Party conformance: the OpenID Foundation's RP test modules
 * (`oidcc-client-test-*`, Basic RP and Config RP plans and the other code-flow modules) and
 * Tessera's own cases (`tessera-rp-*`), reproduced against a local OP that misbehaves on purpose
 * (test-op.ts). Each test is named after its module and drives a whole sign-in through `Auth()`
 * like a browser: a positive module must end with a session for the OP's user, a negative one
 * with no session and the sign-in page's documented error (`?error=OAuthCallbackError`, or
 * `?error=OAuthSignin` when the sign-in cannot start), refused for the reason the module tests.
 * The modules and their expected outcomes live in modules.ts, which also feeds
 * docs/oidc-conformance.md.
 */
import type { AuthConfig } from "@tessera/core";
import { customFetch, getAccessToken } from "@tessera/core";
import { RefreshTokenError } from "@tessera/core/errors";
import type { OIDCConfig } from "@tessera/core/providers";
import { MemoryAdapter } from "@tessera/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, ORIGIN, recordingLogger, SECRET } from "../helpers.js";
import {
  type ApplicableModuleId,
  CONFORMANCE_MODULES,
  isApplicable,
  type Outcome,
  type Plan,
} from "./modules.js";
import {
  type Behaviour,
  CLIENT_ID,
  CLIENT_SECRET,
  ENDPOINTS,
  ISSUER,
  leftHalfHash,
  type SigningKey,
  startTestOp,
  type TestOp,
  USER,
} from "./test-op.js";

let op: TestOp;
beforeAll(async () => {
  op = await startTestOp();
});
afterAll(() => op?.close());

const CALLBACK_URL = `${ORIGIN}/dashboard`;
const SIGNIN_PAGE = `${ORIGIN}/auth/signin`;

/**
 * How the OP returns the authorization response: in the redirect's query, or as a form POST
 * (`response_mode=form_post`, the Form Post Basic RP plan), for the module being run.
 */
let responseMode: "query" | "form_post" = "query";

/** One Relying Party: a Tessera config with the conformance OP as provider `op`. */
interface RelyingParty {
  config: AuthConfig;
  log: ReturnType<typeof recordingLogger>;
}

/**
 * Starts a case at the OP and configures Tessera for it. The provider is configured by issuer
 * (discovery) with PKCE, state and nonce; `overrides` change the provider, `configOverrides`
 * the rest of the configuration.
 */
function relyingParty(
  behaviour: Behaviour = {},
  overrides: Partial<OIDCConfig> = {},
  configOverrides: Partial<AuthConfig> = {},
): RelyingParty {
  const fetcher = op.behave(behaviour);
  const log = recordingLogger();
  const provider: OIDCConfig = {
    id: "op",
    name: "Conformance OP",
    type: "oidc",
    issuer: ISSUER,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    checks: ["pkce", "state", "nonce"],
    ...(responseMode === "form_post" && {
      authorization: { params: { response_mode: "form_post" } },
    }),
    [customFetch]: fetcher,
    ...overrides,
  };
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    providers: [provider],
    callbacks: {
      // The account id (the OP's `sub`) in the session, to check who signed in.
      // (Database sessions, used by the refresh modules, have no token.)
      session: ({ session, token }) =>
        token ? { ...session, user: { ...session.user, id: token.sub } } : session,
    },
    ...configOverrides,
  };
  return { config, log };
}

/** How one sign-in went. */
interface SignIn {
  outcome: Outcome | `unexpected: ${string}`;
  /** The authorization request Tessera sent the browser to, when it got that far. */
  authorizationUrl?: URL;
  /** The OP's redirect back to Tessera. */
  callbackUrl?: URL;
  session: { user?: Record<string, unknown> } | null;
  /** The messages of the last logged error and its causes. */
  error: string;
  /** Where the sign-in ended. */
  location: string;
  /** The browser, with its cookies. */
  client: Client;
}

function errorChain(log: RelyingParty["log"]): string {
  const parts: string[] = [];
  let current: unknown = log.errors.at(-1);
  for (let depth = 0; current instanceof Error && depth < 6; depth++) {
    parts.push(current.message);
    const cause: unknown = current.cause;
    current = cause && typeof cause === "object" && "err" in cause ? cause.err : cause;
  }
  return parts.join(" <- ");
}

/** A whole sign-in in a new browser: start, the OP's answer, the callback, the session. */
async function signIn(rp: RelyingParty): Promise<SignIn> {
  const errorsBefore = rp.log.errors.length;
  const client = new Client(rp.config);
  const csrfToken = await client.csrfToken();
  const start = await client.post("/auth/signin/op", { csrfToken, callbackUrl: "/dashboard" });
  let location = new URL(start.headers.get("location") ?? "/", ORIGIN);
  let authorizationUrl: URL | undefined;
  let callbackUrl: URL | undefined;
  if (location.href.startsWith(`${ENDPOINTS.authorization}?`)) {
    authorizationUrl = location;
    callbackUrl = op.authorize(authorizationUrl);
    const formPost = authorizationUrl.searchParams.get("response_mode") === "form_post";
    expect(formPost).toBe(responseMode === "form_post");
    // OAuth 2.0 Form Post Response Mode §2: the parameters arrive as a POST to the redirect URI.
    const callback = formPost
      ? await client.request(`${callbackUrl.origin}${callbackUrl.pathname}`, {
          method: "POST",
          body: callbackUrl.searchParams,
          headers: { "content-type": "application/x-www-form-urlencoded" },
        })
      : await client.get(callbackUrl.href);
    location = new URL(callback.headers.get("location") ?? "/", ORIGIN);
  }
  const session = (await client.session()) as SignIn["session"];
  const error = rp.log.errors.length > errorsBefore ? errorChain(rp.log) : "";
  let outcome: SignIn["outcome"] = `unexpected: ${location.href}, session ${JSON.stringify(session)}, ${error}`;
  if (
    location.href === CALLBACK_URL &&
    session?.user?.id === USER.sub &&
    session.user.email === USER.email
  )
    outcome = "signed-in";
  else if (session === null && location.href === `${SIGNIN_PAGE}?error=OAuthCallbackError`)
    outcome = authorizationUrl ? "refused-at-callback" : outcome;
  else if (session === null && location.href === `${SIGNIN_PAGE}?error=OAuthSignin`)
    outcome = "refused-at-start";
  if (outcome.startsWith("refused")) {
    // The documented error page: the sign-in page, with the banner of the error it was sent with.
    const page = await client.get(location.href);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(
      outcome === "refused-at-start"
        ? "t start signing you in with that provider"
        : "Signing in with that provider didn",
    );
  }
  return {
    outcome,
    session,
    error,
    location: location.href,
    client,
    ...(authorizationUrl && { authorizationUrl }),
    ...(callbackUrl && { callbackUrl }),
  };
}

/** A refusal for the reason the module tests (the logged cause names it). */
function refusedFor(run: SignIn, reason: RegExp): Outcome | string {
  expect(run.error).toMatch(reason);
  return run.outcome;
}

const jwksFetches = (uri: string = ENDPOINTS.jwks) => op.requestsTo(uri).length;

/** The ID token's claims with `changes` applied (`undefined` deletes a claim). */
function withClaims(changes: Record<string, unknown>): Behaviour["claims"] {
  return (claims) => {
    const changed = { ...claims, ...changes };
    for (const [name, value] of Object.entries(changes))
      if (value === undefined) delete changed[name];
    return changed;
  };
}

/** The discovery document announcing `algs` for ID tokens. */
function idTokenAlgs(...algs: string[]): Behaviour["discovery"] {
  return (document) => ({ ...document, id_token_signing_alg_values_supported: algs });
}

/**
 * An invalid-signature module: the same setup signs in when the signature is intact (so the
 * refusal is the signature's doing), then is refused with one bit of the signature flipped.
 */
async function invalidSignature(
  behaviour: Behaviour,
  overrides: Partial<OIDCConfig>,
  reason: RegExp,
): Promise<Outcome | string> {
  const control = await signIn(relyingParty(behaviour, overrides));
  expect(control.outcome).toBe("signed-in");
  const rp = relyingParty({ ...behaviour, corruptSignature: true }, overrides);
  const run = await signIn(rp);
  // A bad signature from a known key is no reason to download the keys again.
  expect(jwksFetches()).toBeLessThanOrEqual(1);
  return refusedFor(run, reason);
}

/** `fetcher`, except that the discovery document answers HTTP 500 (before reaching the OP). */
function failingDiscovery(fetcher: typeof fetch): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) =>
    String(input instanceof Request ? input.url : input) === ENDPOINTS.discovery
      ? new Response("Internal Server Error", { status: 500 })
      : fetcher(input, init)) as typeof fetch;
}

/** `fetcher`, except that userinfo refuses the access token (RFC 6750 §3). */
function unauthorizedUserinfo(fetcher: typeof fetch): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) =>
    String(input instanceof Request ? input.url : input) === ENDPOINTS.userinfo
      ? new Response(null, {
          status: 401,
          headers: { "www-authenticate": 'Bearer error="invalid_token"' },
        })
      : fetcher(input, init)) as typeof fetch;
}

const now = () => Math.floor(Date.now() / 1000);

/**
 * A refresh module: signs in with database sessions (the memory adapter), lets the access token
 * expire, and reads it with `getAccessToken`, which must refresh it. The outcome is "refreshed"
 * when the new access token is returned and stored, "refresh-refused" when the call throws and
 * the refused answer's access token is not stored.
 */
async function refreshAfterSignIn(
  behaviour: Behaviour,
  reason?: RegExp,
): Promise<Outcome | string> {
  const adapter = MemoryAdapter();
  const rp = relyingParty(behaviour, {}, { adapter, session: { strategy: "database" } });
  const first = await signIn(rp);
  expect(first.location).toBe(CALLBACK_URL);
  expect(first.session?.user?.email).toBe(USER.email);
  const signedIn = await adapter.getAccount?.(USER.sub, "op");
  expect(signedIn?.refresh_token).toBeTruthy();
  expect(signedIn?.id_token).toBeTruthy();
  await adapter.updateAccount?.({
    provider: "op",
    providerAccountId: USER.sub,
    expires_at: now() - 5,
  });
  const request = new Request(`${ORIGIN}/api`, {
    headers: { cookie: first.client.cookieHeader() },
  });
  const refreshRequests = () =>
    op.requestsTo(ENDPOINTS.token).filter((r) => r.form.get("grant_type") === "refresh_token");
  let outcome: Outcome | string;
  try {
    const token = await getAccessToken(request, rp.config, "op");
    const stored = await adapter.getAccount?.(USER.sub, "op");
    outcome =
      token?.accessToken && token.accessToken !== signedIn?.access_token
        ? stored?.access_token === token.accessToken
          ? "refreshed"
          : "unexpected: the refreshed access token is not stored"
        : `unexpected: ${JSON.stringify(token)}`;
  } catch (error) {
    const messages: string[] = [];
    for (let current: unknown = error; current instanceof Error; current = current.cause)
      messages.push(current.message);
    expect(messages.join(" <- ")).toMatch(reason ?? /^$/);
    // The refused response's tokens are not stored.
    expect((await adapter.getAccount?.(USER.sub, "op"))?.access_token).toBe(signedIn?.access_token);
    outcome = "refresh-refused";
  }
  expect(refreshRequests()).toHaveLength(1);
  return outcome;
}

/** The ID token claims of refresh responses changed (those of the sign-in left alone). */
function onRefresh(changes: Record<string, unknown>): Behaviour["claims"] {
  return (claims, issued) =>
    issued.grant === "refresh_token" ? (withClaims(changes)?.(claims, issued) ?? claims) : claims;
}
const userinfoProfile: Partial<OIDCConfig> = { idToken: false };

const scenarios: Record<ApplicableModuleId, () => Promise<Outcome | string>> = {
  async "oidcc-client-test"() {
    const rp = relyingParty(
      { clientAuth: "client_secret_post" },
      { client: { token_endpoint_auth_method: "client_secret_post" } },
    );
    const run = await signIn(rp);
    const [tokenRequest] = op.requestsTo(ENDPOINTS.token);
    expect(tokenRequest?.form.get("client_secret")).toBe(CLIENT_SECRET);
    expect(tokenRequest?.headers.has("authorization")).toBe(false);
    expect(run.authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");
    expect(run.authorizationUrl?.searchParams.get("nonce")).toBeTruthy();
    return run.outcome;
  },

  async "oidcc-client-test-client-secret-basic"() {
    const run = await signIn(relyingParty({ clientAuth: "client_secret_basic" }));
    const [tokenRequest] = op.requestsTo(ENDPOINTS.token);
    expect(tokenRequest?.headers.get("authorization")).toMatch(/^Basic /);
    expect(tokenRequest?.form.has("client_secret")).toBe(false);
    return run.outcome;
  },

  async "oidcc-client-test-nonce-invalid"() {
    const run = await signIn(relyingParty({ claims: withClaims({ nonce: "not-the-nonce-sent" }) }));
    return refusedFor(run, /"nonce" claim value/);
  },

  async "oidcc-client-test-invalid-iss"() {
    const run = await signIn(
      relyingParty({ claims: withClaims({ iss: "https://other-op.test" }) }),
    );
    return refusedFor(run, /"iss" \(issuer\) claim value/);
  },

  async "oidcc-client-test-invalid-aud"() {
    const run = await signIn(relyingParty({ claims: withClaims({ aud: "another-client" }) }));
    return refusedFor(run, /"aud" \(audience\) claim value/);
  },

  async "oidcc-client-test-missing-sub"() {
    const run = await signIn(relyingParty({ claims: withClaims({ sub: undefined }) }));
    return refusedFor(run, /"sub" \(subject\) claim missing/);
  },

  async "oidcc-client-test-missing-iat"() {
    const run = await signIn(relyingParty({ claims: withClaims({ iat: undefined }) }));
    return refusedFor(run, /"iat" \(issued at\) claim missing/);
  },

  async "oidcc-client-test-missing-aud"() {
    const run = await signIn(relyingParty({ claims: withClaims({ aud: undefined }) }));
    return refusedFor(run, /"aud" \(audience\) claim missing/);
  },

  async "oidcc-client-test-kid-absent-single-jwks"() {
    const { kid: _kid, ...withoutKid } = op.keys.rs256.jwk;
    const run = await signIn(
      relyingParty({
        jwks: () => [withoutKid],
        header: ({ kid: _omitted, ...header }) => header,
      }),
    );
    return run.outcome;
  },

  async "oidcc-client-test-kid-absent-multiple-jwks"() {
    const run = await signIn(
      relyingParty({
        jwks: () => [op.keys.rs256.jwk, op.keys.rs256Next.jwk],
        header: ({ kid: _omitted, ...header }) => header,
      }),
    );
    // Ambiguity is not a rotation: the keys are not downloaded again.
    expect(jwksFetches()).toBe(1);
    return refusedFor(run, /multiple applicable keys/);
  },

  async "oidcc-client-test-idtoken-sig-rs256"() {
    const rp = relyingParty();
    const run = await signIn(rp);
    const [tokenRequest] = op.requestsTo(ENDPOINTS.token);
    expect(tokenRequest).toBeDefined();
    expect(jwksFetches()).toBe(1);
    return run.outcome;
  },

  async "oidcc-client-test-idtoken-sig-none"() {
    const run = await signIn(
      relyingParty(
        { discovery: idTokenAlgs("RS256", "none"), signer: () => ({ none: true }) },
        { client: { id_token_signed_response_alg: "none" } },
      ),
    );
    return refusedFor(run, /unsupported JWS "alg" identifier/);
  },

  async "oidcc-client-test-invalid-sig-rs256"() {
    return invalidSignature({}, {}, /JWT signature verification failed/);
  },

  async "oidcc-client-test-invalid-sig-es256"() {
    const es256 = (): SigningKey => op.keys.es256;
    return invalidSignature(
      {
        discovery: idTokenAlgs("RS256", "ES256"),
        jwks: () => [op.keys.rs256.jwk, es256().jwk],
        signer: es256,
      },
      { client: { id_token_signed_response_alg: "ES256" } },
      /JWT signature verification failed/,
    );
  },

  async "oidcc-client-test-invalid-sig-hs256"() {
    return invalidSignature(
      { discovery: idTokenAlgs("RS256", "HS256"), signer: () => ({ hmac: CLIENT_SECRET }) },
      { client: { id_token_signed_response_alg: "HS256" } },
      /signature verification failed/,
    );
  },

  async "oidcc-client-test-userinfo-invalid-sub"() {
    const run = await signIn(
      relyingParty({ userinfo: (claims) => ({ ...claims, sub: "mallory-1" }) }, userinfoProfile),
    );
    expect(op.requestsTo(ENDPOINTS.userinfo)).toHaveLength(1);
    return refusedFor(run, /"sub" property value/);
  },

  async "oidcc-client-test-scope-userinfo-claims"() {
    const run = await signIn(
      relyingParty(
        { userinfo: (claims) => ({ ...claims, name: "Alice (from userinfo)" }) },
        userinfoProfile,
      ),
    );
    expect(run.authorizationUrl?.searchParams.get("scope")?.split(" ")).toEqual(
      expect.arrayContaining(["openid", "profile", "email"]),
    );
    expect(run.session?.user?.name).toBe("Alice (from userinfo)");
    return run.outcome;
  },

  async "oidcc-client-test-userinfo-bearer-header"() {
    const run = await signIn(relyingParty({}, userinfoProfile));
    const [request] = op.requestsTo(ENDPOINTS.userinfo);
    expect(request?.method).toBe("GET");
    expect(request?.headers.get("authorization")).toMatch(/^Bearer [0-9a-f]{32}$/);
    return run.outcome;
  },

  async "oidcc-client-test-userinfo-signed"() {
    const run = await signIn(
      relyingParty(
        {
          discovery: (document) => ({
            ...document,
            userinfo_signing_alg_values_supported: ["RS256"],
          }),
          signUserinfo: () => op.keys.rs256,
          userinfo: (claims) => ({ ...claims, name: "Alice (signed userinfo)" }),
        },
        { ...userinfoProfile, client: { userinfo_signed_response_alg: "RS256" } },
      ),
    );
    expect(run.session?.user?.name).toBe("Alice (signed userinfo)");
    return run.outcome;
  },

  async "oidcc-client-test-discovery-openid-config"() {
    const rp = relyingParty();
    const first = await signIn(rp);
    expect(first.outcome).toBe("signed-in");
    const second = await signIn(rp);
    // Discovered once, then cached for the next sign-in.
    expect(op.requestsTo(ENDPOINTS.discovery)).toHaveLength(1);
    expect(op.requestsTo(ENDPOINTS.token)).toHaveLength(2);
    return second.outcome;
  },

  async "oidcc-client-test-discovery-jwks-uri-keys"() {
    const jwksUri = `${ISSUER}/keys/${Math.random().toString(36).slice(2)}`;
    op.server.on(`GET ${jwksUri}`, () => Response.json({ keys: [op.keys.rs256.jwk] }));
    const rp = relyingParty({ discovery: (document) => ({ ...document, jwks_uri: jwksUri }) });
    const runs = [await signIn(rp), await signIn(rp), await signIn(rp)];
    expect(runs.map((run) => run.outcome)).toEqual(["signed-in", "signed-in", "signed-in"]);
    // The keys are read from the discovered jwks_uri, once for the three sign-ins.
    expect(jwksFetches(jwksUri)).toBe(1);
    expect(jwksFetches(ENDPOINTS.jwks)).toBe(0);
    return runs[2]?.outcome ?? "no run";
  },

  async "oidcc-client-test-discovery-issuer-mismatch"() {
    const run = await signIn(
      relyingParty({ discovery: (document) => ({ ...document, issuer: `${ISSUER}/other` }) }),
    );
    expect(op.requestsTo(ENDPOINTS.token)).toHaveLength(0);
    return refusedFor(run, /"issuer" property does not match the expected value/);
  },

  async "oidcc-client-test-signing-key-rotation"() {
    const rp = relyingParty();
    expect((await signIn(rp)).outcome).toBe("signed-in");
    expect(jwksFetches()).toBe(1);
    op.update({
      jwks: () => [op.keys.rs256.jwk, op.keys.rs256Next.jwk],
      signer: () => op.keys.rs256Next,
    });
    const rotated = await signIn(rp);
    expect(jwksFetches()).toBe(2);
    // The refreshed keys are cached in turn.
    expect((await signIn(rp)).outcome).toBe("signed-in");
    expect(jwksFetches()).toBe(2);
    return rotated.outcome;
  },

  async "oidcc-client-test-signing-key-rotation-just-before-signing"() {
    let current = op.keys.rs256;
    const fresh = await op.generateKey("op-rs-fresh", "RS256");
    const rp = relyingParty({ jwks: () => [current.jwk], signer: () => current });
    expect((await signIn(rp)).outcome).toBe("signed-in");
    op.update({
      beforeSigning: () => {
        current = fresh;
      },
    });
    const run = await signIn(rp);
    expect(jwksFetches()).toBe(2);
    return run.outcome;
  },

  async "oidcc-client-test-refresh-token"() {
    return refreshAfterSignIn({});
  },

  async "oidcc-client-test-refresh-token-invalid-issuer"() {
    return refreshAfterSignIn(
      { claims: onRefresh({ iss: "https://other-op.test" }) },
      /"iss" \(issuer\) claim value/,
    );
  },

  async "oidcc-client-test-refresh-token-invalid-sub"() {
    const behaviour = { claims: onRefresh({ sub: "mallory-1" }) };
    // JWT sessions (`refresh: true`) compare with the subject kept in the session.
    const rp = relyingParty(behaviour, { refresh: true }, { oauth: { refreshMargin: 3600 } });
    const { client, location } = await signIn(rp);
    expect(location).toBe(CALLBACK_URL);
    const request = new Request(`${ORIGIN}/api`, { headers: { cookie: client.cookieHeader() } });
    await expect(getAccessToken(request, rp.config, "op")).rejects.toThrow(RefreshTokenError);
    expect(rp.log.errors).toHaveLength(0);
    // Database sessions compare with the subject of the stored ID token.
    return refreshAfterSignIn(behaviour, /ID token for another subject/);
  },

  async "tessera-rp-nonce-missing"() {
    const run = await signIn(relyingParty({ claims: withClaims({ nonce: undefined }) }));
    return refusedFor(run, /"nonce" \(nonce\) claim missing/);
  },

  async "tessera-rp-aud-array-with-azp"() {
    const run = await signIn(
      relyingParty({ claims: withClaims({ aud: [CLIENT_ID, "other-api"], azp: CLIENT_ID }) }),
    );
    return run.outcome;
  },

  async "tessera-rp-aud-array-without-azp"() {
    const run = await signIn(
      relyingParty({ claims: withClaims({ aud: [CLIENT_ID, "other-api"] }) }),
    );
    return refusedFor(run, /additional untrusted audiences/);
  },

  async "tessera-rp-azp-invalid"() {
    const run = await signIn(
      relyingParty({ claims: withClaims({ aud: [CLIENT_ID, "other-api"], azp: "other-api" }) }),
    );
    return refusedFor(run, /"azp" \(authorized party\) claim value/);
  },

  async "tessera-rp-exp-expired"() {
    const run = await signIn(
      relyingParty({ claims: withClaims({ iat: now() - 900, exp: now() - 600 }) }),
    );
    return refusedFor(run, /"exp" \(expiration time\) claim value/);
  },

  async "tessera-rp-exp-missing"() {
    const run = await signIn(relyingParty({ claims: withClaims({ exp: undefined }) }));
    return refusedFor(run, /"exp" \(expiration time\) claim missing/);
  },

  async "tessera-rp-iat-future"() {
    const run = await signIn(
      relyingParty({ claims: withClaims({ iat: now() + 3600, exp: now() + 3900 }) }),
    );
    return refusedFor(run, /"iat" \(issued at\) claim .*future/);
  },

  async "tessera-rp-idtoken-alg-none"() {
    const run = await signIn(relyingParty({ signer: () => ({ none: true }) }));
    return refusedFor(run, /unexpected JWT "alg" header parameter/);
  },

  async "tessera-rp-idtoken-hs256-client-secret"() {
    const hmac = () => ({ hmac: CLIENT_SECRET });
    // The OP's metadata lists RS256 only.
    const byMetadata = await signIn(relyingParty({ signer: hmac }));
    expect(refusedFor(byMetadata, /unexpected JWT "alg" header parameter/)).toBe(
      "refused-at-callback",
    );
    // The OP also supports HS256, but the client registered RS256.
    const run = await signIn(
      relyingParty(
        { discovery: idTokenAlgs("RS256", "HS256"), signer: hmac },
        { client: { id_token_signed_response_alg: "RS256" } },
      ),
    );
    return refusedFor(run, /unexpected JWT "alg" header parameter/);
  },

  async "tessera-rp-forged-key"() {
    const attacker = op.keys.attacker;
    const attackerJwks = "https://attacker.test/jwks";
    op.server.on(attackerJwks, () => Response.json({ keys: [attacker.jwk] }));
    const rp = relyingParty();
    expect((await signIn(rp)).outcome).toBe("signed-in");
    expect(jwksFetches()).toBe(1);

    // The attacker's key offered in the header, under a kid the OP never published.
    const { kid: _kid, ...attackerPublic } = attacker.jwk;
    op.update({
      signer: () => attacker,
      header: (header) => ({ ...header, jwk: attackerPublic, jku: attackerJwks }),
    });
    const forged = await signIn(rp);
    expect(refusedFor(forged, /no applicable keys/)).toBe("refused-at-callback");
    expect(jwksFetches()).toBe(2); // one refresh, in case the OP rotated

    // Under the OP's own kid: the signature fails, and no refresh is due.
    op.update({ header: (header) => ({ ...header, kid: op.keys.rs256.kid }) });
    const sameKid = await signIn(rp);
    expect(refusedFor(sameKid, /JWT signature verification failed/)).toBe("refused-at-callback");

    // More forgeries cause no more downloads, and jku is never followed.
    op.update({ header: (header) => header });
    const again = await signIn(rp);
    expect(jwksFetches()).toBe(2);
    expect(op.requestsTo(attackerJwks)).toHaveLength(0);
    return refusedFor(again, /no applicable keys/);
  },

  async "tessera-rp-discovery-unreachable"() {
    const run = await signIn(relyingParty({}, { [customFetch]: failingDiscovery(op.behave()) }));
    expect(op.requestsTo(ENDPOINTS.discovery)).toHaveLength(0);
    return refusedFor(run, /HTTP status code|discovery/i);
  },

  async "tessera-rp-jwks-unreachable"() {
    const run = await signIn(
      relyingParty({ jwks: () => new Response("Service Unavailable", { status: 503 }) }),
    );
    expect(jwksFetches()).toBe(1);
    return refusedFor(run, /JSON Web Key Set response/);
  },

  async "tessera-rp-userinfo-error"() {
    const refused = await signIn(
      relyingParty({}, { ...userinfoProfile, [customFetch]: unauthorizedUserinfo(op.behave()) }),
    );
    expect(refusedFor(refused, /challenge|WWW-Authenticate/i)).toBe("refused-at-callback");
    const withoutSub = await signIn(
      relyingParty({ userinfo: ({ sub: _sub, ...claims }) => claims }, userinfoProfile),
    );
    return refusedFor(withoutSub, /"sub" property/);
  },

  async "tessera-rp-token-endpoint-error"() {
    const answers: [() => Response, RegExp][] = [
      [() => Response.json({ error: "invalid_grant" }, { status: 400 }), /invalid_grant/],
      [
        () =>
          new Response("<html><body>Internal error</body></html>", {
            status: 500,
            headers: { "content-type": "text/html" },
          }),
        /HTTP status code|JSON/,
      ],
      [() => Response.json({ error: "invalid_client" }), /invalid_client/],
      [() => new Response("not json", { status: 200 }), /JSON/],
    ];
    const outcomes: (Outcome | string)[] = [];
    for (const [answer, reason] of answers) {
      const run = await signIn(relyingParty({ tokenResponse: answer }));
      outcomes.push(refusedFor(run, reason));
    }
    expect(new Set(outcomes).size).toBe(1);
    return outcomes[0] ?? "no run";
  },

  async "tessera-rp-at-hash-valid"() {
    const run = await signIn(
      relyingParty({
        claims: (claims, issued) => ({
          ...claims,
          at_hash: leftHalfHash(issued.accessToken),
          c_hash: leftHalfHash(issued.code),
        }),
      }),
    );
    return run.outcome;
  },

  async "tessera-rp-at-hash-invalid"() {
    const run = await signIn(
      relyingParty({ claims: withClaims({ at_hash: leftHalfHash("another-access-token") }) }),
    );
    return refusedFor(run, /at_hash/);
  },

  async "tessera-rp-c-hash-invalid"() {
    const run = await signIn(
      relyingParty({ claims: withClaims({ c_hash: leftHalfHash("another-code") }) }),
    );
    return refusedFor(run, /c_hash/);
  },

  async "tessera-rp-authorization-response-iss"() {
    const run = await signIn(relyingParty({ announceIssuer: true }));
    expect(run.callbackUrl?.searchParams.get("iss")).toBe(ISSUER);
    return run.outcome;
  },

  async "tessera-rp-authorization-response-iss-invalid"() {
    const run = await signIn(
      relyingParty({
        announceIssuer: true,
        authorizationResponse: (params) => params.set("iss", "https://other-op.test"),
      }),
    );
    // Mix-up: the code never reaches any token endpoint.
    expect(op.requestsTo(ENDPOINTS.token)).toHaveLength(0);
    return refusedFor(run, /"iss" \(issuer\) response parameter value/);
  },

  async "tessera-rp-authorization-response-iss-missing"() {
    const run = await signIn(
      relyingParty({
        announceIssuer: true,
        authorizationResponse: (params) => params.delete("iss"),
      }),
    );
    expect(op.requestsTo(ENDPOINTS.token)).toHaveLength(0);
    return refusedFor(run, /response parameter "iss" \(issuer\) missing/);
  },
};

const OUTCOME_TEXT: Record<Outcome, string> = {
  "signed-in": "signs the user in",
  refreshed: "refreshes the access token",
  "refresh-refused": "refuses the refreshed tokens",
  "refused-at-callback": "refuses the sign-in at the callback (OAuthCallbackError)",
  "refused-at-start": "refuses to start the sign-in (OAuthSignin)",
};

describe("OpenID Connect Relying Party conformance", () => {
  for (const module of CONFORMANCE_MODULES.filter(isApplicable)) {
    it(`${module.id}: ${OUTCOME_TEXT[module.expected]} (${module.spec})`, async () => {
      expect(await scenarios[module.id]()).toBe(module.expected);
    });
    if ((module.plans as readonly Plan[]).includes("Form Post Basic RP"))
      it(`${module.id} with response_mode=form_post: ${OUTCOME_TEXT[module.expected]}`, async () => {
        responseMode = "form_post";
        try {
          expect(await scenarios[module.id]()).toBe(module.expected);
        } finally {
          responseMode = "query";
        }
      });
  }

  it("lists every module once, and runs a scenario for exactly the applicable ones", () => {
    const ids = CONFORMANCE_MODULES.map((module) => module.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(scenarios).sort()).toEqual(
      CONFORMANCE_MODULES.filter(isApplicable)
        .map((module) => module.id)
        .sort(),
    );
  });
});
