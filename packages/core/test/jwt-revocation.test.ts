/**
 * Revocable JWT sessions (`jwt: { revocation: store }`): signing out or `revokeJwtSession` puts
 * the session's id on a denylist, so every copy of the cookie reads as signed out at once, on
 * every instance sharing the store; the id survives cookie re-issues.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import {
  type AuthConfig,
  isJwtSessionRevoked,
  jwtSessionId,
  revokeJwtSession,
} from "@tessera/core";
import { decode, getToken } from "@tessera/core/jwt";
import Credentials from "@tessera/core/providers/credentials";
import { memoryStore, type SharedStore } from "@tessera/core/store";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { createRedisClient, redisStore } from "@tessera/redis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { deliverCallback, startSignIn } from "./fixtures/oauth-flow.js";
import { type RunningOidcProvider, startOidcProvider } from "./fixtures/oidc-provider.js";
import { Client, recordingLogger, SECRET, sealSessionToken } from "./helpers.js";

const cookieName = "authjs.session-token";
const redis = createRedisClient("redis://127.0.0.1:6379");
const prefix = `jwt_${randomUUID().slice(0, 8)}:`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

function config(
  revocation: SharedStore | undefined,
  overrides: Partial<AuthConfig> = {},
): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [
      Credentials({ authorize: () => ({ id: "ada", name: "Ada", email: "ada@example.com" }) }),
    ],
    ...(revocation && { jwt: { revocation } }),
    ...overrides,
  };
}

async function signIn(client: Client) {
  await client.post("/auth/callback/credentials", { csrfToken: await client.csrfToken() });
  expect(client.jar.get(cookieName)).toBeTruthy();
}

/** A second browser holding a copy of `client`'s session cookie (a stolen cookie). */
function copyOf(client: Client): Client {
  const thief = new Client(client.config);
  thief.jar.set(cookieName, client.jar.get(cookieName) ?? "");
  return thief;
}

async function claims(client: Client) {
  return decode({ token: client.jar.get(cookieName), secret: SECRET, salt: cookieName });
}

const stores: [string, () => SharedStore][] = [
  ["memory", () => memoryStore()],
  ["Redis", () => redisStore(redis, { prefix })],
];

for (const [label, makeStore] of stores) {
  describe(`JWT revocation with a ${label} store`, () => {
    it("signing out kills every copy of the cookie at once, not only the browser's own", async () => {
      const store = makeStore();
      const browser = new Client(config(store));
      await signIn(browser);
      const thief = copyOf(browser);
      expect(await thief.session()).toMatchObject({ user: { email: "ada@example.com" } });

      await browser.post("/auth/signout", { csrfToken: await browser.csrfToken() });
      expect(await thief.session()).toBeNull();
      // The dead cookie is cleared, so it stops costing a lookup.
      expect(thief.jar.has(cookieName)).toBe(false);
    });

    it("revokeJwtSession from server code ends the session on another instance sharing the store", async () => {
      const store = makeStore();
      const instanceA = config(store);
      const instanceB = config(store);
      const browser = new Client(instanceA);
      await signIn(browser);
      const token = await claims(browser);
      const sessionId = jwtSessionId(token) ?? "";
      expect(await revokeJwtSession(store, sessionId, token?.exp)).toBe(true);
      expect(await revokeJwtSession(store, sessionId, token?.exp)).toBe(false);
      expect(await isJwtSessionRevoked(store, token ?? {})).toBe(true);
      const reader = new Client(instanceB);
      reader.jar.set(cookieName, browser.jar.get(cookieName) ?? "");
      expect(await reader.session()).toBeNull();
      expect(await browser.session()).toBeNull();
    });

    it("keeps the session id (sid) across re-issues, so revoking it ends older copies too", async () => {
      const store = makeStore();
      const browser = new Client(config(store, { session: { updateAge: 0 } }));
      await signIn(browser);
      const older = copyOf(browser);
      const first = await claims(browser);
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // a new iat re-issues
      expect(await browser.session()).not.toBeNull();
      const reissued = await claims(browser);
      expect(reissued?.jti).not.toBe(first?.jti);
      expect(reissued?.sid).toBe(first?.sid);
      await browser.post("/auth/signout", { csrfToken: await browser.csrfToken() });
      expect(await older.session()).toBeNull();
    });
  });
}

describe("a copy re-issued before sign-out (the revoked session coming back to life)", () => {
  afterEach(() => vi.useRealTimers());
  const maxAge = 3600;
  const updateAge = 600;
  let now = 0;
  /** Moves the clock (Date only: the store's expiry, the token's iat/exp and decode read it). */
  const at = (seconds: number) => vi.setSystemTime(now + seconds * 1000);

  /** A fresh browser holding exactly `cookie`: a read that clears it cannot hide a later one. */
  async function probe(shared: AuthConfig, cookie: string) {
    const reader = new Client(shared);
    reader.jar.set(cookieName, cookie);
    const read = await reader.session();
    const updater = new Client(shared);
    updater.jar.set(cookieName, cookie);
    const csrfToken = await updater.csrfToken();
    const update = await updater.postJson("/auth/session", { csrfToken, data: { name: "Eve" } });
    return { read, update: await update.json(), extended: updater.jar.get(cookieName) };
  }

  it("stays revoked past the signed-out cookie's exp, exp + 60 s and up to the copies' own end, for copies re-issued by a read past updateAge and by POST /session", async () => {
    now = Math.floor(Date.now() / 1000) * 1000;
    vi.useFakeTimers({ now, toFake: ["Date"] });
    const shared = config(memoryStore(), { session: { maxAge, updateAge } });
    const victim = new Client(shared);
    await signIn(victim);
    const signedOutExp = (await claims(victim))?.exp as number;

    // Before the sign-out, the thief's copies are re-issued with later exps under the same sid.
    at(updateAge + 1);
    const readCopy = copyOf(victim);
    expect(await readCopy.session()).not.toBeNull();
    at(updateAge + 100);
    const updatedCopy = copyOf(victim);
    const update = await updatedCopy.postJson("/auth/session", {
      csrfToken: await updatedCopy.csrfToken(),
      data: {},
    });
    expect(update.status).toBe(200);
    const copies = [readCopy.jar.get(cookieName) ?? "", updatedCopy.jar.get(cookieName) ?? ""];
    const copyExps: number[] = [];
    for (const copy of copies) {
      const token = await decode({ token: copy, secret: SECRET, salt: cookieName });
      expect(token?.sid).toBe((await claims(victim))?.sid);
      expect(token?.exp).toBeGreaterThan(signedOutExp);
      copyExps.push(token?.exp as number);
    }

    at(updateAge + 200);
    await victim.post("/auth/signout", { csrfToken: await victim.csrfToken() });

    const start = now / 1000;
    const moments = [
      signedOutExp + 1 - start, // the signed-out cookie has expired
      signedOutExp + 61 - start, // ... and so has a denylist entry kept until its exp + 60 s
      ...copyExps.map((exp) => exp - 5 - start), // each copy just before its own end
    ];
    for (const moment of moments) {
      at(moment);
      for (const copy of copies) {
        const { read, update, extended } = await probe(shared, copy);
        expect(read, `read at +${moment} s`).toBeNull();
        expect(update, `POST /session at +${moment} s`).toBeNull();
        expect(extended, `no cookie re-issued at +${moment} s`).toBeUndefined();
      }
    }
    // Once maxAge from the revocation has passed, no cookie with the id decodes any more.
    at(updateAge + 200 + maxAge + 61);
    for (const copy of copies) expect((await probe(shared, copy)).read).toBeNull();
  });

  it("keeps the sign-out's denylist entry for maxAge from the revocation (Redis TTL)", async () => {
    const store = redisStore(redis, { prefix });
    const browser = new Client(config(store, { session: { maxAge, updateAge } }));
    await signIn(browser);
    const sid = (await claims(browser))?.sid;
    await browser.post("/auth/signout", { csrfToken: await browser.csrfToken() });
    const ttl = await redis.pttl(`${prefix}value:tessera:jwt-revoked:${sid}`);
    // maxAge, plus a second of "not revoked" cache and a minute of clock-skew margin.
    expect(ttl).toBeGreaterThan((maxAge + 60) * 1000);
    expect(ttl).toBeLessThanOrEqual((maxAge + 61) * 1000);
  });
});

describe("JWT revocation details", () => {
  it("adds no claim and no lookup without jwt.revocation (tokens stay as Auth.js issues them)", async () => {
    const browser = new Client(config(undefined));
    await signIn(browser);
    expect(await claims(browser)).not.toHaveProperty("sid");
    const thief = copyOf(browser);
    await browser.post("/auth/signout", { csrfToken: await browser.csrfToken() });
    // Without a denylist a copied JWT stays valid until it expires: why revocation exists.
    expect(await thief.session()).not.toBeNull();
  });

  it("revokes a token issued before revocation was turned on by its jti", async () => {
    const store = memoryStore();
    const jti = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const sealed = await sealSessionToken({ name: "Old", iat: now, exp: now + 3600, jti });
    const reader = new Client(config(store));
    reader.jar.set(cookieName, sealed);
    expect(await reader.session()).not.toBeNull();
    await revokeJwtSession(store, jti, now + 3600);
    expect(await reader.session()).toBeNull();
  });

  it("another instance (its own store client) sees a revocation within revocationCacheSeconds, or at once with 0", async () => {
    // Two processes: two store objects over one Redis, each with its own "not revoked" memory.
    const atA = redisStore(redis, { prefix });
    const cached = new Client(config(redisStore(redis, { prefix })));
    const uncached = new Client(
      config(undefined, {
        jwt: { revocation: redisStore(redis, { prefix }), revocationCacheSeconds: 0 },
      }),
    );
    await signIn(cached);
    uncached.jar.set(cookieName, cached.jar.get(cookieName) ?? "");
    expect(await cached.session()).not.toBeNull();
    expect(await uncached.session()).not.toBeNull();
    const token = await claims(cached);
    await revokeJwtSession(atA, jwtSessionId(token) ?? "", token?.exp);
    expect(await uncached.session()).toBeNull();
    // Remembered as not revoked for up to a second, then asked again.
    const copy = copyOf(cached);
    expect(await copy.session()).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect(await copy.session()).toBeNull();
  });

  it("keeps a denylist entry only as long as the token could live (Redis TTL)", async () => {
    const store = redisStore(redis, { prefix });
    const sessionId = randomUUID();
    await revokeJwtSession(store, sessionId, new Date(Date.now() + 120_000));
    const ttl = await redis.pttl(`${prefix}value:tessera:jwt-revoked:${sessionId}`);
    // Two minutes left, plus a minute of clock-skew margin.
    expect(ttl).toBeGreaterThan(170_000);
    expect(ttl).toBeLessThanOrEqual(181_000);
  });
});

describe("a revoked JWT cookie and account linking", () => {
  let op: RunningOidcProvider;
  const callbackUrl = "http://localhost:3000/auth/callback/op";
  beforeAll(async () => {
    op = await startOidcProvider({
      clients: [
        { client_id: "basic", client_secret: "basic-secret", redirect_uris: [callbackUrl] },
      ],
      accounts: [{ sub: "thief-1", email: "thief@example.com", email_verified: true }],
    });
  });
  afterAll(() => op?.close());

  it("does not link the thief's provider account to the user of a revoked cookie (account takeover)", async () => {
    const store = createMemoryStore();
    const adapter = MemoryAdapter(store);
    const victim = await adapter.createUser({
      id: "victim",
      email: "victim@example.com",
      emailVerified: null,
    });
    const shared: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      session: { strategy: "jwt" },
      jwt: { revocation: memoryStore() },
      logger: recordingLogger().logger,
      providers: [
        Credentials({ authorize: () => ({ id: victim.id, email: victim.email }) }),
        {
          id: "op",
          name: "Test OP",
          type: "oidc",
          issuer: op.issuer,
          clientId: "basic",
          clientSecret: "basic-secret",
        },
      ],
    };
    const browser = new Client(shared);
    await signIn(browser);
    const thief = copyOf(browser);
    await browser.post("/auth/signout", { csrfToken: await browser.csrfToken() });

    const authorization = await startSignIn(thief, "op");
    await deliverCallback(thief, await op.authorize(authorization.href));
    const linked = [...store.accounts.values()].find((account) => account.provider === "op");
    expect(linked?.userId).toBeDefined();
    expect(linked?.userId).not.toBe(victim.id);
  });
});

describe("a store outage during the session read", () => {
  /** A real memory store whose reads fail while `down` is set (a Redis or SQL outage). */
  function flakyStore() {
    const inner = memoryStore();
    const state = { down: false };
    const store: SharedStore = {
      ...inner,
      get: (key) =>
        state.down
          ? Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379"))
          : inner.get(key),
    };
    return { store, state };
  }

  it("a revocation-store outage refuses the read but keeps the cookie", async () => {
    const { store, state } = flakyStore();
    const { logger, errors } = recordingLogger();
    const browser = new Client(
      config(undefined, { logger, jwt: { revocation: store, revocationCacheSeconds: 0 } }),
    );
    await signIn(browser);
    const cookie = browser.jar.get(cookieName);
    state.down = true;
    const response = await browser.get("/auth/session");
    expect(await response.json()).toBeNull();
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(browser.jar.get(cookieName)).toBe(cookie);
    expect(errors.map((error) => (error as { type?: string }).type)).toContain("AdapterError");
    expect(errors.at(-1)?.message).toMatch(/jwt\.revocation.*fail closed.*connection/s);
    state.down = false;
    expect(await browser.session()).toMatchObject({ user: { name: "Ada" } });
  });

  it("a back-channel marker store outage refuses the read but keeps the cookie", async () => {
    const { store, state } = flakyStore();
    const { logger, errors } = recordingLogger();
    const now = Math.floor(Date.now() / 1000);
    const sealed = await sealSessionToken({
      name: "Ada",
      iat: now,
      exp: now + 3600,
      jti: randomUUID(),
      "tessera.oauth": { provider: "op", providerAccountId: "ada", sub: "ada", sid: "op-1" },
    });
    const browser = new Client(config(undefined, { logger, oauth: { store } }));
    browser.jar.set(cookieName, sealed);
    expect(await browser.session()).not.toBeNull();
    state.down = true;
    const response = await browser.get("/auth/session");
    expect(await response.json()).toBeNull();
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(errors.at(-1)?.message).toMatch(/back-channel logout store.*fail closed/s);
    state.down = false;
    expect(await browser.session()).not.toBeNull();
  });
});

describe("sign-out during a revocation-store outage", () => {
  /** A port nothing listens on: a Redis that is down (connections refused). */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  let down: ReturnType<typeof createRedisClient>;
  beforeAll(async () => {
    down = createRedisClient(`redis://127.0.0.1:${await closedPort()}`);
    down.on("error", () => {}); // refused connections are the point of the test
  });
  afterAll(() => down.disconnect());

  async function signedIn() {
    const { logger, errors } = recordingLogger();
    const browser = new Client(
      config(undefined, { logger, jwt: { revocation: redisStore(down, { prefix }) } }),
    );
    await signIn(browser);
    return { browser, errors };
  }

  it("is not answered as a success: the browser goes to the error page with SignOutError, its cookie cleared", async () => {
    const { browser, errors } = await signedIn();
    const response = await browser.post("/auth/signout", {
      csrfToken: await browser.csrfToken(),
      callbackUrl: "/goodbye",
    });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.pathname).toBe("/auth/error");
    expect(location.searchParams.get("error")).toBe("SignOutError");
    expect(browser.jar.has(cookieName)).toBe(false);
    const logged = errors.find((error) => (error as { type?: string }).type === "SignOutError");
    expect(logged?.message).toMatch(/could not end the session.*Check the store/s);
    expect(logged?.cause).toBeDefined();

    const page = await browser.get(`${location.pathname}${location.search}`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("could not be ended everywhere");
  });

  it("answers {url} of the error page to X-Auth-Return-Redirect, with the cookie cleared", async () => {
    const { browser } = await signedIn();
    const response = await browser.post(
      "/auth/signout",
      { csrfToken: await browser.csrfToken(), callbackUrl: "/goodbye" },
      { "X-Auth-Return-Redirect": "1" },
    );
    expect(response.status).toBe(200);
    const { url } = (await response.json()) as { url: string };
    expect(new URL(url).searchParams.get("error")).toBe("SignOutError");
    expect(browser.jar.has(cookieName)).toBe(false);
  });

  it("goes to a custom pages.error with error=SignOutError", async () => {
    const browser = new Client(
      config(undefined, {
        pages: { error: "/oops" },
        jwt: { revocation: redisStore(down, { prefix }) },
      }),
    );
    await signIn(browser);
    const response = await browser.post("/auth/signout", { csrfToken: await browser.csrfToken() });
    expect(response.headers.get("location")).toBe("http://localhost:3000/oops?error=SignOutError");
  });
});

describe("re-issue through a jwt callback that builds a new token", () => {
  it("a copied cookie re-issued through a jwt callback that drops sid is still ended by the sign-out", async () => {
    const rebuild: NonNullable<AuthConfig["callbacks"]>["jwt"] = ({ token }) => ({
      name: token.name,
      email: token.email,
      sub: token.sub,
      iat: token.iat,
      exp: token.exp,
    });
    const browser = new Client(config(memoryStore(), { callbacks: { jwt: rebuild } }));
    await signIn(browser);
    const sid = (await claims(browser))?.sid;
    expect(sid).toEqual(expect.any(String));
    const thief = copyOf(browser);
    const response = await thief.get("/auth/session");
    expect(response.headers.getSetCookie().join()).toContain(cookieName);
    expect((await claims(thief))?.sid).toBe(sid);
    await browser.post("/auth/signout", { csrfToken: await browser.csrfToken() });
    expect(await thief.session()).toBeNull();
  });
});

describe("getToken and the denylist", () => {
  it("getToken with revocation refuses the token of a revoked session", async () => {
    const store = memoryStore();
    const browser = new Client(config(store));
    await signIn(browser);
    const request = () =>
      new Request("http://localhost/api", { headers: { cookie: browser.cookieHeader() } });
    const stolen = request();
    expect(await getToken({ req: request(), secret: SECRET, revocation: store })).not.toBeNull();
    await browser.post("/auth/signout", { csrfToken: await browser.csrfToken() });
    expect(await getToken({ req: stolen, secret: SECRET, revocation: store })).toBeNull();
    // Without the option getToken only decodes, as Auth.js's does.
    expect(await getToken({ req: stolen, secret: SECRET })).not.toBeNull();
  });

  it("getToken with revocation refuses the token while the store cannot be read (fail closed)", async () => {
    const store = memoryStore();
    const browser = new Client(config(store));
    await signIn(browser);
    const errors: Error[] = [];
    const down: SharedStore = { ...store, get: () => Promise.reject(new Error("ECONNREFUSED")) };
    const token = await getToken({
      req: new Request("http://localhost/api", { headers: { cookie: browser.cookieHeader() } }),
      secret: SECRET,
      revocation: down,
      logger: { error: (error: Error) => void errors.push(error) },
    });
    expect(token).toBeNull();
    expect(errors[0]?.message).toMatch(/revocation store/);
  });
});
