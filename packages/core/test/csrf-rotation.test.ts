/**
 * CSRF-token rotation: every sign-in (credentials, OAuth, e-mail, WebAuthn) and every sign-out
 * answers with a new CSRF cookie, so a token an attacker planted or learnt before (login CSRF,
 * fixation of the double-submit token) is refused afterwards. The new cookie keeps the name,
 * attributes and `token|sha256hex(token + secret)` format that Auth.js reads.
 */

import { readFile } from "node:fs/promises";
import { Auth as AuthJs } from "@auth/core";
import AuthJsCredentials from "@auth/core/providers/credentials";
import { type AuthConfig, skipCSRFCheck } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import Email from "@tessera/core/providers/email";
import Passkey from "@tessera/core/providers/passkey";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followLink, recordingSender, requestLink } from "./email-helpers.js";
import { deliverCallback, locationOf, startSignIn } from "./fixtures/oauth-flow.js";
import { type RunningOidcProvider, startOidcProvider } from "./fixtures/oidc-provider.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { type ParsedSetCookie, setCookies } from "./set-cookie.js";
import { type CreationOptionsJSON, SoftAuthenticator } from "./webauthn-authenticator.js";

const CSRF = "authjs.csrf-token";
const SESSION = "authjs.session-token";
const ADA = { sub: "ada-1", email: "ada@example.com", email_verified: true, name: "Ada" };
let op: RunningOidcProvider;

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: "rp",
        client_secret: "rp-secret",
        redirect_uris: [`${ORIGIN}/auth/callback/op`],
      },
    ],
    accounts: [ADA],
  });
});
afterAll(() => op?.close());

const credentials = () =>
  Credentials({
    credentials: { username: {}, password: { type: "password" } },
    authorize: (c) => (c.password === "lovelace" ? { id: "1", name: "Ada" } : null),
  });

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [credentials()],
    ...overrides,
  };
}

/** The attacker's own CSRF cookie and token (their token pair is valid: it carries our hash). */
async function attackerPair(cfg: AuthConfig): Promise<{ cookie: string; token: string }> {
  const attacker = new Client(cfg);
  const token = await attacker.csrfToken();
  return { cookie: attacker.jar.get(CSRF) ?? "", token };
}

/** A victim whose browser holds the attacker's CSRF cookie (planted from a sibling subdomain). */
async function victimWithPlantedToken(cfg: AuthConfig) {
  const planted = await attackerPair(cfg);
  const victim = new Client(cfg);
  victim.jar.set(CSRF, planted.cookie);
  return { victim, planted };
}

/** The new CSRF cookie a response sets: new token, same format. */
function rotatedCookie(response: Response, planted: { token: string }): ParsedSetCookie {
  const cookie = setCookies(response).get(CSRF);
  expect(cookie, "the response sets a new CSRF cookie").toBeDefined();
  const [token, hash] = (cookie?.value ?? "").split("|");
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  expect(token).not.toBe(planted.token);
  return cookie as ParsedSetCookie;
}

/** The planted token no longer passes; a fresh one from GET /csrf does. */
async function expectPlantedTokenRefused(victim: Client, planted: { token: string }) {
  expect(await victim.session()).not.toBeNull();
  const refused = await victim.post("/auth/signout", { csrfToken: planted.token });
  expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`);
  expect(await victim.session(), "the refused sign-out left the session").not.toBeNull();
  const fresh = await victim.csrfToken();
  expect(fresh).not.toBe(planted.token);
  const out = await victim.post("/auth/signout", { csrfToken: fresh });
  expect(out.headers.get("location")).toBe(ORIGIN);
  expect(await victim.session()).toBeNull();
}

describe("CSRF token rotation at sign-in", () => {
  it("login CSRF: a token planted before a credentials sign-in is refused after it (JWT)", async () => {
    const { victim, planted } = await victimWithPlantedToken(config());
    const response = await victim.post("/auth/callback/credentials", {
      csrfToken: planted.token,
      username: "ada",
      password: "lovelace",
    });
    expect(setCookies(response).get(SESSION)?.value).toBeTruthy();
    rotatedCookie(response, planted);
    await expectPlantedTokenRefused(victim, planted);
  });

  it("login CSRF: a token planted before a credentials sign-in is refused after it (database)", async () => {
    const cfg = config({
      adapter: MemoryAdapter(createMemoryStore()),
      session: { strategy: "database" },
    });
    const { victim, planted } = await victimWithPlantedToken(cfg);
    const response = await victim.post("/auth/callback/credentials", {
      csrfToken: planted.token,
      username: "ada",
      password: "lovelace",
    });
    rotatedCookie(response, planted);
    await expectPlantedTokenRefused(victim, planted);
  });

  it("login CSRF: a token planted before an OIDC sign-in is refused after it", async () => {
    const cfg = config({
      providers: [
        {
          id: "op",
          name: "OP",
          type: "oidc",
          issuer: op.issuer,
          clientId: "rp",
          clientSecret: "rp-secret",
        },
      ],
    });
    const { victim, planted } = await victimWithPlantedToken(cfg);
    const authorizationUrl = await startSignIn(victim, "op");
    const response = await deliverCallback(victim, await op.authorize(authorizationUrl.href));
    expect(locationOf(response).origin).toBe(ORIGIN);
    rotatedCookie(response, planted);
    await expectPlantedTokenRefused(victim, planted);
  });

  it("login CSRF: a token planted before an e-mail link sign-in is refused after it", async () => {
    // The link is captured through `sendVerificationRequest` (the public hook): the transport
    // plays no part in CSRF, and email-smtp.test.ts covers delivery through a real SMTP server.
    const sender = recordingSender();
    const cfg = config({
      adapter: MemoryAdapter(createMemoryStore()),
      providers: [Email({ sendVerificationRequest: sender.sendVerificationRequest })],
    });
    const { victim, planted } = await victimWithPlantedToken(cfg);
    await requestLink(victim, "email", "ada@example.com");
    const response = await followLink(victim, sender.lastLink("ada@example.com"));
    expect(setCookies(response).get(SESSION)?.value).toBeTruthy();
    rotatedCookie(response, planted);
    await expectPlantedTokenRefused(victim, planted);
  });

  it("login CSRF: a token planted before a passkey sign-up is refused after it", async () => {
    const cfg = config({
      adapter: MemoryAdapter(createMemoryStore()),
      providers: [Passkey()],
      experimental: { enableWebAuthn: true },
    });
    const { victim, planted } = await victimWithPlantedToken(cfg);
    const options = await victim.get(
      `/auth/webauthn-options/passkey?${new URLSearchParams({ action: "register", email: "ada@example.com" })}`,
    );
    const body = (await options.json()) as { options: CreationOptionsJSON };
    const response = await victim.post("/auth/callback/passkey", {
      action: "register",
      data: JSON.stringify(new SoftAuthenticator().register(body.options)),
      csrfToken: planted.token,
    });
    expect(setCookies(response).get(SESSION)?.value).toBeTruthy();
    rotatedCookie(response, planted);
    await expectPlantedTokenRefused(victim, planted);
  });

  it("keeps the cookie's name and attributes (plain http and __Host- on https)", async () => {
    for (const origin of [ORIGIN, "https://app.example.com"]) {
      const cfg = config();
      const minted = setCookies(await new Client(cfg, origin).get("/auth/csrf"));
      const [name, expected] = [...minted][0] ?? [];
      expect(name).toBe(origin.startsWith("https") ? `__Host-${CSRF}` : CSRF);
      const client = new Client(cfg, origin);
      const csrfToken = await client.csrfToken();
      const response = await client.post("/auth/callback/credentials", {
        csrfToken,
        username: "ada",
        password: "lovelace",
      });
      const rotated = setCookies(response).get(name ?? "");
      expect(rotated).toBeDefined();
      expect({ ...rotated, value: "" }).toEqual({ ...expected, value: "" });
    }
  });

  it("writes a cookie Auth.js accepts: @auth/core hands out the rotated token", async () => {
    const client = new Client(config());
    const csrfToken = await client.csrfToken();
    const response = await client.post("/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: "lovelace",
    });
    const rotated = setCookies(response).get(CSRF)?.value ?? "";
    const authJs = await AuthJs(
      new Request(`${ORIGIN}/auth/csrf`, { headers: { cookie: `${CSRF}=${rotated}` } }),
      {
        secret: SECRET,
        trustHost: true,
        basePath: "/auth",
        providers: [AuthJsCredentials({ authorize: () => null })],
      },
    );
    expect(await authJs.json()).toEqual({ csrfToken: rotated.split("|")[0] });
  });

  it("without CSRF checks (server actions), rotates a CSRF cookie the browser holds and adds none otherwise", async () => {
    const cfg = config({ skipCSRFCheck });
    const planted = await attackerPair(config());
    const holder = new Client(cfg);
    holder.jar.set(CSRF, planted.cookie);
    const form = { username: "ada", password: "lovelace" };
    rotatedCookie(await holder.post("/auth/callback/credentials", form), planted);
    const without = await new Client(cfg).post("/auth/callback/credentials", form);
    expect(setCookies(without).get(SESSION)?.value).toBeTruthy();
    expect(setCookies(without).has(CSRF)).toBe(false);
  });
});

describe("CSRF token rotation at sign-out", () => {
  it("logout then login CSRF: the token used before sign-out is refused after it", async () => {
    const client = new Client(config());
    const before = await client.csrfToken();
    await client.post("/auth/callback/credentials", {
      csrfToken: before,
      username: "ada",
      password: "lovelace",
    });
    const token = await client.csrfToken();
    const out = await client.post("/auth/signout", { csrfToken: token });
    expect(setCookies(out).get(SESSION)?.maxAge).toBe(0);
    rotatedCookie(out, { token });
    // A page that saw the old token cannot sign the browser in to the attacker's account.
    const login = await client.post("/auth/callback/credentials", {
      csrfToken: token,
      username: "mallory",
      password: "lovelace",
    });
    expect(setCookies(login).has(SESSION)).toBe(false);
    expect(await client.session()).toBeNull();
    const fresh = await client.csrfToken();
    expect(fresh).not.toBe(token);
  });

  it("a refused sign-out (wrong token) keeps the CSRF cookie", async () => {
    const client = new Client(config());
    await client.csrfToken();
    const refused = await client.post("/auth/signout", { csrfToken: "0".repeat(64) });
    expect(setCookies(refused).has(CSRF)).toBe(false);
  });
});

it("is listed as a deliberate difference in the migration guide", async () => {
  const guide = await readFile(
    new URL("../../../docs/migrating-from-authjs.md", import.meta.url),
    "utf8",
  );
  const section = guide.split(/^## Deliberate differences$/m)[1]?.split(/^## /m)[0] ?? "";
  expect(section).toMatch(/^- \*\*The CSRF token changes at every sign-in and sign-out/m);
});
