/**
 * Access-token refresh with JWT sessions (`refresh: true` providers), against a real OpenID
 * Provider (oidc-provider on 127.0.0.1) that rotates refresh tokens and revokes the grant when one
 * is used twice: the tokens kept in the encrypted session JWT, a due access token refreshed by the
 * session read (cookie re-issued), 20 concurrent reads → one refresh, a revoked refresh token →
 * `session.error === "RefreshTokenError"`, and `getAccessToken` reading the JWT.
 *
 * Expiry is simulated by rewriting the `expires_at` inside the session JWT (sealed with the test
 * secret, as time passing would leave it), so no test waits for a token to expire.
 */
import {
  Auth,
  type AuthConfig,
  customFetch,
  getAccessToken,
  revokeJwtSession,
} from "@tessera/core";
import { RefreshTokenError, RefreshUnavailable } from "@tessera/core/errors";
import { decode, encode, type JWT } from "@tessera/core/jwt";
import type { OIDCConfig } from "@tessera/core/providers";
import { memoryStore, type SharedStore } from "@tessera/core/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverCallback, locationOf, startSignIn } from "./fixtures/oauth-flow.js";
import {
  accountPool,
  type RunningOidcProvider,
  signLogoutToken,
  startOidcProvider,
} from "./fixtures/oidc-provider.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { setCookies } from "./set-cookie.js";

const COOKIE = "authjs.session-token";
const CLAIM = "tessera.oauth";
let op: RunningOidcProvider;
/** Each test signs in as its own account of the provider, so tokens and sessions never mix. */
const { accounts, freshHint } = accountPool("jwt-user", "JWT User", 20);

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: [`${ORIGIN}/auth/callback/op`, `${ORIGIN}/auth/callback/plain`],
      },
    ],
    accounts,
    refreshTokens: "rotate",
  });
});
afterAll(() => op?.close());

function provider(overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "op",
    name: "Test OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: "app",
    clientSecret: "app-secret",
    checks: ["pkce", "state", "nonce"],
    refresh: true,
    ...overrides,
  };
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [provider(), provider({ id: "plain", refresh: false })],
    ...overrides,
  };
}

async function signIn(client: Client, hint: string, providerId = "op"): Promise<void> {
  const url = await startSignIn(client, providerId, { authorizationParams: { login_hint: hint } });
  const response = await deliverCallback(client, await op.authorize(url.href));
  expect(locationOf(response).origin).toBe(ORIGIN);
}

/** The account claim of the session JWT in `client`'s jar. */
async function claimOf(client: Client): Promise<Record<string, unknown> | undefined> {
  const token = await decode({ token: client.jar.get(COOKIE), secret: SECRET, salt: COOKIE });
  return token?.[CLAIM] as Record<string, unknown> | undefined;
}

/** Moves the access token's expiry inside `client`'s session JWT into the past. */
async function expire(client: Client): Promise<void> {
  const token = (await decode({
    token: client.jar.get(COOKIE),
    secret: SECRET,
    salt: COOKIE,
  })) as JWT;
  const claim = token[CLAIM] as Record<string, unknown>;
  const { iat: _iat, exp: _exp, jti: _jti, ...rest } = token;
  const expired = { ...rest, [CLAIM]: { ...claim, expires_at: Math.floor(Date.now() / 1000) - 5 } };
  client.jar.set(COOKIE, await encode({ token: expired, secret: SECRET, salt: COOKIE }));
}

const sessionRequest = (client: Client) =>
  new Request(`${ORIGIN}/auth/session`, { headers: { cookie: client.cookieHeader() } });

describe("access tokens of JWT sessions (refresh: true)", () => {
  it("keeps the account's tokens in the encrypted session JWT only for refresh: true providers", async () => {
    const cfg = config();
    const withRefresh = new Client(cfg);
    await signIn(withRefresh, freshHint());
    const claim = await claimOf(withRefresh);
    expect(claim).toMatchObject({ provider: "op", token_type: "bearer" });
    expect(claim?.access_token).toEqual(expect.any(String));
    expect(claim?.refresh_token).toEqual(expect.any(String));
    expect(claim?.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000);
    expect(claim).not.toHaveProperty("id_token");

    const plain = new Client(cfg);
    await signIn(plain, freshHint(), "plain");
    const plainClaim = await claimOf(plain);
    expect(plainClaim).toMatchObject({ provider: "plain" });
    expect(plainClaim).not.toHaveProperty("access_token");
    expect(plainClaim).not.toHaveProperty("refresh_token");
  });

  it("getAccessToken reads a fresh token from the JWT without asking the provider", async () => {
    const cfg = config();
    const client = new Client(cfg);
    await signIn(client, freshHint());
    const before = op.tokenRequests;
    const token = await getAccessToken(sessionRequest(client), cfg, "op");
    expect(token).toMatchObject({
      accessToken: (await claimOf(client))?.access_token,
      tokenType: "bearer",
    });
    expect(op.tokenRequests).toBe(before);
    expect(await getAccessToken(sessionRequest(client), cfg, "plain")).toBeNull();
  });

  it("refreshes an expired access token on the session read and re-issues the cookie with the rotated refresh token", async () => {
    const refreshed: string[] = [];
    const cfg = config({
      events: { tokenRefreshed: ({ account }) => void refreshed.push(account.provider) },
    });
    const client = new Client(cfg);
    await signIn(client, freshHint());
    const old = await claimOf(client);
    await expire(client);
    const response = await client.get("/auth/session");
    expect(setCookies(response).get(COOKIE)?.value).toBeTruthy();
    const session = (await response.json()) as Record<string, unknown>;
    expect(session).not.toHaveProperty("error");
    const now = await claimOf(client);
    expect(now?.access_token).not.toBe(old?.access_token);
    expect(now?.refresh_token).not.toBe(old?.refresh_token);
    expect(now?.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000);
    expect(refreshed).toEqual(["op"]);
    const userinfo = await fetch(`${op.issuer}/me`, {
      headers: { authorization: `Bearer ${now?.access_token}` },
    });
    expect(userinfo.status).toBe(200);
    // The rotated refresh token in the new cookie is the live one.
    await expire(client);
    await client.get("/auth/session");
    expect((await claimOf(client))?.access_token).not.toBe(now?.access_token);
  });

  it("refreshes once for 20 concurrent session reads of one cookie", async () => {
    const cfg = config();
    const client = new Client(cfg);
    await signIn(client, freshHint());
    await expire(client);
    const before = op.tokenRequests;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => Auth(sessionRequest(client), cfg)),
    );
    expect(op.tokenRequests - before).toBe(1);
    const accessTokens = new Set<unknown>();
    for (const response of responses) {
      const value = setCookies(response).get(COOKIE)?.value;
      const token = await decode({ token: value, secret: SECRET, salt: COOKIE });
      accessTokens.add((token?.[CLAIM] as Record<string, unknown>)?.access_token);
    }
    expect(accessTokens.size).toBe(1);
  });

  it("marks the session RefreshTokenError when the refresh token was revoked, and getAccessToken throws", async () => {
    const failures: string[] = [];
    const cfg = config({
      events: { refreshTokenError: ({ account }) => void failures.push(account.provider) },
    });
    const client = new Client(cfg);
    await signIn(client, freshHint());
    const claim = await claimOf(client);
    const revoked = await fetch(`${op.issuer}/token/revocation`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa("app:app-secret")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token: String(claim?.refresh_token) }),
    });
    expect(revoked.status).toBe(200);
    await expire(client);
    const session = await client.session();
    expect(session?.error).toBe("RefreshTokenError");
    expect(session?.user).toBeTruthy();
    expect(failures).toEqual(["op"]);
    // The mark is kept in the cookie: no further token requests.
    const before = op.tokenRequests;
    expect((await client.session())?.error).toBe("RefreshTokenError");
    await expect(getAccessToken(sessionRequest(client), cfg, "op")).rejects.toBeInstanceOf(
      RefreshTokenError,
    );
    expect(op.tokenRequests).toBe(before);
  });

  it("keeps the session when the provider cannot be reached for a refresh, and getAccessToken throws instead of handing out the expired token", async () => {
    const { logger, errors } = recordingLogger();
    const unreachable: typeof fetch = async (input, init) => {
      if (String(init?.body ?? "").includes("grant_type=refresh_token"))
        throw new TypeError("fetch failed (connection refused)");
      return fetch(input, init);
    };
    const cfg = config({ logger, providers: [provider({ [customFetch]: unreachable })] });
    const client = new Client(cfg);
    await signIn(client, freshHint());
    await expire(client);
    const session = await client.session();
    expect(session?.user).toBeTruthy();
    expect(session).not.toHaveProperty("error");
    expect(errors.map((error) => error.message).join()).toContain("connection refused");
    const error = await getAccessToken(sessionRequest(client), cfg, "op").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefreshUnavailable);
    expect((error as Error).message).toMatch(/could not be refreshed now/);
  });

  it("getAccessToken refreshes a due token itself and hands the re-issued cookie to onCookies", async () => {
    const cfg = config();
    const client = new Client(cfg);
    await signIn(client, freshHint());
    const old = await claimOf(client);
    await expire(client);
    const issued: string[] = [];
    const token = await getAccessToken(sessionRequest(client), cfg, "op", {
      onCookies: (cookies) => issued.push(...cookies.map((cookie) => cookie.name)),
    });
    expect(token?.accessToken).not.toBe(old?.access_token);
    expect(issued).toEqual([COOKIE]);
  });
});

describe("getAccessToken passes the same gate as the session read", () => {
  /** A config whose JWT sessions are revocable (`jwt.revocation`), with its store. */
  function revocable(overrides: Partial<AuthConfig> = {}) {
    const store = memoryStore();
    return {
      store,
      cfg: config({ jwt: { revocation: store, revocationCacheSeconds: 0 }, ...overrides }),
    };
  }

  /** A copy of `client`'s cookie jar, as an attacker who stole the cookie holds it. */
  function copyOf(client: Client): Client {
    const copy = new Client(client.config);
    for (const [name, value] of client.jar) copy.jar.set(name, value);
    return copy;
  }

  it("getAccessToken refuses a cookie whose session was revoked", async () => {
    const { cfg } = revocable();
    const victim = new Client(cfg);
    await signIn(victim, freshHint());
    const stolen = copyOf(victim);
    expect(await getAccessToken(sessionRequest(stolen), cfg, "op")).not.toBeNull();
    await victim.post("/auth/signout", { csrfToken: await victim.csrfToken() });
    const issued: string[] = [];
    const token = await getAccessToken(sessionRequest(stolen), cfg, "op", {
      onCookies: (cookies) =>
        issued.push(...cookies.map((cookie) => `${cookie.name}=${cookie.value}`)),
    });
    expect(token).toBeNull();
    // The revoked cookie is cleared, as the session read clears it.
    expect(issued).toEqual([`${COOKIE}=`]);
  });

  it("getAccessToken refuses a due token of a revoked session without refreshing it", async () => {
    const { cfg } = revocable();
    const victim = new Client(cfg);
    await signIn(victim, freshHint());
    await expire(victim);
    const stolen = copyOf(victim);
    await victim.post("/auth/signout", { csrfToken: await victim.csrfToken() });
    const before = op.tokenRequests;
    expect(await getAccessToken(sessionRequest(stolen), cfg, "op")).toBeNull();
    expect(op.tokenRequests).toBe(before);
  });

  it("getAccessToken answers null during a revocation-store outage and keeps the cookie", async () => {
    const inner = memoryStore();
    const state = { down: false };
    const store: SharedStore = {
      ...inner,
      get: (key) => (state.down ? Promise.reject(new Error("ECONNREFUSED")) : inner.get(key)),
    };
    const { logger, errors } = recordingLogger();
    const cfg = config({ logger, jwt: { revocation: store, revocationCacheSeconds: 0 } });
    const client = new Client(cfg);
    await signIn(client, freshHint());
    state.down = true;
    const issued: unknown[] = [];
    const token = await getAccessToken(sessionRequest(client), cfg, "op", {
      onCookies: (cookies) => issued.push(...cookies),
    });
    expect(token).toBeNull();
    expect(issued).toEqual([]);
    expect(errors.at(-1)?.message).toMatch(/fail closed/);
    state.down = false;
    expect(await getAccessToken(sessionRequest(client), cfg, "op")).not.toBeNull();
  });

  it("getAccessToken refuses a cookie whose OP session ended through back-channel logout", async () => {
    const cfg = config({ oauth: { store: memoryStore() } });
    const hint = freshHint();
    const client = new Client(cfg);
    await signIn(client, hint);
    expect(await getAccessToken(sessionRequest(client), cfg, "op")).not.toBeNull();
    const logoutToken = await signLogoutToken(op, { sub: hint });
    const logout = await Auth(
      new Request(`${ORIGIN}/auth/backchannel-logout/op`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ logout_token: logoutToken }),
      }),
      cfg,
    );
    expect(logout.status).toBe(200);
    expect(await getAccessToken(sessionRequest(client), cfg, "op")).toBeNull();
  });

  /** `client`'s session cookie re-sealed without `sid` (as Auth.js or a pre-revocation Tessera wrote it). */
  async function withoutSid(client: Client, store: SharedStore, revoke: boolean): Promise<string> {
    const token = (await decode({
      token: client.jar.get(COOKIE),
      secret: SECRET,
      salt: COOKIE,
    })) as JWT;
    const { iat: _iat, exp: _exp, jti: _jti, sid: _sid, ...rest } = token;
    const claim = token[CLAIM] as Record<string, unknown>;
    const expired = {
      ...rest,
      [CLAIM]: { ...claim, expires_at: Math.floor(Date.now() / 1000) - 5 },
    };
    const cookie = await encode({ token: expired, secret: SECRET, salt: COOKIE });
    const jti = (await decode({ token: cookie, secret: SECRET, salt: COOKIE }))?.jti as string;
    if (revoke) await revokeJwtSession(store, jti);
    client.jar.set(COOKIE, cookie);
    return jti;
  }

  it("a revoked cookie without sid is not revived by a refresh re-issue", async () => {
    const { store, cfg } = revocable();
    const client = new Client(cfg);
    await signIn(client, freshHint());
    await withoutSid(client, store, true);
    const issued: string[] = [];
    const token = await getAccessToken(sessionRequest(client), cfg, "op", {
      onCookies: (cookies) => issued.push(...cookies.map((cookie) => cookie.value)),
    });
    expect(token).toBeNull();
    expect(issued).toEqual([""]);
    expect(await client.session()).toBeNull();
  });

  it("a cookie without sid re-issued by a refresh keeps its jti as revocation id, so revoking the original ends the copy", async () => {
    const { store, cfg } = revocable();
    const client = new Client(cfg);
    await signIn(client, freshHint());
    const jti = await withoutSid(client, store, false);
    const issued: string[] = [];
    expect(
      await getAccessToken(sessionRequest(client), cfg, "op", {
        onCookies: (cookies) => issued.push(...cookies.map((cookie) => cookie.value)),
      }),
    ).not.toBeNull();
    const reissued = await decode({ token: issued[0], secret: SECRET, salt: COOKIE });
    expect(reissued?.sid).toBe(jti);
    client.jar.set(COOKIE, issued[0] as string);
    expect(await client.session()).not.toBeNull();
    // The holder of the original cookie signs out: it is revoked by its jti.
    await revokeJwtSession(store, jti);
    expect(await client.session()).toBeNull();
  });

  it("a cookie without sid re-issued by the session read keeps its jti as revocation id", async () => {
    const { store, cfg } = revocable();
    const client = new Client(cfg);
    await signIn(client, freshHint());
    const jti = await withoutSid(client, store, false);
    const response = await client.get("/auth/session");
    const reissued = await decode({
      token: setCookies(response).get(COOKIE)?.value,
      secret: SECRET,
      salt: COOKIE,
    });
    expect(reissued?.sid).toBe(jti);
    await revokeJwtSession(store, jti);
    expect(await client.session()).toBeNull();
  });

  it("a jwt callback that builds a new token does not drop the account's tokens on re-issue", async () => {
    const cfg = config({
      callbacks: { jwt: ({ token }) => ({ name: token.name, sub: token.sub, iat: token.iat }) },
    });
    const client = new Client(cfg);
    await signIn(client, freshHint());
    const response = await client.get("/auth/session");
    expect(setCookies(response).get(COOKIE)?.value).toBeTruthy();
    expect(await claimOf(client)).toMatchObject({
      provider: "op",
      access_token: expect.any(String),
    });
    expect(await getAccessToken(sessionRequest(client), cfg, "op")).not.toBeNull();
  });
});
