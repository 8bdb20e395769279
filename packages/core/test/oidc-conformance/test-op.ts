/**
 * The OpenID Provider of the conformance suite: a small code-flow OP (discovery, JWKS,
 * authorization, token and userinfo endpoints) on the local provider server
 * (fixtures/provider-server.ts, node:http on 127.0.0.1), with keys and ID tokens made by `jose`.
 * Like the OpenID Foundation's RP test modules, each case tells it how to misbehave: a claim
 * changed or left out, a signature broken, a key missing from the JWKS, a discovery document that
 * names another issuer, an endpoint that fails.
 *
 * The OP does check what a real one checks (client authentication, the code, its redirect URI and
 * PKCE verifier, the bearer token at userinfo), so a positive case proves Tessera spoke the
 * protocol correctly, not merely that the OP accepted anything.
 *
 * @example
 * ```ts
 * const op = await startTestOp()
 * op.behave({ claims: (claims) => ({ ...claims, nonce: "not-the-one-sent" }) })
 * const callback = op.authorize(authorizationUrl) // the OP's redirect back to Tessera
 * ```
 */
import { createHash, randomBytes } from "node:crypto";
import { base64url, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { type ProviderServer, startProviderServer } from "../fixtures/provider-server.js";
import { ORIGIN } from "../helpers.js";

export const ISSUER = "https://op.conformance.test";
export const CLIENT_ID = "tessera-rp";
export const CLIENT_SECRET = "rp-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
/** The redirect URI registered for the client (provider id `op`). */
export const REDIRECT_URI = `${ORIGIN}/auth/callback/op`;
/** The end-user the OP authenticates. */
export const USER = {
  sub: "alice-1",
  email: "alice@example.com",
  email_verified: true,
  name: "Alice Example",
} as const;

export const ENDPOINTS = {
  discovery: `${ISSUER}/.well-known/openid-configuration`,
  authorization: `${ISSUER}/authorize`,
  token: `${ISSUER}/token`,
  userinfo: `${ISSUER}/userinfo`,
  jwks: `${ISSUER}/jwks`,
} as const;

/** A signing key of the OP (or of an attacker), with its public JWK. */
export interface SigningKey {
  kid: string;
  alg: "RS256" | "ES256";
  privateKey: CryptoKey;
  /** The public key as published: `kid`, `alg` and `use` set. */
  jwk: JWK;
}

/** How the ID token is signed. */
export type Signer = SigningKey | { none: true } | { hmac: string };

/** What the token endpoint is about to answer, for a case to change. */
export interface IssuedTokens {
  /** The grant the token request used. */
  grant: "authorization_code" | "refresh_token";
  /** The authorization code redeemed (the empty string for a refresh). */
  code: string;
  accessToken: string;
  refreshToken: string;
  /** The ID token's claims before signing. */
  claims: Record<string, unknown>;
}

/** How the OP misbehaves in one case (all optional: by default it behaves). */
export interface Behaviour {
  /** Changes the discovery document. */
  discovery?: (document: Record<string, unknown>) => Record<string, unknown>;
  /** The JWKS answer: the public keys to publish (default: the RS256 key), or a whole response. */
  jwks?: () => JWK[] | Response;
  /** The client authentication the OP registered for the client (default client_secret_basic). */
  clientAuth?: "client_secret_basic" | "client_secret_post";
  /**
   * Announces the RFC 9207 `iss` authorization response parameter in discovery and sends it
   * (`authorization_response_iss_parameter_supported`).
   */
  announceIssuer?: boolean;
  /** Changes the authorization response's parameters (the redirect back to Tessera). */
  authorizationResponse?: (params: URLSearchParams) => void;
  /** Runs right before the ID token is signed (a key rotation at that moment). */
  beforeSigning?: () => void;
  /** Changes the ID token's claims. */
  claims?: (claims: Record<string, unknown>, issued: IssuedTokens) => Record<string, unknown>;
  /** The key the ID token is signed with (default: the RS256 key). */
  signer?: () => Signer;
  /** Changes the ID token's protected header. */
  header?: (header: Record<string, unknown>) => Record<string, unknown>;
  /** Flips a bit of the ID token's signature. */
  corruptSignature?: boolean;
  /** Replaces the token endpoint's answer (after the request was checked). */
  tokenResponse?: (issued: IssuedTokens & { idToken: string }) => Response;
  /** Changes the userinfo claims. */
  userinfo?: (claims: Record<string, unknown>) => Record<string, unknown>;
  /** Answers userinfo as a JWT signed with this key (OIDC Core 1.0 §5.3.2). */
  signUserinfo?: () => SigningKey;
}

/** The running OP. */
export interface TestOp {
  server: ProviderServer;
  keys: {
    /** The OP's RS256 key (published by default). */
    rs256: SigningKey;
    /** A second RS256 key of the OP (rotation, several keys). */
    rs256Next: SigningKey;
    /** The OP's ES256 key. */
    es256: SigningKey;
    /** A key the OP never publishes. */
    attacker: SigningKey;
  };
  /**
   * Starts a case: sets the behaviour, forgets recorded requests and hands out a new `fetch`, so
   * that no discovery document or JWKS cached by an earlier case is reused.
   */
  behave(behaviour?: Behaviour): typeof fetch;
  /** Changes the behaviour in the middle of a case (a key rotation between two sign-ins). */
  update(changes: Behaviour): void;
  /**
   * The OP's answer to an authorization request: checks it, authenticates the user and returns
   * the redirect to the client's `redirect_uri`.
   */
  authorize(authorizationUrl: URL): URL;
  /** Requests received at one endpoint in the current case. */
  requestsTo(url: string): ProviderServer["requests"];
  /** A new key pair. */
  generateKey(kid: string, alg: SigningKey["alg"]): Promise<SigningKey>;
  close(): Promise<void>;
}

export async function generateSigningKey(kid: string, alg: SigningKey["alg"]): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

/** `at_hash` / `c_hash` of `value` for a SHA-256 algorithm (OIDC Core 1.0 §3.1.3.6). */
export function leftHalfHash(value: string): string {
  const digest = createHash("sha256").update(value).digest();
  return base64url.encode(digest.subarray(0, digest.length / 2));
}

/** The JWS with one bit of its signature flipped. */
export function withCorruptSignature(jws: string): string {
  const [header, payload, signature = ""] = jws.split(".");
  const bytes = base64url.decode(signature);
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  return `${header}.${payload}.${base64url.encode(bytes)}`;
}

async function sign(
  claims: Record<string, unknown>,
  signer: Signer,
  header: (h: Record<string, unknown>) => Record<string, unknown>,
): Promise<string> {
  if ("none" in signer) {
    const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
    return `${encode(header({ alg: "none", typ: "JWT" }))}.${encode(claims)}.`;
  }
  if ("hmac" in signer) {
    const protectedHeader = header({ alg: "HS256", typ: "JWT" });
    return new SignJWT(claims)
      .setProtectedHeader(protectedHeader as { alg: string })
      .sign(new TextEncoder().encode(signer.hmac));
  }
  const protectedHeader = header({ alg: signer.alg, kid: signer.kid, typ: "JWT" });
  return new SignJWT(claims)
    .setProtectedHeader(protectedHeader as { alg: string })
    .sign(signer.privateKey);
}

function error(status: number, code: string): Response {
  return Response.json(
    { error: code },
    { status, headers: { "cache-control": "no-store", pragma: "no-cache" } },
  );
}

interface PendingCode {
  nonce: string | null;
  codeChallenge: string | null;
  redirectUri: string;
  used: boolean;
}

/** Starts the OP on the shared local provider server. */
export async function startTestOp(): Promise<TestOp> {
  const server = await startProviderServer();
  const keys = {
    rs256: await generateSigningKey("op-rs-1", "RS256"),
    rs256Next: await generateSigningKey("op-rs-2", "RS256"),
    es256: await generateSigningKey("op-ec-1", "ES256"),
    attacker: await generateSigningKey("attacker-1", "RS256"),
  };
  let behaviour: Behaviour = {};
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, string>();
  const refreshTokens = new Map<string, { authTime: number }>();

  server.on(`GET ${ENDPOINTS.discovery}`, () => {
    const document: Record<string, unknown> = {
      issuer: ISSUER,
      authorization_endpoint: ENDPOINTS.authorization,
      token_endpoint: ENDPOINTS.token,
      userinfo_endpoint: ENDPOINTS.userinfo,
      jwks_uri: ENDPOINTS.jwks,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["openid", "profile", "email"],
      ...(behaviour.announceIssuer && { authorization_response_iss_parameter_supported: true }),
    };
    return Response.json(behaviour.discovery ? behaviour.discovery(document) : document);
  });

  server.on(`GET ${ENDPOINTS.jwks}`, () => {
    const answer = behaviour.jwks ? behaviour.jwks() : [keys.rs256.jwk];
    return answer instanceof Response ? answer : Response.json({ keys: answer });
  });

  server.on(`POST ${ENDPOINTS.token}`, async (request) => {
    // Client authentication as registered (RFC 6749 §2.3.1, OIDC Core 1.0 §9).
    const registered = behaviour.clientAuth ?? "client_secret_basic";
    const basic = request.headers.get("authorization");
    let id: string | null = null;
    let secret: string | null = null;
    if (registered === "client_secret_basic" && basic?.startsWith("Basic ")) {
      const [user = "", password = ""] = atob(basic.slice(6)).split(":");
      id = decodeURIComponent(user);
      secret = decodeURIComponent(password);
    } else if (registered === "client_secret_post" && !basic) {
      id = request.form.get("client_id");
      secret = request.form.get("client_secret");
    }
    if (id !== CLIENT_ID || secret !== CLIENT_SECRET) return error(401, "invalid_client");

    // The refresh token grant (RFC 6749 §6): a new ID token for the same authentication.
    if (request.form.get("grant_type") === "refresh_token") {
      const grant = refreshTokens.get(request.form.get("refresh_token") ?? "");
      if (!grant) return error(400, "invalid_grant");
      return issue("refresh_token", "", grant.authTime, null);
    }
    const code = request.form.get("code") ?? "";
    const pending = codes.get(code);
    if (request.form.get("grant_type") !== "authorization_code" || !pending || pending.used)
      return error(400, "invalid_grant");
    pending.used = true;
    if (request.form.get("redirect_uri") !== pending.redirectUri)
      return error(400, "invalid_grant");
    const verifier = request.form.get("code_verifier");
    if (pending.codeChallenge !== null) {
      const challenge = verifier
        ? base64url.encode(createHash("sha256").update(verifier).digest())
        : null;
      if (challenge !== pending.codeChallenge) return error(400, "invalid_grant");
    }
    return issue("authorization_code", code, Math.floor(Date.now() / 1000), pending.nonce);
  });

  /** The token response: a new access token, the refresh token and an ID token. */
  async function issue(
    grant: IssuedTokens["grant"],
    code: string,
    authTime: number,
    nonce: string | null,
  ): Promise<Response> {
    const accessToken = randomBytes(16).toString("hex");
    const refreshToken = randomBytes(16).toString("hex");
    accessTokens.set(accessToken, USER.sub);
    refreshTokens.set(refreshToken, { authTime });
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: ISSUER,
      sub: USER.sub,
      aud: CLIENT_ID,
      iat: now,
      exp: now + 300,
      auth_time: authTime,
      ...(nonce !== null && { nonce }),
      email: USER.email,
      email_verified: USER.email_verified,
      name: USER.name,
    };
    const issued: IssuedTokens = { grant, code, accessToken, refreshToken, claims };
    const finalClaims = behaviour.claims ? behaviour.claims(claims, issued) : claims;
    behaviour.beforeSigning?.();
    let idToken = await sign(
      finalClaims,
      behaviour.signer?.() ?? keys.rs256,
      behaviour.header ?? ((h) => h),
    );
    if (behaviour.corruptSignature) idToken = withCorruptSignature(idToken);
    if (behaviour.tokenResponse)
      return behaviour.tokenResponse({ ...issued, claims: finalClaims, idToken });
    return Response.json(
      {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: 300,
        refresh_token: refreshToken,
        id_token: idToken,
      },
      { headers: { "cache-control": "no-store", pragma: "no-cache" } },
    );
  }

  server.on(`GET ${ENDPOINTS.userinfo}`, async (request) => {
    // RFC 6750 §2.1: the access token in the Authorization header.
    const bearer = request.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1];
    const sub = bearer ? accessTokens.get(bearer) : undefined;
    if (!sub)
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": 'Bearer error="invalid_token"' },
      });
    const base: Record<string, unknown> = {
      sub,
      email: USER.email,
      email_verified: USER.email_verified,
      name: USER.name,
      given_name: "Alice",
      family_name: "Example",
    };
    const claims = behaviour.userinfo ? behaviour.userinfo(base) : base;
    const key = behaviour.signUserinfo?.();
    if (!key) return Response.json(claims);
    const jwt = await new SignJWT({ ...claims, iss: ISSUER, aud: CLIENT_ID })
      .setProtectedHeader({ alg: key.alg, kid: key.kid })
      .sign(key.privateKey);
    return new Response(jwt, { headers: { "content-type": "application/jwt" } });
  });

  return {
    server,
    keys,
    behave(next = {}) {
      behaviour = next;
      server.requests.length = 0;
      codes.clear();
      accessTokens.clear();
      refreshTokens.clear();
      return ((input: string | URL | Request, init?: RequestInit) =>
        server.fetch(input, init)) as typeof fetch;
    },
    update(changes) {
      behaviour = { ...behaviour, ...changes };
    },
    authorize(authorizationUrl) {
      const query = authorizationUrl.searchParams;
      const redirectUri = query.get("redirect_uri");
      if (`${authorizationUrl.origin}${authorizationUrl.pathname}` !== ENDPOINTS.authorization)
        throw new Error(`Not the OP's authorization endpoint: ${authorizationUrl.href}`);
      if (
        query.get("client_id") !== CLIENT_ID ||
        query.get("response_type") !== "code" ||
        !query.get("scope")?.split(" ").includes("openid") ||
        redirectUri !== REDIRECT_URI
      )
        throw new Error(`Invalid authorization request: ${authorizationUrl.search}`);
      if (query.has("code_challenge") && query.get("code_challenge_method") !== "S256")
        throw new Error("PKCE without S256");
      const code = randomBytes(16).toString("hex");
      codes.set(code, {
        nonce: query.get("nonce"),
        codeChallenge: query.get("code_challenge"),
        redirectUri: REDIRECT_URI,
        used: false,
      });
      const params = new URLSearchParams({ code });
      const state = query.get("state");
      if (state !== null) params.set("state", state);
      // RFC 9207 §2: the issuer identifier in the response, when the OP announces it.
      if (behaviour.announceIssuer) params.set("iss", ISSUER);
      behaviour.authorizationResponse?.(params);
      const callback = new URL(REDIRECT_URI);
      callback.search = params.toString();
      return callback;
    },
    requestsTo: (url) => server.requestsTo(url),
    generateKey: generateSigningKey,
    close: () => server.close(),
  };
}
