/**
 * Published Auth.js / NextAuth.js security advisories, each replayed against Tessera: the test
 * named after an advisory performs its attack and shows that it fails here. Advisories already
 * covered by a test elsewhere are listed in docs/security.md with that test instead.
 *
 * The identity providers here are configured with explicit endpoints and a `customFetch` that
 * records every back-channel request and refuses it: the attacks under test must be stopped
 * before Tessera talks to the provider, so no real provider is needed (oauth-attacks.test.ts runs
 * the same attacks against a real OpenID Provider).
 */
import { existsSync, readFileSync } from "node:fs";
import { Auth, type AuthConfig, customFetch } from "@tessera/core";
import { decode, getToken } from "@tessera/core/jwt";
import type { OIDCConfig } from "@tessera/core/providers";
import Credentials from "@tessera/core/providers/credentials";
import Email from "@tessera/core/providers/email";
import { createMemoryStore, MemoryAdapter, type MemoryStore } from "@tessera/memory";
import { describe, expect, it } from "vitest";
import { EMAIL_SIGNIN_ERROR } from "./email-helpers.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

/** A provider that records the back-channel requests Tessera makes, and refuses them all. */
function recordingIdp() {
  const requests: string[] = [];
  const fetcher = async (input: string | URL | Request): Promise<Response> => {
    requests.push(input instanceof Request ? input.url : String(input));
    return Response.json({ error: "invalid_grant" }, { status: 400 });
  };
  return { requests, fetch: fetcher };
}

/** An OpenID Connect provider with explicit endpoints (no discovery) running `checks`. */
function oidcProvider(id: string, checks: OIDCConfig["checks"], fetcher: typeof fetch): OIDCConfig {
  const issuer = `https://${id}.idp.test`;
  return {
    id,
    name: id,
    type: "oidc",
    issuer,
    clientId: "client",
    clientSecret: "client-secret",
    authorization: `${issuer}/authorize`,
    token: `${issuer}/token`,
    userinfo: `${issuer}/userinfo`,
    jwks_endpoint: `${issuer}/jwks`,
    checks,
    [customFetch]: fetcher,
  };
}

/** The recorder of `sendVerificationRequest` calls. */
function recordingSender() {
  const sent: { identifier: string; url: string }[] = [];
  return {
    sent,
    sendVerificationRequest: ({ identifier, url }: { identifier: string; url: string }) =>
      void sent.push({ identifier, url }),
  };
}

/** A site with credentials, e-mail links and OIDC providers `a` and `b` of the same kind. */
function site(checks: OIDCConfig["checks"] = ["pkce", "state", "nonce"]) {
  const idp = recordingIdp();
  const sender = recordingSender();
  const store: MemoryStore = createMemoryStore();
  const signInCalls: unknown[] = [];
  const log = recordingLogger();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(store),
    session: { strategy: "jwt" },
    logger: log.logger,
    callbacks: {
      signIn: ({ user, email }) => {
        signInCalls.push({ user, email });
        return true;
      },
    },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === "ada" && password === "lovelace"
            ? { id: "ada", name: "Ada", email: "ada@example.com" }
            : null,
      }),
      Email({ sendVerificationRequest: sender.sendVerificationRequest }),
      oidcProvider("a", checks, idp.fetch),
      oidcProvider("b", checks, idp.fetch),
    ],
  };
  return { config, idp, sender, store, signInCalls, log, client: new Client(config) };
}

/** Starts a sign-in with provider `id`; returns the `state` it sent (if any). */
async function startSignIn(client: Client, id: string): Promise<string | null> {
  const csrfToken = await client.csrfToken();
  const response = await client.post(`/auth/signin/${id}`, { csrfToken });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location") ?? "");
  expect(location.origin).toBe(`https://${id}.idp.test`);
  return location.searchParams.get("state");
}

/** Asks for an e-mail link for `email`; returns the response. */
async function requestLink(client: Client, email: string): Promise<Response> {
  const csrfToken = await client.csrfToken();
  return client.post("/auth/signin/email", { csrfToken, email });
}

const OPEN_REDIRECTS = [
  "https://evil.test",
  "https://evil.test/auth/callback/a",
  "//evil.test",
  "///evil.test",
  "/\\evil.test",
  "\\\\evil.test",
  "/%2F%2Fevil.test",
  "https:evil.test",
  "http://localhost:3000@evil.test",
  "http://localhost:3000.evil.test",
  "http://evil.test#@localhost:3000",
  "http://localhost:3000\\@evil.test",
  "javascript:alert(document.cookie)",
  "data:text/html,<script>alert(1)</script>",
  " //evil.test",
  "/\t/evil.test",
];

describe("GHSA-f9wg-5f46-cjmw / CVE-2022-24858 and GHSA-q2mx-j4x2-2h74 / CVE-2022-29214: open redirect through callbackUrl", () => {
  it.each(OPEN_REDIRECTS)(
    "keeps %j on the site's origin at sign-in, in the callback-url cookie and at sign-out",
    async (target) => {
      const { client } = site();
      const csrfToken = await client.csrfToken();
      const signIn = await client.post("/auth/callback/credentials", {
        csrfToken,
        username: "ada",
        password: "lovelace",
        callbackUrl: target,
      });
      expect(new URL(signIn.headers.get("location") ?? "").origin).toBe(ORIGIN);
      // An OAuth sign-in (the OAuth 1 variant of the advisory) keeps the target in the
      // callback-url cookie until the provider comes back: only a same-origin URL gets there.
      await client.get(`/auth/signin?callbackUrl=${encodeURIComponent(target)}`);
      const stored = client.jar.get("authjs.callback-url");
      if (stored !== undefined) expect(new URL(decodeURIComponent(stored)).origin).toBe(ORIGIN);
      const signOut = await client.post("/auth/signout", {
        csrfToken: await client.csrfToken(),
        callbackUrl: target,
      });
      expect(new URL(signOut.headers.get("location") ?? "").origin).toBe(ORIGIN);
    },
  );

  it("ignores a callback-url cookie planted with a foreign URL (cookie tossing)", async () => {
    const { client } = site();
    client.jar.set("authjs.callback-url", encodeURIComponent("https://evil.test/phish"));
    const csrfToken = await client.csrfToken();
    const signIn = await client.post("/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: "lovelace",
    });
    expect(signIn.headers.get("location")).toBe(ORIGIN);
  });
});

describe("GHSA-g5fm-jp9v-2432 / CVE-2022-31093: a malformed callbackUrl made the handler fail", () => {
  const MALFORMED = [
    "http://[::1",
    "http://",
    "https://localhost:3000:99999/",
    "http://a b/",
    "%",
    "%E0%A4%A",
    ":",
    "//",
    "\ud800",
    "/\ud800",
    "/\udc00x",
    "\u0000",
    "/ok\r\nSet-Cookie: x=1",
    "a".repeat(100_000),
  ];

  it.each(MALFORMED.map((value) => [JSON.stringify(value).slice(0, 40), value]))(
    "answers %s in the query, the form, the JSON body and the cookie without failing",
    async (_name, value) => {
      const { config, client } = site();
      const csrfToken = await client.csrfToken();
      const cookie = `${client.cookieHeader()}; authjs.callback-url=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "x"))}`;
      const requests = [
        new Request(
          `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "x"))}`,
        ),
        new Request(`${ORIGIN}/auth/signout`, { headers: { cookie } }),
        new Request(`${ORIGIN}/auth/callback/credentials`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify({
            csrfToken,
            username: "ada",
            password: "lovelace",
            callbackUrl: value,
          }),
        }),
        new Request(`${ORIGIN}/auth/signout`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify({ csrfToken, callbackUrl: value }),
        }),
        new Request(`${ORIGIN}/auth/signin/a`, {
          method: "POST",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken, callbackUrl: value }),
        }),
      ];
      for (const request of requests) {
        const response = await Auth(request, config);
        expect(response.status, `${request.method} ${new URL(request.url).pathname}`).toBeLessThan(
          500,
        );
        const location = response.headers.get("location");
        if (location !== null && !location.startsWith("https://a.idp.test/"))
          expect(new URL(location).origin).toBe(ORIGIN);
      }
    },
  );
});

describe("GHSA-pgjx-7f9g-9463 / CVE-2022-31127: HTML smuggled into the sign-in e-mail", () => {
  it("refuses an address carrying markup before anything is stored or sent", async () => {
    const { client, sender, store, signInCalls } = site();
    const response = await requestLink(
      client,
      'ada@example.com, <a href="http://evil.test">Before signing in, claim your money!</a>',
    );
    expect(response.headers.get("location")).toMatch(EMAIL_SIGNIN_ERROR);
    expect(sender.sent).toHaveLength(0);
    expect(store.verificationTokens.size).toBe(0);
    expect(signInCalls).toHaveLength(0);
  });
});

describe("GHSA-xv97-c62v-4587 / CVE-2022-35924: a list of addresses received the link", () => {
  it.each([
    "eve@evil.test,ada@example.com",
    "ada@example.com,eve@evil.test",
    "ada@example.com;eve@evil.test",
    "ada@example.com eve@evil.test",
    "ada@example.com\r\nBcc: eve@evil.test",
  ])("sends no link to %j and never shows it to the signIn callback", async (email) => {
    const { client, sender, store, signInCalls } = site();
    const response = await requestLink(client, email);
    expect(response.headers.get("location")).toMatch(EMAIL_SIGNIN_ERROR);
    expect(sender.sent).toHaveLength(0);
    expect(store.verificationTokens.size).toBe(0);
    expect(signInCalls).toHaveLength(0);
  });

  it("sends the link of a plain address to that one canonical address (control)", async () => {
    const { client, sender } = site();
    await requestLink(client, " Ada@Example.COM ");
    expect(sender.sent.map((s) => s.identifier)).toEqual(["ada@example.com"]);
  });
});

describe("GHSA-5jpx-9hw9-2fx4: a quoted local part made the mailer deliver to the attacker", () => {
  it.each(['"e@attacker.test"@victim.test', '"eve@evil.test"@example.com', '"eve"@example.com'])(
    "refuses %j before the mailer sees it",
    async (email) => {
      const { client, sender, store } = site();
      const response = await requestLink(client, email);
      expect(response.headers.get("location")).toMatch(EMAIL_SIGNIN_ERROR);
      expect(sender.sent).toHaveLength(0);
      expect(store.verificationTokens.size).toBe(0);
    },
  );
});

describe("GHSA-7rqj-j65f-68wh / CVE-2026-73420: a look-alike @ passed validation, then became a real @", () => {
  it.each([
    ["fullwidth commercial at U+FF20", "eve\uff20evil.test@victim.test"],
    ["small commercial at U+FE6B", "eve\ufe6bevil.test@victim.test"],
    ["fullwidth at as the only @", "ada\uff20example.com"],
  ])("refuses an address with a %s before normalising it", async (_name, email) => {
    const { client, sender, store, signInCalls } = site();
    const response = await requestLink(client, email);
    expect(response.headers.get("location")).toMatch(EMAIL_SIGNIN_ERROR);
    expect(sender.sent).toHaveLength(0);
    expect(store.verificationTokens.size).toBe(0);
    expect(signInCalls).toHaveLength(0);
  });
});

describe("GHSA-x445-f3h2-j279 / CVE-2026-73419: check cookies not bound to the provider that created them", () => {
  it.each([["pkce"], ["state"], ["nonce"]] as const)(
    "refuses a %s check minted for provider a at provider b's callback, before any token request",
    async (check) => {
      const { client, idp } = site([check]);
      const state = await startSignIn(client, "a");
      const query = new URLSearchParams({ code: "code-issued-to-a" });
      if (state) query.set("state", state);
      const atB = await client.get(`/auth/callback/b?${query}`);
      expect(atB.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
      expect(idp.requests).toEqual([]);

      // Control: the same checks at the provider that minted them reach its token endpoint.
      const again = await startSignIn(client, "a");
      if (again) query.set("state", again);
      await client.get(`/auth/callback/a?${query}`);
      expect(idp.requests).toEqual(["https://a.idp.test/token"]);
    },
  );
});

describe("GHSA-v64w-49xw-qq89 / CVE-2023-48309: a check cookie replayed as the session cookie", () => {
  it("no state, PKCE or nonce cookie, nor the state parameter, counts as a session", async () => {
    const { config, client } = site();
    const state = await startSignIn(client, "a");
    const planted: [string, string][] = [
      ["authjs.state", client.jar.get("authjs.state") ?? ""],
      ["authjs.pkce.code_verifier", client.jar.get("authjs.pkce.code_verifier") ?? ""],
      ["authjs.nonce", client.jar.get("authjs.nonce") ?? ""],
      ["encodedState", state ?? ""],
    ];
    for (const [salt, value] of planted) {
      // Each value is a JWE Tessera issued with the same secret: it decodes under its own name…
      expect(await decode({ token: value, secret: SECRET, salt }), salt).not.toBeNull();
      // …and under no other, so it is neither a session for Auth() nor for getToken().
      const cookie = `authjs.session-token=${value}`;
      const session = await Auth(
        new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }),
        config,
      );
      expect(await session.json(), salt).toBeNull();
      const request = new Request(`${ORIGIN}/`, { headers: { cookie } });
      expect(
        await getToken({ req: request, secret: SECRET, logger: { error: () => {} } }),
      ).toBeNull();
      const bearer = new Request(`${ORIGIN}/`, { headers: { authorization: `Bearer ${value}` } });
      expect(
        await getToken({ req: bearer, secret: SECRET, logger: { error: () => {} } }),
      ).toBeNull();
    }
  });
});

describe("GHSA-xmf8-cvqr-rfgj / CVE-2026-73418: getToken() threw on a malformed Bearer header", () => {
  it.each(["%E0%A4%A", "%", "%ZZ", "%ED%A0%80", "a%"])(
    "getToken() and GET /session answer no session for Bearer %j",
    async (value) => {
      const { config } = site();
      const request = new Request(`${ORIGIN}/auth/session`, {
        headers: { authorization: `Bearer ${value}` },
      });
      await expect(
        getToken({ req: request, secret: SECRET, logger: { error: () => {} } }),
      ).resolves.toBeNull();
      const response = await Auth(request, config);
      expect(response.status).toBe(200);
      expect(await response.json()).toBeNull();
    },
  );
});

describe("GHSA-8fpg-xm3f-6cx3 / CVE-2026-73421: a configuration error made auth checks fail open", () => {
  it("answers /session with 500 {message}, not a session, when the config breaks under a valid cookie", async () => {
    const { client } = site();
    const csrfToken = await client.csrfToken();
    await client.post("/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: "lovelace",
    });
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });

    // The same secret, but the e-mail provider has lost its adapter: a configuration error.
    const broken: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: { error: () => {} },
      providers: [Email({ sendVerificationRequest: () => {} })],
    };
    const response = await Auth(
      new Request(`${ORIGIN}/auth/session`, { headers: { cookie: client.cookieHeader() } }),
      broken,
    );
    expect(response.status).toBe(500);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["message"]);
    expect(body).not.toHaveProperty("user");
  });
});

describe("docs/security.md", () => {
  const root = new URL("../../../", import.meta.url);
  const doc = readFileSync(new URL("docs/security.md", root), "utf8");

  it("names only files that exist and tests that exist in the file named before them", () => {
    const token = /`((?:packages|apps|e2e)\/[^`\s]+\.ts)`|“([^”]+)”/g;
    let file: string | undefined;
    let checked = 0;
    for (const [, path, name] of doc.matchAll(token)) {
      if (path !== undefined) {
        expect(existsSync(new URL(path, root)), path).toBe(true);
        file = path;
        continue;
      }
      if (name === undefined) continue;
      expect(file, `“${name}” follows no test file`).toBeDefined();
      const source = readFileSync(new URL(file ?? "", root), "utf8");
      expect(source.includes(name), `${file} has no test “${name}”`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(80);
  });

  it("lists every advisory this file replays", () => {
    const source = readFileSync(new URL("packages/core/test/advisories.test.ts", root), "utf8");
    const replayed = new Set(source.match(/GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}/g));
    expect(replayed.size).toBeGreaterThan(5);
    for (const id of replayed) expect(doc, id).toContain(id);
  });
});
