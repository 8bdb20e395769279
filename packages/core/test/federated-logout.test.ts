/**
 * Federated sign-out against a real OpenID Provider (oidc-provider on 127.0.0.1) with RP-initiated
 * and back-channel logout enabled: signing out of a `federatedLogout` provider's session goes
 * through the OP's end_session_endpoint and ends the OP session; the OP's back-channel logout
 * token (posted over HTTP to Tessera's node handler) ends the user's sessions, seen from another
 * cookie jar; forged, replayed, expired and otherwise invalid logout tokens are refused with 400.
 * JWT sessions and database sessions (memory adapter, PostgreSQL, SQLite).
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Auth, type AuthConfig } from "@tessera/core";
import type { Adapter } from "@tessera/core/adapters";
import { toNodeHandler } from "@tessera/core/node";
import type { OIDCConfig } from "@tessera/core/providers";
import { memoryStore, type SharedStore } from "@tessera/core/store";
import { MemoryAdapter } from "@tessera/memory";
import { createPostgresDb, createSqliteDb, dropSchema, migrate, SqlAdapter } from "@tessera/sql";
import { decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverCallback, locationOf, startSignIn } from "./fixtures/oauth-flow.js";
import {
  accountPool,
  type RunningOidcProvider,
  signLogoutToken,
  startOidcProvider,
} from "./fixtures/oidc-provider.js";
import { Client, recordingLogger, SECRET, sealSessionToken } from "./helpers.js";

const EVENT = "http://schemas.openid.net/event/backchannel-logout";
const POSTGRES_URL =
  process.env.TESSERA_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
let op: RunningOidcProvider;
let server: Server;
/** Tessera's own origin: the node handler the OP posts logout tokens to. */
let origin: string;
/** The configuration the node handler serves; each test points it at its own. */
let served: AuthConfig;

/** Each test signs in as its own account of the provider, so tokens and sessions never mix. */
const { accounts, freshHint } = accountPool("member", "Member", 30);

beforeAll(async () => {
  server = createServer(toNodeHandler(() => served));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  op = await startOidcProvider({
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        redirect_uris: [`${origin}/auth/callback/op`],
        post_logout_redirect_uris: [origin, `${origin}/goodbye`],
        backchannel_logout_uri: `${origin}/auth/backchannel-logout/op`,
        backchannel_logout_session_required: true,
      },
    ],
    accounts,
    features: { backchannelLogout: { enabled: true } },
  });
});
afterAll(async () => {
  await op?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

function opProvider(overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "op",
    name: "Test OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: "app",
    clientSecret: "app-secret",
    checks: ["pkce", "state", "nonce"],
    federatedLogout: true,
    ...overrides,
  };
}

/** A browser at Tessera's origin with its own cookie jar at the OP (`opJar`). */
class Browser extends Client {
  readonly opJar = new Map<string, string>();
}

async function signIn(browser: Browser, hint: string): Promise<void> {
  const url = await startSignIn(browser, "op", { authorizationParams: { login_hint: hint } });
  const answer = await op.authorize(url.href, browser.opJar);
  expect(locationOf(await deliverCallback(browser, answer)).origin).toBe(origin);
}

async function signOut(browser: Browser, callbackUrl?: string): Promise<Response> {
  const csrfToken = await browser.csrfToken();
  return browser.post("/auth/signout", {
    csrfToken,
    ...(callbackUrl !== undefined && { callbackUrl }),
  });
}

/** Whether the OP still has a session for `browser` (`prompt=none` answers login_required). */
async function signedInAtOp(browser: Browser): Promise<boolean> {
  const url = await startSignIn(browser, "op", { authorizationParams: { prompt: "none" } });
  const answer = await op.authorize(url.href, browser.opJar);
  return new URL(answer.url).searchParams.get("error") !== "login_required";
}

/** POSTs a logout token signed by the OP's key, with `claims` (`sub` and/or `sid`), to Tessera. */
async function postLogoutToken(claims: { sub?: string; sid?: string | undefined }) {
  const logoutToken = await signLogoutToken(op, claims);
  return fetch(`${origin}/auth/backchannel-logout/op`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ logout_token: logoutToken }),
  });
}

interface Strategy {
  label: string;
  /** Whether a session knows its OP session (`sid`), so a logout of another one leaves it. */
  knowsOpSession: boolean;
  config(): Promise<{ config: AuthConfig; close(): Promise<void> }>;
}

const strategies: Strategy[] = [
  {
    label: "JWT sessions",
    knowsOpSession: true,
    config: async () => ({
      config: {
        secret: SECRET,
        trustHost: true,
        logger: recordingLogger().logger,
        providers: [opProvider()],
        oauth: { store: memoryStore() },
      },
      close: async () => {},
    }),
  },
  {
    label: "database sessions (memory adapter)",
    knowsOpSession: false,
    config: async () => ({
      config: {
        secret: SECRET,
        trustHost: true,
        logger: recordingLogger().logger,
        adapter: MemoryAdapter(),
        providers: [opProvider()],
      },
      close: async () => {},
    }),
  },
  {
    label: "database sessions (PostgreSQL)",
    knowsOpSession: false,
    async config() {
      const db = createPostgresDb(POSTGRES_URL);
      const tablePrefix = `t_${randomUUID().replaceAll("-", "").slice(0, 10)}_`;
      await migrate(db, { dialect: "postgres", tablePrefix });
      return {
        config: {
          secret: SECRET,
          trustHost: true,
          logger: recordingLogger().logger,
          adapter: SqlAdapter(db, { dialect: "postgres", tablePrefix }),
          providers: [opProvider()],
        },
        async close() {
          await dropSchema(db, { dialect: "postgres", tablePrefix });
          await db.destroy();
        },
      };
    },
  },
  {
    label: "database sessions (SQLite)",
    knowsOpSession: false,
    async config() {
      const db = createSqliteDb(
        `${process.env.TMPDIR ?? "/tmp"}/tessera-logout-${randomUUID()}.sqlite`,
      );
      const tablePrefix = "logout_";
      await migrate(db, { dialect: "sqlite", tablePrefix });
      const adapter: Adapter = SqlAdapter(db, { dialect: "sqlite", tablePrefix });
      return {
        config: {
          secret: SECRET,
          trustHost: true,
          logger: recordingLogger().logger,
          adapter,
          providers: [opProvider()],
        },
        async close() {
          await dropSchema(db, { dialect: "sqlite", tablePrefix });
          await db.destroy();
        },
      };
    },
  },
];

describe.each(strategies)("federated sign-out with $label", (strategy) => {
  let config: AuthConfig;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ config, close } = await strategy.config());
  });
  afterAll(() => close?.());

  it("RP-initiated logout: signs out locally, then at the OP, which sends the browser back", async () => {
    served = config;
    const browser = new Browser(config, origin);
    await signIn(browser, freshHint());
    expect(await browser.session()).not.toBeNull();
    const response = await signOut(browser, "/goodbye");
    const logout = locationOf(response);
    expect(`${logout.origin}${logout.pathname}`).toBe(`${op.issuer}/session/end`);
    expect(logout.searchParams.get("client_id")).toBe("app");
    expect(logout.searchParams.get("post_logout_redirect_uri")).toBe(`${origin}/goodbye`);
    const hint = logout.searchParams.get("id_token_hint") ?? "";
    expect(decodeJwt(hint)).toMatchObject({ iss: op.issuer, aud: "app" });
    expect(await browser.session()).toBeNull();

    const back = await op.endSession(logout.href, browser.opJar);
    expect(back.url).toBe(`${origin}/goodbye`);
    expect(await signedInAtOp(browser)).toBe(false);
  });

  it("back-channel logout: the OP's logout token ends the session in another cookie jar", async () => {
    const ended: unknown[] = [];
    served = { ...config, events: { backchannelLogout: (message) => void ended.push(message) } };
    const hint = freshHint();
    const laptop = new Browser(served, origin);
    // Another app cookie jar on the same OP session (the browser signed in twice).
    const tablet = new Browser(served, origin);
    const phone = new Browser(served, origin);
    await signIn(laptop, hint);
    for (const [name, value] of laptop.opJar) tablet.opJar.set(name, value);
    await signIn(tablet, hint);
    await signIn(phone, hint);
    expect(await tablet.session()).not.toBeNull();
    // The laptop signs out at the OP; the OP tells Tessera over the back channel.
    const logout = locationOf(await signOut(laptop));
    await op.endSession(logout.href, laptop.opJar);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ provider: "op", sub: hint, sid: expect.any(String) });
    expect(await tablet.session()).toBeNull();
    // The phone has its own OP session: a JWT session knows it and stays; database session rows
    // do not record the OP session, so all of the user's end.
    expect(await phone.session()).toEqual(strategy.knowsOpSession ? expect.anything() : null);
  });

  it("back-channel logout of a subject without sid ends every JWT or database session of the user", async () => {
    served = config;
    const hint = freshHint();
    const laptop = new Browser(config, origin);
    const phone = new Browser(config, origin);
    await signIn(laptop, hint);
    await signIn(phone, hint);
    const response = await postLogoutToken({ sub: hint });
    expect(response.status).toBe(200);
    expect(await laptop.session()).toBeNull();
    expect(await phone.session()).toBeNull();
  });

  it("a logout token with one user's sub and another user's sid ends no session of the other user (§2.7: iss, sub and sid together)", async () => {
    /** The OP session (`sid` of the ID token) each user signed in with. */
    const opSessions = new Map<string, string>();
    served = {
      ...config,
      events: {
        signIn({ account }) {
          const { sub, sid } = decodeJwt(account?.id_token ?? "");
          if (typeof sub === "string" && typeof sid === "string") opSessions.set(sub, sid);
        },
      },
    };
    const [ada, bob] = [freshHint(), freshHint()];
    const adaBrowser = new Browser(served, origin);
    const bobBrowser = new Browser(served, origin);
    await signIn(adaBrowser, ada);
    await signIn(bobBrowser, bob);
    expect(opSessions.get(ada)).toEqual(expect.any(String));

    const response = await postLogoutToken({ sub: bob, sid: opSessions.get(ada) });
    expect(response.status).toBe(200);
    // Ada's OP session was named under Bob's subject: her session is not the one identified.
    expect(await adaBrowser.session()).toMatchObject({ user: expect.anything() });
    // Bob's: a JWT session knows its own OP session, which the token did not name, and stays;
    // database session rows do not record the OP session, so all of the subject's end.
    expect(await bobBrowser.session()).toEqual(strategy.knowsOpSession ? expect.anything() : null);
  });

  it("a session signed in after a back-channel logout stays valid", async () => {
    served = config;
    const hint = freshHint();
    const first = new Browser(config, origin);
    await signIn(first, hint);
    await op.endSession(locationOf(await signOut(first)).href, first.opJar);
    const second = new Browser(config, origin);
    await signIn(second, hint);
    expect(await second.session()).not.toBeNull();
  });
});

describe("RP-initiated logout is opt-in", () => {
  it("signs out locally only for a provider without federatedLogout", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: recordingLogger().logger,
      providers: [opProvider({ federatedLogout: false })],
    };
    served = config;
    const browser = new Browser(config, origin);
    await signIn(browser, freshHint());
    expect(locationOf(await signOut(browser)).href).toBe(`${origin}/`);
    expect(await signedInAtOp(browser)).toBe(true);
  });

  it("the built-in sign-out page lets its form's redirect reach the OP only with federatedLogout", async () => {
    const formAction = async (federatedLogout: boolean) => {
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        providers: [opProvider({ federatedLogout })],
      };
      const page = await new Browser(config, origin).get("/auth/signout");
      const csp = page.headers.get("content-security-policy") ?? "";
      return csp.split(";").find((directive) => directive.trim().startsWith("form-action")) ?? "";
    };
    const opOrigin = new URL(op.issuer).origin;
    expect(await formAction(true)).toContain(opOrigin);
    expect(await formAction(false)).not.toContain(opOrigin);
  });
});

/**
 * A browser holding `app`'s JWT session of `sub` at the OP, signed in a minute ago, with or
 * without its OP `sid` (sealed as Tessera seals it, without a sign-in round trip).
 */
async function browserWithOpSession(app: AuthConfig, sub: string, sid?: string): Promise<Client> {
  const now = Math.floor(Date.now() / 1000);
  const account = { provider: "op", providerAccountId: sub, sub, signedInAt: Date.now() - 60_000 };
  const browser = new Client(app, origin);
  const claims = {
    name: "Member",
    sub: "user-1",
    iat: now - 60,
    exp: now + 3600,
    jti: randomUUID(),
    "tessera.oauth": sid ? { ...account, sid } : account,
  };
  browser.jar.set(
    "authjs.session-token",
    await sealSessionToken(claims, { secret: app.secret as string }),
  );
  expect(await browser.session()).not.toBeNull();
  return browser;
}

describe("back-channel logout token validation (§2.6)", () => {
  let config: AuthConfig;
  let foreignKey: JWK & { kid: string };

  beforeAll(async () => {
    config = {
      secret: SECRET,
      trustHost: true,
      logger: recordingLogger().logger,
      providers: [opProvider()],
      oauth: { store: memoryStore() },
    };
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    // The OP's kid on an attacker's key: only the signature can tell them apart.
    foreignKey = { ...(await exportJWK(privateKey)), kid: op.signingKey.kid, alg: "RS256" };
  });

  interface Mint {
    claims?: Record<string, unknown>;
    omit?: string[];
    key?: JWK & { kid: string };
    typ?: string;
  }

  async function logoutToken({ claims = {}, omit = [], key, typ = "logout+jwt" }: Mint = {}) {
    const signingKey = key ?? op.signingKey;
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = {
      iss: op.issuer,
      aud: "app",
      iat: now,
      exp: now + 120,
      jti: randomUUID(),
      sub: "member-0",
      sid: randomUUID(),
      events: { [EVENT]: {} },
      ...claims,
    };
    for (const name of omit) delete payload[name];
    const { importJWK } = await import("jose");
    return new SignJWT(payload)
      .setProtectedHeader({ alg: "RS256", kid: signingKey.kid, typ })
      .sign(await importJWK(signingKey, "RS256"));
  }

  function post(body: Record<string, string>, providerId = "op"): Promise<Response> {
    return Auth(
      new Request(`${origin}/auth/backchannel-logout/${providerId}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
      }),
      config,
    );
  }

  async function expectRefused(response: Response, reason: RegExp): Promise<void> {
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe("invalid_request");
    expect(body.error_description).toMatch(reason);
  }

  it("accepts a valid logout token with 200 and no-store", async () => {
    const response = await post({ logout_token: await logoutToken() });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("a logout token naming sid and sub ends sessions that recorded only sub", async () => {
    const sub = `member-${randomUUID()}`;
    // The OP put no sid in the ID token of this session, so the session knows only sub.
    const withoutSid = await browserWithOpSession(config, sub);
    const sameOpSession = await browserWithOpSession(config, sub, "op-session-1");
    const otherOpSession = await browserWithOpSession(config, sub, "op-session-2");
    const token = await logoutToken({ claims: { sub, sid: "op-session-1" } });
    expect((await post({ logout_token: token })).status).toBe(200);
    expect(await withoutSid.session()).toBeNull();
    expect(await sameOpSession.session()).toBeNull();
    // §2.7: a logout naming an OP session ends that session, not the subject's others.
    expect(await otherOpSession.session()).not.toBeNull();
  });

  it("a logout at one app does not end another app's sessions (each app's default store)", async () => {
    const sub = `member-${randomUUID()}`;
    // Two apps in one process with the same OP, neither naming a store: the logout markers go to
    // each app's default store in memory.
    const apps = [SECRET, `another-app-${randomUUID()}-secret-of-32+-characters`].map(
      (secret): AuthConfig => ({ ...config, secret, oauth: undefined }),
    );
    const sessions = await Promise.all(apps.map((app) => browserWithOpSession(app, sub)));
    const [first, second] = sessions as [Client, Client];
    const response = await postTo(apps[0] as AuthConfig, {
      logout_token: await logoutToken({ claims: { sub } }),
    });
    expect(response.status).toBe(200);
    expect(await first.session()).toBeNull();
    expect(await second.session()).not.toBeNull();
  });

  /**
   * A real memory store whose writes of keys matching `failing` fail while `state.down` is set
   * (a Redis or SQL outage, or one failing table).
   */
  function flakyStore(failing: (key: string) => boolean = () => true) {
    const inner = memoryStore();
    const state = { down: false };
    const outage = () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379"));
    const store: SharedStore = {
      ...inner,
      add: (key, value, ttl) =>
        state.down && failing(key) ? outage() : inner.add(key, value, ttl),
      delete: (key) => (state.down && failing(key) ? outage() : inner.delete(key)),
    };
    return { store, state };
  }

  function postTo(target: AuthConfig, body: Record<string, string>): Promise<Response> {
    return Auth(
      new Request(`${origin}/auth/backchannel-logout/op`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
      }),
      target,
    );
  }

  it("a store outage answers the logout token with a 400 JSON error, not a redirect", async () => {
    const { store, state } = flakyStore();
    state.down = true;
    const response = await postTo(
      { ...config, oauth: { store } },
      { logout_token: await logoutToken() },
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toMatchObject({ error: "invalid_request" });
  });

  it("a failed logout does not burn the token's jti", async () => {
    // Writing the logout markers fails; the jti marker's own key works.
    const { store, state } = flakyStore((key) => !key.includes(":jti:"));
    const target: AuthConfig = { ...config, oauth: { store } };
    const token = await logoutToken();
    state.down = true;
    expect((await postTo(target, { logout_token: token })).status).toBe(400);
    state.down = false;
    // The OP retries the same token once the store is back: it is not refused as a replay.
    expect((await postTo(target, { logout_token: token })).status).toBe(200);
    await expectRefused(await postTo(target, { logout_token: token }), /replayed/);
  });

  /** A logout token MACed with the client secret (HS256), as only an HS256 client receives. */
  async function hmacLogoutToken(): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: op.issuer,
      aud: "app",
      iat: now,
      exp: now + 120,
      jti: randomUUID(),
      sub: "member-0",
      events: { [EVENT]: {} },
    })
      .setProtectedHeader({ alg: "HS256", typ: "logout+jwt" })
      .sign(new TextEncoder().encode("app-secret"));
  }

  it("rejects an HS256 logout token MACed with the client secret when the provider signs with its keys", async () => {
    await expectRefused(await post({ logout_token: await hmacLogoutToken() }), /signature|alg/i);
  });

  it("accepts an HS256 logout token from a provider registered for HS256 ID tokens", async () => {
    const hmacClient: AuthConfig = {
      ...config,
      providers: [opProvider({ client: { id_token_signed_response_alg: "HS256" } })],
    };
    const response = await postTo(hmacClient, { logout_token: await hmacLogoutToken() });
    expect(response.status).toBe(200);
  });

  it("rejects a logout token replayed with the same jti", async () => {
    const token = await logoutToken();
    expect((await post({ logout_token: token })).status).toBe(200);
    await expectRefused(await post({ logout_token: token }), /replayed/);
  });

  it("rejects a logout token forged with another key under the OP's kid", async () => {
    await expectRefused(
      await post({ logout_token: await logoutToken({ key: foreignKey }) }),
      /signature/,
    );
  });

  it("rejects an unsigned (alg none) logout token", async () => {
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${encode({ alg: "none", typ: "logout+jwt" })}.${encode({
      iss: op.issuer,
      aud: "app",
      iat: now,
      jti: randomUUID(),
      sub: "member-0",
      events: { [EVENT]: {} },
    })}.`;
    await expectRefused(await post({ logout_token: unsigned }), /signature/);
  });

  it("rejects an expired logout token", async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    await expectRefused(
      await post({ logout_token: await logoutToken({ claims: { iat: past, exp: past + 120 } }) }),
      /expired/,
    );
  });

  it("rejects a logout token issued in the future (pre-minted)", async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    await expectRefused(
      await post({
        logout_token: await logoutToken({ claims: { iat: future, exp: future + 120 } }),
      }),
      /future/,
    );
  });

  it("rejects another issuer, another audience, a missing iat or jti", async () => {
    await expectRefused(
      await post({ logout_token: await logoutToken({ claims: { iss: "https://evil.test" } }) }),
      /iss/,
    );
    await expectRefused(
      await post({ logout_token: await logoutToken({ claims: { aud: "other-client" } }) }),
      /aud/,
    );
    await expectRefused(await post({ logout_token: await logoutToken({ omit: ["iat"] }) }), /iat/);
    await expectRefused(await post({ logout_token: await logoutToken({ omit: ["jti"] }) }), /jti/);
  });

  it("rejects a token without the back-channel logout event, or with neither sub nor sid", async () => {
    await expectRefused(
      await post({ logout_token: await logoutToken({ omit: ["events"] }) }),
      /events/,
    );
    await expectRefused(
      await post({ logout_token: await logoutToken({ claims: { events: { other: {} } } }) }),
      /events/,
    );
    await expectRefused(
      await post({ logout_token: await logoutToken({ omit: ["sub", "sid"] }) }),
      /sub nor sid/,
    );
  });

  it("rejects an ID token posted as a logout token (nonce present, typ JWT)", async () => {
    await expectRefused(
      await post({ logout_token: await logoutToken({ claims: { nonce: "n-0S6_WzA2Mj" } }) }),
      /nonce/,
    );
    await expectRefused(await post({ logout_token: await logoutToken({ typ: "at+jwt" }) }), /typ/);
  });

  it("rejects a request without a logout_token, a garbage token and an unknown provider", async () => {
    await expectRefused(await post({}), /no logout_token/);
    await expectRefused(await post({ logout_token: "not-a-jwt" }), /not a JWT/);
    await expectRefused(
      await post({ logout_token: await logoutToken() }, "nobody"),
      /no OpenID Provider/,
    );
  });
});
