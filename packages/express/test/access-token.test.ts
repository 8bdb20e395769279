/**
 * `getAccessToken` in an Express app's own route, against a real OpenID Provider (oidc-provider
 * on 127.0.0.1) rotating refresh tokens: the signed-in user's token, a refresh once it expired
 * (one token request for concurrent requests), with database and JWT sessions.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthConfig } from "@tessera/core";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../../core/test/fixtures/oidc-provider.js";
import { ExpressAuth, type ExpressAuthConfig, getAccessToken } from "../src/index.js";
import { HttpClient } from "./http-client.js";

const memory = createMemoryStore();
let op: RunningOidcProvider;
let server: Server;
let origin: string;
const configs: Record<string, ExpressAuthConfig> = {};

beforeAll(async () => {
  const app = express();
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  op = await startOidcProvider({
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: [`${origin}/db/callback/op`, `${origin}/jwt/callback/op`],
      },
    ],
    accounts: [
      { sub: "ada", email: "ada@example.com", email_verified: true, name: "Ada" },
      { sub: "grace", email: "grace@example.com", email_verified: true, name: "Grace" },
    ],
    refreshTokens: "rotate",
  });
  const base: AuthConfig = {
    secret: "express-access-token-secret-at-least-32",
    trustHost: true,
    providers: [
      {
        id: "op",
        name: "Test OP",
        type: "oidc",
        issuer: op.issuer,
        clientId: "app",
        clientSecret: "app-secret",
        refresh: true,
      },
    ],
  };
  configs.db = { ...base, adapter: MemoryAdapter(memory) };
  configs.jwt = { ...base };
  for (const [name, config] of Object.entries(configs)) {
    app.use(`/${name}`, ExpressAuth(config));
    app.get(`/api/${name}/token`, async (req, res) => {
      res.json(await getAccessToken(req, config, "op"));
    });
  }
});
afterAll(async () => {
  await op?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function signIn(name: string, hint: string): Promise<HttpClient> {
  const client = new HttpClient(origin);
  const csrfToken = await client.csrfToken(`/${name}`);
  const start = await client.postForm(`/${name}/signin/op?login_hint=${hint}`, { csrfToken });
  const answer = await op.authorize(start.headers.get("location") ?? "");
  const callback = await client.get(new URL(answer.url).pathname + new URL(answer.url).search);
  expect(callback.status).toBe(302);
  return client;
}

describe("getAccessToken in an Express route", () => {
  it("serves the database session's token and refreshes it once when expired", async () => {
    const client = await signIn("db", "ada");
    const fresh = (await (await client.get("/api/db/token")).json()) as { accessToken: string };
    expect(fresh.accessToken).toEqual(expect.any(String));
    const account = [...memory.accounts.values()].find((a) => a.providerAccountId === "ada");
    if (account) account.expires_at = Math.floor(Date.now() / 1000) - 5;
    const before = op.tokenRequests;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.get("/api/db/token").then((r) => r.json())),
    );
    expect(op.tokenRequests - before).toBe(1);
    const tokens = new Set(
      answers.map((answer) => (answer as { accessToken: string }).accessToken),
    );
    expect(tokens.size).toBe(1);
    expect(tokens.has(fresh.accessToken)).toBe(false);
  });

  it("serves a JWT session's token and answers null when signed out", async () => {
    const client = await signIn("jwt", "grace");
    const token = (await (await client.get("/api/jwt/token")).json()) as { tokenType: string };
    expect(token).toMatchObject({ tokenType: "bearer" });
    expect(await (await new HttpClient(origin).get("/api/jwt/token")).json()).toBeNull();
  });
});
