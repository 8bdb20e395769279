/**
 * `getAccessToken` with database sessions, against a real OpenID Provider (oidc-provider on
 * 127.0.0.1) that rotates refresh tokens and revokes the grant when one is used twice: the stored
 * token while fresh, a refresh (rotated refresh token stored) once expired, one refresh for 20
 * concurrent reads, and `RefreshTokenError` for a revoked refresh token. On the memory adapter,
 * SQLite and PostgreSQL; across two app instances through a Redis store.
 *
 * Expiry is simulated by moving the stored `expires_at` into the past (what time passing does to
 * the row), so no test waits for a token to expire.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type AuthConfig, customFetch, type EventCallbacks, getAccessToken } from "@tessera/core";
import type { Adapter, AdapterAccount } from "@tessera/core/adapters";
import { MissingAdapterMethods, RefreshTokenError, RefreshUnavailable } from "@tessera/core/errors";
import type { OIDCConfig } from "@tessera/core/providers";
import { MemoryAdapter } from "@tessera/memory";
import {
  createPostgresDb,
  createSqliteDb,
  dropSchema,
  migrate,
  SqlAdapter,
  type SqlDialect,
} from "@tessera/sql";
import { exportJWK, generateKeyPair } from "jose";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverCallback, locationOf, startSignIn } from "./fixtures/oauth-flow.js";
import {
  accountPool,
  type RunningOidcProvider,
  startOidcProvider,
} from "./fixtures/oidc-provider.js";
import type { InstanceSetup } from "./fixtures/refresh-instance/instance.fixture.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const POSTGRES_URL =
  process.env.TESSERA_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.TESSERA_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** The app instance run as a separate process by the cross-process test. */
const instanceDir = fileURLToPath(new URL("./fixtures/refresh-instance/", import.meta.url));
const vitestCli = join(
  createRequire(import.meta.url).resolve("vitest/package.json"),
  "..",
  "vitest.mjs",
);

let op: RunningOidcProvider;
/** Each test signs in as its own account of the provider, so refresh tokens never mix. */
const { accounts, freshHint } = accountPool("user", "User", 40);

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: [`${ORIGIN}/auth/callback/op`, `${ORIGIN}/auth/callback/op-post`],
      },
      {
        client_id: "post",
        client_secret: "post-secret",
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "client_secret_post",
        redirect_uris: [`${ORIGIN}/auth/callback/op-post`],
      },
    ],
    accounts,
    refreshTokens: "rotate",
  });
});
afterAll(() => op?.close());

function opProvider(overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "op",
    name: "Test OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: "app",
    clientSecret: "app-secret",
    checks: ["pkce", "state", "nonce"],
    ...overrides,
  };
}

function postProvider(): OIDCConfig {
  return opProvider({
    id: "op-post",
    clientId: "post",
    clientSecret: "post-secret",
    client: { token_endpoint_auth_method: "client_secret_post" },
  });
}

/** A config of the test provider with `adapter` and a quiet logger. */
function appWith(adapter: Adapter): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    providers: [opProvider()],
  };
}

/** Signs `client` in at `providerId` as the provider's account `hint`. */
async function signIn(client: Client, hint: string, providerId = "op"): Promise<void> {
  const url = await startSignIn(client, providerId, {
    authorizationParams: { login_hint: hint },
  });
  const response = await deliverCallback(client, await op.authorize(url.href));
  expect(locationOf(response).origin).toBe(ORIGIN);
}

function requestOf(client: Client): Request {
  return new Request(`${ORIGIN}/api/data`, { headers: { cookie: client.cookieHeader() } });
}

/**
 * Moves the stored expiry of `hint`'s account at `providerId` into the past: what time passing
 * does to the row, so that no test waits for a token to expire.
 */
async function expireStoredToken(
  adapter: Pick<Adapter, "updateAccount">,
  hint: string,
  providerId = "op",
): Promise<void> {
  await adapter.updateAccount?.({
    provider: providerId,
    providerAccountId: hint,
    expires_at: Math.floor(Date.now() / 1000) - 5,
  });
}

/** Calls the provider's userinfo endpoint with `accessToken`: whether the provider accepts it. */
async function acceptedByProvider(accessToken: string): Promise<boolean> {
  const response = await fetch(`${op.issuer}/me`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return response.status === 200;
}

interface Backend {
  label: string;
  adapter(): Promise<{ adapter: Adapter; close(): Promise<void> }>;
}

function sqlBackend(label: string, dialect: SqlDialect, connect: () => Kysely<never>): Backend {
  return {
    label,
    async adapter() {
      const db = connect();
      const tablePrefix = `t_${randomUUID().replaceAll("-", "").slice(0, 10)}_`;
      await migrate(db, { dialect, tablePrefix });
      return {
        adapter: SqlAdapter(db, { dialect, tablePrefix }),
        async close() {
          await dropSchema(db, { dialect, tablePrefix });
          await db.destroy();
        },
      };
    },
  };
}

const backends: Backend[] = [
  {
    label: "memory",
    adapter: async () => ({ adapter: MemoryAdapter(), close: async () => {} }),
  },
  sqlBackend(
    "SQLite",
    "sqlite",
    () =>
      createSqliteDb(
        `${process.env.TMPDIR ?? "/tmp"}/tessera-access-token-${randomUUID()}.sqlite`,
      ) as Kysely<never>,
  ),
  sqlBackend("PostgreSQL", "postgres", () => createPostgresDb(POSTGRES_URL) as Kysely<never>),
];

describe.each(backends)("getAccessToken with database sessions ($label)", (backend) => {
  let adapter: Adapter;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ adapter, close } = await backend.adapter());
  });
  afterAll(() => close?.());

  function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
    return {
      secret: SECRET,
      trustHost: true,
      logger: recordingLogger().logger,
      adapter,
      providers: [opProvider(), postProvider()],
      ...overrides,
    };
  }

  const expire = (hint: string, providerId = "op") => expireStoredToken(adapter, hint, providerId);

  const stored = async (hint: string, providerId = "op") => adapter.getAccount?.(hint, providerId);

  it("returns null without a session, and for a provider the user has no account at", async () => {
    const cfg = config();
    const client = new Client(cfg);
    expect(await getAccessToken(requestOf(client), cfg, "op")).toBeNull();
    await signIn(client, freshHint());
    expect(await getAccessToken(requestOf(client), cfg, "op-post")).toBeNull();
  });

  it("returns the stored access token while it is fresh, without asking the provider", async () => {
    const cfg = config();
    const client = new Client(cfg);
    const hint = freshHint();
    await signIn(client, hint);
    const before = op.tokenRequests;
    const token = await getAccessToken(requestOf(client), cfg, "op");
    expect(token).toMatchObject({
      accessToken: (await stored(hint))?.access_token,
      tokenType: "bearer",
      scope: "openid profile email",
    });
    expect(token?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 3000);
    expect(op.tokenRequests).toBe(before);
  });

  it("refreshes an expired access token, stores the rotated refresh token, and the provider accepts the new one", async () => {
    const refreshed: string[] = [];
    const cfg = config({
      events: { tokenRefreshed: ({ account }) => void refreshed.push(account.providerAccountId) },
    });
    const client = new Client(cfg);
    const hint = freshHint();
    await signIn(client, hint);
    const old = await stored(hint);
    await expire(hint);
    const token = await getAccessToken(requestOf(client), cfg, "op");
    const now = await stored(hint);
    expect(token?.accessToken).toBeTruthy();
    expect(token?.accessToken).not.toBe(old?.access_token);
    expect(token?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 3000);
    expect(now?.access_token).toBe(token?.accessToken);
    expect(now?.expires_at).toBe(token?.expiresAt);
    expect(now?.refresh_token).toBeTruthy();
    expect(now?.refresh_token).not.toBe(old?.refresh_token);
    expect(await acceptedByProvider(token?.accessToken ?? "")).toBe(true);
    expect(refreshed).toEqual([hint]);
    // The next read finds the stored token fresh.
    const before = op.tokenRequests;
    expect(await getAccessToken(requestOf(client), cfg, "op")).toEqual(token);
    expect(op.tokenRequests).toBe(before);
  });

  it("refreshes 20 concurrent reads of an expired token with one token request", async () => {
    const cfg = config();
    const client = new Client(cfg);
    const hint = freshHint();
    await signIn(client, hint);
    await expire(hint);
    const before = op.tokenRequests;
    const tokens = await Promise.all(
      Array.from({ length: 20 }, () => getAccessToken(requestOf(client), cfg, "op")),
    );
    expect(op.tokenRequests - before).toBe(1);
    expect(new Set(tokens.map((token) => token?.accessToken)).size).toBe(1);
    expect(await acceptedByProvider(tokens[0]?.accessToken ?? "")).toBe(true);
    // The rotated refresh token stored is the live one: it refreshes again.
    await expire(hint);
    const again = await getAccessToken(requestOf(client), cfg, "op");
    expect(again?.accessToken).not.toBe(tokens[0]?.accessToken);
  });

  it("authenticates the refresh with client_secret_post as the sign-in did", async () => {
    const cfg = config();
    const client = new Client(cfg);
    const hint = freshHint();
    await signIn(client, hint, "op-post");
    await expire(hint, "op-post");
    const token = await getAccessToken(requestOf(client), cfg, "op-post");
    expect(token?.accessToken).not.toBe((await stored(hint, "op"))?.access_token);
    expect(await acceptedByProvider(token?.accessToken ?? "")).toBe(true);
  });

  it("throws RefreshTokenError for a revoked refresh token, fires refreshTokenError and drops the dead token", async () => {
    const failures: Parameters<EventCallbacks["refreshTokenError"]>[0][] = [];
    const cfg = config({
      events: { refreshTokenError: (message) => void failures.push(message) },
    });
    const client = new Client(cfg);
    const hint = freshHint();
    await signIn(client, hint);
    const account = await stored(hint);
    const revoked = await fetch(`${op.issuer}/token/revocation`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa("app:app-secret")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token: account?.refresh_token ?? "" }),
    });
    expect(revoked.status).toBe(200);
    await expire(hint);
    const error = await getAccessToken(requestOf(client), cfg, "op").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefreshTokenError);
    expect((error as RefreshTokenError).type).toBe("RefreshTokenError");
    expect(failures).toEqual([
      { account: { provider: "op", providerAccountId: hint, userId: account?.userId }, error },
    ]);
    expect((await stored(hint))?.refresh_token).toBeUndefined();
    // Later reads fail at once, without asking the provider again.
    const before = op.tokenRequests;
    await expect(getAccessToken(requestOf(client), cfg, "op")).rejects.toBeInstanceOf(
      RefreshTokenError,
    );
    expect(op.tokenRequests).toBe(before);
  });

  it("stores a returning user's new tokens at sign-in, so a sign-in after a refused refresh refreshes again", async () => {
    const cfg = config();
    const hint = freshHint();
    await signIn(new Client(cfg), hint);
    const first = await stored(hint);
    await adapter.updateAccount?.({ provider: "op", providerAccountId: hint, refresh_token: null });
    const client = new Client(cfg);
    await signIn(client, hint);
    const second = await stored(hint);
    expect(second?.refresh_token).toEqual(expect.any(String));
    expect(second?.access_token).not.toBe(first?.access_token);
    expect(second?.id_token).not.toBe(first?.id_token);
    await expire(hint);
    const token = await getAccessToken(requestOf(client), cfg, "op");
    expect(await acceptedByProvider(token?.accessToken ?? "")).toBe(true);
  });
});

describe("getAccessToken across app instances", () => {
  it("refreshes once for concurrent reads in two processes sharing a Redis store and a PostgreSQL database", async () => {
    const db = createPostgresDb(POSTGRES_URL);
    const tablePrefix = `t_${randomUUID().replaceAll("-", "").slice(0, 10)}_`;
    await migrate(db, { dialect: "postgres", tablePrefix });
    const dir = await mkdtemp(join(tmpdir(), "tessera-refresh-"));
    try {
      const adapter = SqlAdapter(db, { dialect: "postgres", tablePrefix });
      const cfg = appWith(adapter);
      const client = new Client(cfg);
      const hint = freshHint();
      await signIn(client, hint);
      await expireStoredToken(adapter, hint);
      const before = op.tokenRequests;
      // Both processes start reading at the same moment, once vitest has started in each.
      const startAt = Date.now() + 6000;
      const instance = (name: string) => {
        const setup: InstanceSetup = {
          issuer: op.issuer,
          postgresUrl: POSTGRES_URL,
          tablePrefix,
          redisUrl: REDIS_URL,
          redisPrefix: `tessera-test:${randomUUID()}:`,
          secret: SECRET,
          url: `${ORIGIN}/api/data`,
          cookie: client.cookieHeader(),
          reads: 10,
          startAt,
          output: join(dir, `${name}.json`),
        };
        return setup;
      };
      const first = instance("first");
      const second = { ...instance("second"), redisPrefix: first.redisPrefix };
      await Promise.all(
        [first, second].map((setup) =>
          promisify(execFile)(
            process.execPath,
            [vitestCli, "run", "--config", join(instanceDir, "vitest.config.ts")],
            {
              cwd: instanceDir,
              env: { ...process.env, TESSERA_REFRESH_INSTANCE: JSON.stringify(setup) },
            },
          ),
        ),
      );
      const tokens = [
        ...(JSON.parse(await readFile(first.output, "utf8")) as string[]),
        ...(JSON.parse(await readFile(second.output, "utf8")) as string[]),
      ];
      expect(tokens).toHaveLength(20);
      expect(op.tokenRequests - before).toBe(1);
      expect(new Set(tokens).size).toBe(1);
      expect(await acceptedByProvider(tokens[0] ?? "")).toBe(true);
      expect((await adapter.getAccount(hint, "op"))?.access_token).toBe(tokens[0]);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await dropSchema(db, { dialect: "postgres", tablePrefix });
      await db.destroy();
    }
  }, 60_000);
});

describe("getAccessToken with an adapter lacking updateAccount", () => {
  it("names the missing adapter method when a refresh is due", async () => {
    const full = MemoryAdapter();
    const { updateAccount: _dropped, ...adapter } = full;
    const cfg = appWith(adapter);
    const client = new Client(cfg);
    const hint = freshHint();
    await signIn(client, hint);
    await expireStoredToken(full, hint);
    const error = await getAccessToken(requestOf(client), cfg, "op").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingAdapterMethods);
    expect((error as Error).message).toContain("updateAccount");
  });
});

describe("getAccessToken after another read's refresh has finished", () => {
  it("a read that saw the due token before the refresh stored new ones answers the stored tokens without a second token request", async () => {
    const full = MemoryAdapter();
    let staleListing: AdapterAccount[] | undefined;
    // The memory adapter, but one listing answers the accounts as they were before the refresh:
    // what a read that lost the race against a concurrent refresh saw (it read the row, then the
    // other read's refresh finished and left the in-process flight before this one reached it).
    const adapter: Adapter = {
      ...full,
      async listAccountsByUserId(userId) {
        const stale = staleListing;
        staleListing = undefined;
        return stale ?? (await full.listAccountsByUserId?.(userId)) ?? [];
      },
    };
    const cfg = appWith(adapter);
    const client = new Client(cfg);
    const hint = freshHint();
    await signIn(client, hint);
    await expireStoredToken(full, hint);
    const user = await full.getUserByAccount?.({ provider: "op", providerAccountId: hint });
    const due = structuredClone((await full.listAccountsByUserId?.(user?.id ?? "")) ?? []);
    expect(due.length).toBe(1);
    const before = op.tokenRequests;
    const first = await getAccessToken(requestOf(client), cfg, "op");
    staleListing = due;
    const late = await getAccessToken(requestOf(client), cfg, "op");
    expect(op.tokenRequests - before).toBe(1);
    expect(late).toEqual(first);
    expect(await acceptedByProvider(late?.accessToken ?? "")).toBe(true);
  });
});

describe("getAccessToken with oauth.refreshMargin longer than the provider's token lifetime", () => {
  it("refreshes on every read and warns once that the margin exceeds the lifetime; a fitting margin never warns", async () => {
    const adapter = MemoryAdapter();
    const { logger, warnings } = recordingLogger();
    const configWith = (refreshMargin?: number): AuthConfig => ({
      secret: SECRET,
      trustHost: true,
      logger,
      adapter,
      providers: [opProvider()],
      ...(refreshMargin !== undefined && { oauth: { refreshMargin } }),
    });
    const client = new Client(configWith());
    const hint = freshHint();
    await signIn(client, hint);
    // The default margin (60 s) against the provider's one-hour tokens: a due token is
    // refreshed once, and the new one is fresh.
    await expireStoredToken(adapter, hint);
    let before = op.tokenRequests;
    const fitting = await getAccessToken(requestOf(client), configWith(), "op");
    await getAccessToken(requestOf(client), configWith(), "op");
    expect(op.tokenRequests).toBe(before + 1);
    expect(warnings).toEqual([]);

    // A two-hour margin: every token arrives already due, so each read refreshes.
    before = op.tokenRequests;
    const first = await getAccessToken(requestOf(client), configWith(7200), "op");
    const second = await getAccessToken(requestOf(client), configWith(7200), "op");
    expect(op.tokenRequests).toBe(before + 2);
    expect(new Set([fitting?.accessToken, first?.accessToken, second?.accessToken]).size).toBe(3);
    expect(warnings).toEqual(["refresh-margin-exceeds-lifetime"]);
  });
});

describe("getAccessToken when the provider cannot be reached", () => {
  it("throws RefreshUnavailable with the cause and keeps the stored refresh token for the next try", async () => {
    const adapter = MemoryAdapter();
    let reachable = false;
    const flaky: typeof fetch = async (input, init) => {
      if (!reachable && String(init?.body ?? "").includes("grant_type=refresh_token"))
        throw new TypeError("fetch failed (connection refused)");
      return fetch(input, init);
    };
    const cfg: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: recordingLogger().logger,
      adapter,
      providers: [opProvider({ [customFetch]: flaky })],
    };
    const client = new Client(cfg);
    const hint = freshHint();
    await signIn(client, hint);
    const before = await adapter.getAccount(hint, "op");
    await expireStoredToken(adapter, hint);
    const error = await getAccessToken(requestOf(client), cfg, "op").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefreshUnavailable);
    expect(String((error as RefreshUnavailable).cause?.err)).toContain("connection refused");
    expect((await adapter.getAccount(hint, "op"))?.refresh_token).toBe(before?.refresh_token);
    reachable = true;
    const token = await getAccessToken(requestOf(client), cfg, "op");
    expect(await acceptedByProvider(token?.accessToken ?? "")).toBe(true);
  });
});

describe("getAccessToken with other clients and providers", () => {
  it("authenticates the refresh with private_key_jwt, and keeps the refresh token a provider does not rotate", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const publicJwk = { ...(await exportJWK(publicKey)), kid: "client-key", alg: "ES256" };
    const steady = await startOidcProvider({
      clients: [
        {
          client_id: "signed",
          grant_types: ["authorization_code", "refresh_token"],
          redirect_uris: [`${ORIGIN}/auth/callback/steady`],
          token_endpoint_auth_method: "private_key_jwt",
          token_endpoint_auth_signing_alg: "ES256",
          jwks: { keys: [publicJwk] },
        },
      ],
      accounts: [{ sub: "steady-user", email: "steady@example.com", email_verified: true }],
      // Refresh tokens that stay valid after use: the answer to a refresh carries none.
      refreshTokens: true,
    });
    try {
      const adapter = MemoryAdapter();
      const refreshAnswers: Record<string, unknown>[] = [];
      const cfg: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        logger: recordingLogger().logger,
        adapter,
        providers: [
          {
            id: "steady",
            name: "Steady OP",
            type: "oidc",
            issuer: steady.issuer,
            clientId: "signed",
            client: {
              token_endpoint_auth_method: "private_key_jwt",
              privateKey: { key: privateKey, kid: "client-key" },
            },
            // Like Google: the answer to a refresh carries no refresh token (the one used stays
            // valid). oidc-provider echoes it, so it is taken out on the way back.
            [customFetch]: async (input: RequestInfo | URL, init?: RequestInit) => {
              const response = await fetch(input, init);
              if (!String(init?.body ?? "").includes("grant_type=refresh_token")) return response;
              const { refresh_token: _omitted, ...body } = (await response.json()) as Record<
                string,
                unknown
              >;
              refreshAnswers.push(body);
              return Response.json(body, { status: response.status });
            },
          },
        ],
      };
      const client = new Client(cfg);
      const url = await startSignIn(client, "steady");
      expect(
        locationOf(await deliverCallback(client, await steady.authorize(url.href))).origin,
      ).toBe(ORIGIN);
      const before = await adapter.getAccount("steady-user", "steady");
      for (let round = 0; round < 2; round++) {
        await expireStoredToken(adapter, "steady-user", "steady");
        const token = await getAccessToken(requestOf(client), cfg, "steady");
        const after = await adapter.getAccount("steady-user", "steady");
        expect(token?.accessToken).not.toBe(before?.access_token);
        expect(after?.refresh_token).toBe(before?.refresh_token);
      }
      expect(refreshAnswers).toHaveLength(2);
      expect(refreshAnswers[0]).not.toHaveProperty("refresh_token");
    } finally {
      await steady.close();
    }
  });
});
