/**
 * Full OAuth 2 / OIDC sign-ins against a real OpenID Provider (oidc-provider on 127.0.0.1):
 * code + PKCE + state + nonce, form_post, client authentication methods, discovery and userinfo,
 * sign-in or registration with and without an adapter, and the redirect proxy.
 */
import type { AuthConfig, Profile, Session, TokenSet } from "@tessera/core";
import { customFetch } from "@tessera/core";
import type { AdapterAccount, AdapterUser } from "@tessera/core/adapters";
import type { EndpointRequestContext, OAuth2Config, OIDCConfig } from "@tessera/core/providers";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverCallback, locationOf, startSignIn } from "./fixtures/oauth-flow.js";
import { type RunningOidcProvider, startOidcProvider } from "./fixtures/oidc-provider.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { setCookies } from "./set-cookie.js";

const PREVIEW = "http://127.0.0.1:4123";
const callback = (id: string, origin = ORIGIN) => `${origin}/auth/callback/${id}`;
let op: RunningOidcProvider;

const ADA = { sub: "ada-1", email: "Ada@Example.com", email_verified: true, name: "Ada Lovelace" };
const GRACE = { sub: "grace-2", email: "grace@example.com", email_verified: false, name: "Grace" };

const clientKeys = {} as { privateKey: CryptoKey; publicJwk: JWK };

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  clientKeys.privateKey = pair.privateKey;
  clientKeys.publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "client-key", alg: "ES256" };
  op = await startOidcProvider({
    clients: [
      {
        client_id: "basic",
        client_secret: "basic-secret",
        redirect_uris: [callback("op"), callback("op-userinfo"), callback("op-oauth")],
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        client_id: "post",
        client_secret: "post-secret",
        redirect_uris: [callback("op-post")],
        token_endpoint_auth_method: "client_secret_post",
      },
      { client_id: "form", client_secret: "form-secret", redirect_uris: [callback("op-form")] },
      {
        client_id: "jwt",
        redirect_uris: [callback("op-jwt")],
        token_endpoint_auth_method: "private_key_jwt",
        token_endpoint_auth_signing_alg: "ES256",
        jwks: { keys: [clientKeys.publicJwk] },
      },
      {
        client_id: "public",
        redirect_uris: [callback("op-public")],
        token_endpoint_auth_method: "none",
      },
    ],
    accounts: [ADA, GRACE],
  });
});
afterAll(() => op?.close());

/** The client's private key, as oauth4webapi takes it (with the `kid` the OP registered). */
function clientPrivateKey() {
  return { key: clientKeys.privateKey, kid: "client-key" };
}

function oidc(overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "op",
    name: "Test OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: "basic",
    clientSecret: "basic-secret",
    checks: ["pkce", "state", "nonce"],
    ...overrides,
  };
}

function postProvider(overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return oidc({
    id: "op-post",
    clientId: "post",
    clientSecret: "post-secret",
    client: { token_endpoint_auth_method: "client_secret_post" },
    ...overrides,
  });
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [oidc()],
    ...overrides,
  };
}

/** One complete sign-in; `hint` picks the provider's account (login_hint). */
async function signIn(client: Client, providerId = "op", hint?: string) {
  const authorizationUrl = await startSignIn(client, providerId, {
    callbackUrl: "/dashboard",
    ...(hint && { authorizationParams: { login_hint: hint } }),
  });
  return deliverCallback(client, await op.authorize(authorizationUrl.href));
}

describe("OIDC sign-in against oidc-provider", () => {
  it("signs in with code + PKCE + state + nonce and shows the session", async () => {
    const client = new Client(config());
    const authorizationUrl = await startSignIn(client, "op", { callbackUrl: "/dashboard" });
    expect(authorizationUrl.origin).toBe(op.issuer);
    const params = authorizationUrl.searchParams;
    expect(params.get("response_type")).toBe("code");
    expect(params.get("client_id")).toBe("basic");
    expect(params.get("redirect_uri")).toBe(callback("op"));
    expect(params.get("scope")).toBe("openid profile email");
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(params.get("state")).toBeTruthy();
    expect(params.get("nonce")).toBeTruthy();

    const answer = await op.authorize(authorizationUrl.href);
    expect(new URL(answer.url).searchParams.get("iss")).toBe(op.issuer);
    const response = await deliverCallback(client, answer);
    expect(locationOf(response).href).toBe(`${ORIGIN}/dashboard`);
    const cookies = setCookies(response);
    for (const name of ["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"])
      expect(cookies.get(name)).toMatchObject({ value: "", maxAge: 0 });
    expect(cookies.get("authjs.session-token")?.value).toBeTruthy();

    const session = (await client.session()) as unknown as Session;
    expect(session.user).toEqual({ name: "Ada Lovelace", email: "ada@example.com", image: null });
  });

  it("seals each check in its own HttpOnly cookie, bound to the provider, for 15 minutes", async () => {
    const client = new Client(config());
    const csrfToken = await client.csrfToken();
    const response = await client.post("/auth/signin/op", { csrfToken });
    const cookies = setCookies(response);
    for (const name of ["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"]) {
      const cookie = cookies.get(name);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
      expect(cookie?.value.split(".")).toHaveLength(5); // a JWE, not the raw value
      expect(cookie?.expires?.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
      expect(cookie?.expires?.getTime()).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1000);
    }
    const { decode } = await import("@tessera/core/jwt");
    const pkce = await decode<{ value: string; provider: string }>({
      token: cookies.get("authjs.pkce.code_verifier")?.value,
      secret: SECRET,
      salt: "authjs.pkce.code_verifier",
    });
    expect(pkce).toMatchObject({ provider: "op" });
    expect(pkce?.value).toMatch(/^[\w-]{43,128}$/);
  });

  it("uses PKCE alone by default (no state, no nonce)", async () => {
    const client = new Client(config({ providers: [oidc({ checks: undefined })] }));
    const authorizationUrl = await startSignIn(client, "op");
    expect(authorizationUrl.searchParams.get("code_challenge")).toBeTruthy();
    expect(authorizationUrl.searchParams.has("state")).toBe(false);
    expect(authorizationUrl.searchParams.has("nonce")).toBe(false);
    await deliverCallback(client, await op.authorize(authorizationUrl.href));
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it('runs without any check when configured with "none"', async () => {
    const client = new Client(config({ providers: [oidc({ checks: ["none"] })] }));
    const authorizationUrl = await startSignIn(client, "op");
    for (const name of ["state", "nonce", "code_challenge"])
      expect(authorizationUrl.searchParams.has(name)).toBe(false);
    await deliverCallback(client, await op.authorize(authorizationUrl.href));
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("receives a form_post response as a POST, with SameSite=None check cookies", async () => {
    const provider = oidc({
      id: "op-form",
      clientId: "form",
      clientSecret: "form-secret",
      authorization: { params: { response_mode: "form_post" } },
    });
    const client = new Client(config({ providers: [provider] }));
    const csrfToken = await client.csrfToken();
    const started = await client.post("/auth/signin/op-form", { csrfToken });
    for (const [, cookie] of [...setCookies(started)].filter(([n]) => !n.includes("csrf")))
      if (cookie.name !== "authjs.callback-url")
        expect(cookie).toMatchObject({ sameSite: "None", secure: true });
    const authorizationUrl = locationOf(started);
    expect(authorizationUrl.searchParams.get("response_mode")).toBe("form_post");
    const answer = await op.authorize(authorizationUrl.href);
    expect(answer.method).toBe("POST");
    expect(answer.body?.get("code")).toBeTruthy();
    const response = await deliverCallback(client, answer);
    expect(setCookies(response).get("authjs.session-token")?.value).toBeTruthy();
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("authenticates with client_secret_basic by default: credentials in the Authorization header", async () => {
    const requests: { url: string; headers: Headers; body: string }[] = [];
    const spy = async (url: string | URL | Request, init?: RequestInit) => {
      requests.push({
        url: String(url),
        headers: new Headers(init?.headers),
        body: String(init?.body ?? ""),
      });
      return fetch(url, init);
    };
    const client = new Client(config({ providers: [oidc({ [customFetch]: spy })] }));
    await signIn(client);
    const token = requests.find((r) => r.url === `${op.issuer}/token`);
    expect(token?.headers.get("authorization")).toBe(`Basic ${btoa("basic:basic-secret")}`);
    const body = new URLSearchParams(token?.body);
    expect(body.has("client_secret")).toBe(false);
    expect(body.get("grant_type")).toBe("authorization_code");
    expect(body.get("redirect_uri")).toBe(callback("op"));
    expect(body.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
    // Discovery, the token request and the JWKS all went through the provider's customFetch.
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual(
      expect.arrayContaining(["/.well-known/openid-configuration", "/token", "/jwks"]),
    );
    expect((await client.session())?.user).toMatchObject({ name: "Ada Lovelace" });
  });

  it("authenticates with client_secret_post when configured: credentials in the body", async () => {
    const bodies: URLSearchParams[] = [];
    const spy = async (url: string | URL | Request, init?: RequestInit) => {
      if (String(url).endsWith("/token")) {
        bodies.push(new URLSearchParams(String(init?.body)));
        expect(new Headers(init?.headers).has("authorization")).toBe(false);
      }
      return fetch(url, init);
    };
    const client = new Client(config({ providers: [postProvider({ [customFetch]: spy })] }));
    await signIn(client, "op-post");
    expect(bodies[0]?.get("client_id")).toBe("post");
    expect(bodies[0]?.get("client_secret")).toBe("post-secret");
    expect((await client.session())?.user).toMatchObject({ name: "Ada Lovelace" });
  });

  const keyPlacements: [string, () => Partial<OIDCConfig>][] = [
    [
      "client.privateKey",
      () => ({
        client: { token_endpoint_auth_method: "private_key_jwt", privateKey: clientPrivateKey() },
      }),
    ],
    [
      "token.clientPrivateKey, as Auth.js apps configure it",
      () => ({
        client: { token_endpoint_auth_method: "private_key_jwt" },
        token: { clientPrivateKey: clientPrivateKey() },
      }),
    ],
  ];

  it.each(keyPlacements)(
    "authenticates with private_key_jwt (a client assertion signed with the client's key in %s)",
    async (_where, placement) => {
      const bodies: URLSearchParams[] = [];
      const spy = async (url: string | URL | Request, init?: RequestInit) => {
        if (String(url).endsWith("/token")) bodies.push(new URLSearchParams(String(init?.body)));
        return fetch(url, init);
      };
      const provider = oidc({
        id: "op-jwt",
        clientId: "jwt",
        clientSecret: undefined,
        ...placement(),
        [customFetch]: spy,
      });
      const client = new Client(config({ providers: [provider] }));
      await signIn(client, "op-jwt");
      expect(bodies[0]?.get("client_assertion_type")).toBe(
        "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      );
      expect(bodies[0]?.get("client_assertion")?.split(".")).toHaveLength(3);
      expect(bodies[0]?.has("client_secret")).toBe(false);
      expect((await client.session())?.user).toMatchObject({ name: "Ada Lovelace" });
    },
  );

  it("signs in as a public client (auth method none) protected by PKCE", async () => {
    const provider = oidc({
      id: "op-public",
      clientId: "public",
      clientSecret: undefined,
      client: { token_endpoint_auth_method: "none" },
      checks: ["pkce"],
    });
    const client = new Client(config({ providers: [provider] }));
    await signIn(client, "op-public");
    expect((await client.session())?.user).toMatchObject({ name: "Ada Lovelace" });
  });

  it("refuses to start without a client secret when the method needs one", async () => {
    const { logger, errors } = recordingLogger();
    const client = new Client(config({ providers: [oidc({ clientSecret: undefined })], logger }));
    const csrfToken = await client.csrfToken();
    const response = await client.post("/auth/signin/op", { csrfToken });
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(errors.at(-1)?.message).toMatch(/AUTH_OP_SECRET/);
  });

  it("validates tokens from a custom token.request like any token response", async () => {
    const tokenRequest = (tamper: boolean) => async (context: EndpointRequestContext<Profile>) => {
      const response = await fetch(`${op.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: context.params.code as string,
          redirect_uri: callback("op-post"),
          code_verifier: context.checks.code_verifier as string,
          client_id: "post",
          client_secret: "post-secret",
        }),
      });
      const tokens = (await response.json()) as TokenSet;
      if (tamper) tokens.id_token = `${tokens.id_token?.slice(0, -4)}AAAA`;
      return { tokens };
    };
    const honest = new Client(
      config({ providers: [postProvider({ token: { request: tokenRequest(false) } })] }),
    );
    await signIn(honest, "op-post");
    expect((await honest.session())?.user).toMatchObject({ name: "Ada Lovelace" });

    const tampered = new Client(
      config({ providers: [postProvider({ token: { request: tokenRequest(true) } })] }),
    );
    const response = await signIn(tampered, "op-post");
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
  });

  it("fails the callback with OAuthCallbackError when the token endpoint refuses the client", async () => {
    const { logger, errors } = recordingLogger();
    const client = new Client(config({ providers: [oidc({ clientSecret: "wrong" })], logger }));
    const response = await signIn(client);
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(errors.at(-1)?.message).toMatch(/invalid_client/);
    expect(await client.session()).toBeNull();
  });

  it("fetches the profile from userinfo when idToken is false (subject checked)", async () => {
    const seen: Profile[] = [];
    const provider = oidc({
      id: "op-userinfo",
      idToken: false,
      profile(profile) {
        seen.push(profile);
        return {
          id: String(profile.sub),
          name: String(profile.name),
          email: profile.email ?? null,
        };
      },
    });
    const client = new Client(config({ providers: [provider] }));
    await signIn(client, "op-userinfo");
    expect(seen).toHaveLength(1);
    // Userinfo carries claims but none of the ID token's protocol claims.
    expect(seen[0]).toMatchObject({ sub: "ada-1", email: "Ada@Example.com", name: "Ada Lovelace" });
    expect(seen[0]).not.toHaveProperty("nonce");
    expect(seen[0]).not.toHaveProperty("aud");
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("takes the profile from the validated ID token claims by default", async () => {
    const seen: [Profile, TokenSet][] = [];
    const provider = oidc({
      profile(profile, tokens) {
        seen.push([profile, tokens]);
        return { id: String(profile.sub), email: profile.email ?? null };
      },
    });
    await signIn(new Client(config({ providers: [provider] })));
    const [profile, tokens] = seen[0] as [Profile, TokenSet];
    expect(profile).toMatchObject({ iss: op.issuer, aud: "basic", sub: "ada-1" });
    expect(typeof profile.nonce).toBe("string");
    expect(tokens).toMatchObject({ token_type: "bearer" });
    expect(tokens.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);
  });

  it("works as plain OAuth 2 with explicit endpoints as strings and {url, params} objects", async () => {
    const provider: OAuth2Config = {
      id: "op-oauth",
      name: "OP as OAuth 2",
      type: "oauth",
      issuer: op.issuer,
      clientId: "basic",
      clientSecret: "basic-secret",
      authorization: { url: `${op.issuer}/auth?prompt=consent`, params: { scope: "openid email" } },
      token: `${op.issuer}/token`,
      userinfo: { url: `${op.issuer}/me` },
      profile: (profile) => ({ id: String(profile.sub), email: profile.email ?? null }),
    };
    const client = new Client(config({ providers: [provider] }));
    const authorizationUrl = await startSignIn(client, "op-oauth");
    expect(authorizationUrl.pathname).toBe("/auth");
    expect(authorizationUrl.searchParams.get("scope")).toBe("openid email");
    expect(authorizationUrl.searchParams.get("prompt")).toBe("consent");
    await deliverCallback(client, await op.authorize(authorizationUrl.href));
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("discovers the endpoints from a wellKnown URL", async () => {
    const provider = oidc({
      issuer: undefined,
      wellKnown: `${op.issuer}/.well-known/openid-configuration`,
    });
    const client = new Client(config({ providers: [provider] }));
    await signIn(client);
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("merges signIn() authorizationParams, but never over the flow's own parameters", async () => {
    const client = new Client(config());
    const hostile = `${ORIGIN}.evil.test/auth/callback/op`;
    const authorizationUrl = await startSignIn(client, "op", {
      authorizationParams: {
        prompt: "login",
        login_hint: "grace@example.com",
        redirect_uri: hostile,
        state: "attacker-state",
        client_id: "post",
        nonce: "attacker-nonce",
        code_challenge: "attacker",
        response_type: "token",
      },
    });
    const params = authorizationUrl.searchParams;
    expect(params.get("prompt")).toBe("login");
    expect(params.get("login_hint")).toBe("grace@example.com");
    expect(params.get("redirect_uri")).toBe(callback("op"));
    expect(params.get("client_id")).toBe("basic");
    expect(params.get("response_type")).toBe("code");
    for (const name of ["state", "nonce", "code_challenge"])
      expect(params.get(name)).not.toMatch(/^attacker/);
    await deliverCallback(client, await op.authorize(authorizationUrl.href));
    expect((await client.session())?.user).toMatchObject({ email: "grace@example.com" });
  });

  it("keeps token.sub stable across sign-ins without an adapter (the provider's account id)", async () => {
    const subs: unknown[] = [];
    const cfg = config({
      callbacks: {
        jwt: ({ token }) => {
          subs.push(token.sub);
          return token;
        },
      },
    });
    await signIn(new Client(cfg));
    await signIn(new Client(cfg));
    expect(subs).toEqual(["ada-1", "ada-1"]);
  });

  it("never redirects to a foreign callbackUrl after the sign-in", async () => {
    const client = new Client(config());
    const authorizationUrl = await startSignIn(client, "op", {
      callbackUrl: "https://evil.test/steal",
    });
    const response = await deliverCallback(client, await op.authorize(authorizationUrl.href));
    expect(locationOf(response).origin).toBe(ORIGIN);
  });

  it("redirects to the sign-in page with OAuthCallbackError when the user denies, reflecting nothing", async () => {
    const client = new Client(config());
    const authorizationUrl = await startSignIn(client, "op", {
      authorizationParams: { login_hint: "access_denied" },
    });
    const answer = await op.authorize(authorizationUrl.href);
    expect(new URL(answer.url).searchParams.get("error")).toBe("access_denied");
    const response = await deliverCallback(client, answer);
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    const page = await client.get(locationOf(response).href);
    expect(await page.text()).not.toMatch(/denied|<b>/);
    expect(await client.session()).toBeNull();
  });
});

describe("sign-in or registration with an adapter", () => {
  function withAdapter(overrides: Partial<AuthConfig> = {}) {
    const store = createMemoryStore();
    const events: [string, unknown][] = [];
    const record = (name: string) => (message: unknown) => void events.push([name, message]);
    const cfg = config({
      adapter: MemoryAdapter(store),
      events: {
        createUser: record("createUser"),
        linkAccount: record("linkAccount"),
        signIn: record("signIn"),
      },
      ...overrides,
    });
    return { store, events, cfg };
  }

  /**
   * Puts a user in the adapter as an earlier sign-in (or a migration from Auth.js) left it, with
   * `account` linked to it when given.
   */
  async function existingUser(
    cfg: AuthConfig,
    user: AdapterUser,
    account?: Pick<AdapterAccount, "type" | "provider" | "providerAccountId">,
  ) {
    const adapter = cfg.adapter as ReturnType<typeof MemoryAdapter>;
    await adapter.createUser(user);
    if (account) await adapter.linkAccount({ ...account, userId: user.id });
  }

  it("creates the user and links the account on the first sign-in, then signs the same user in", async () => {
    const { store, events, cfg } = withAdapter({ pages: { newUser: "/welcome" } });
    const first = await signIn(new Client(cfg));
    const welcome = locationOf(first);
    expect(welcome.pathname).toBe("/welcome");
    expect(welcome.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`);
    expect(events.map(([name]) => name)).toEqual(["createUser", "linkAccount", "signIn"]);
    expect(events[2]?.[1]).toMatchObject({ isNewUser: true, account: { provider: "op" } });

    expect(store.users.size).toBe(1);
    const [user] = [...store.users.values()];
    expect(user).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace" });
    expect(user?.emailVerified).toBeInstanceOf(Date);
    const [account] = [...store.accounts.values()];
    expect(account).toMatchObject({
      userId: user?.id,
      provider: "op",
      type: "oidc",
      providerAccountId: "ada-1",
      token_type: "bearer",
      scope: "openid profile email",
    });
    expect(account?.access_token).toBeTruthy();
    expect(account?.id_token?.split(".")).toHaveLength(3);
    expect(account?.expires_at).toBeGreaterThan(Date.now() / 1000);
    expect(account).not.toHaveProperty("expires_in");

    events.length = 0;
    const client = new Client(cfg);
    const second = await signIn(client);
    expect(locationOf(second).href).toBe(`${ORIGIN}/dashboard`);
    expect(events.map(([name]) => name)).toEqual(["signIn"]);
    expect(store.users.size).toBe(1);
    const session = await client.session();
    expect(session?.user).toMatchObject({ email: "ada@example.com" });
    expect(store.sessions.size).toBe(2); // database strategy by default with an adapter
  });

  it("looks the account up once per sign-in (getUserByAccount), for a new and a returning user", async () => {
    const adapter = MemoryAdapter(createMemoryStore());
    let lookups = 0;
    const cfg = config({
      adapter: {
        ...adapter,
        getUserByAccount: (account) => {
          lookups++;
          return adapter.getUserByAccount(account);
        },
      },
    });
    await signIn(new Client(cfg));
    expect(lookups).toBe(1);
    lookups = 0;
    const returning = new Client(cfg);
    await signIn(returning);
    expect(lookups).toBe(1);
    expect((await returning.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("stores what the provider's account callback chooses, token_type lower-cased", async () => {
    const { store, cfg } = withAdapter({
      providers: [
        oidc({
          account: (tokens) => ({
            access_token: tokens.access_token,
            token_type: "Bearer",
            expires_at: tokens.expires_at,
          }),
        }),
      ],
    });
    await signIn(new Client(cfg));
    const [account] = [...store.accounts.values()];
    expect(account).toMatchObject({ token_type: "bearer", providerAccountId: "ada-1" });
    expect(account).not.toHaveProperty("id_token");
    expect(account).not.toHaveProperty("refresh_token");
  });

  it("links a new provider account to the signed-in user", async () => {
    const { store, cfg } = withAdapter({ providers: [oidc(), postProvider()] });
    const client = new Client(cfg);
    await signIn(client, "op");
    await signIn(client, "op-post", "grace@example.com");
    expect(store.users.size).toBe(1);
    const providers = [...store.accounts.values()].map((a) => [a.provider, a.providerAccountId]);
    expect(providers.sort()).toEqual([
      ["op", "ada-1"],
      ["op-post", "grace-2"],
    ]);
    // The linked account now signs that user in on its own.
    const other = new Client(cfg);
    await signIn(other, "op-post", "grace@example.com");
    expect((await other.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("refuses to move an account already linked to another user", async () => {
    const { store, cfg } = withAdapter();
    await signIn(new Client(cfg), "op", "grace@example.com");
    const ada = new Client(cfg);
    await signIn(ada, "op");
    const response = await signIn(ada, "op", "grace@example.com");
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthAccountNotLinked");
    const owners = [...store.accounts.values()].map((a) => [a.providerAccountId, a.userId]);
    expect(new Set(owners.map(([, userId]) => userId)).size).toBe(2);
    expect((await ada.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("refuses e-mail auto-linking unless allowDangerousEmailAccountLinking", async () => {
    const { store, cfg } = withAdapter();
    await existingUser(cfg, {
      id: "local",
      email: "ada@example.com",
      emailVerified: new Date(),
      name: "Local Ada",
    });
    const response = await signIn(new Client(cfg));
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`);
    expect(store.accounts.size).toBe(0);
    expect(store.users.size).toBe(1);
  });

  it("links by e-mail with allowDangerousEmailAccountLinking into a verified local account", async () => {
    const { store, cfg } = withAdapter({
      providers: [oidc({ allowDangerousEmailAccountLinking: true })],
    });
    await existingUser(cfg, { id: "local", email: "ada@example.com", emailVerified: new Date() });
    await signIn(new Client(cfg));
    expect([...store.accounts.values()][0]).toMatchObject({
      userId: "local",
      providerAccountId: "ada-1",
    });
  });

  it("never links by e-mail into a local account whose address is unverified", async () => {
    const { store, cfg } = withAdapter({
      providers: [oidc({ allowDangerousEmailAccountLinking: true })],
    });
    await existingUser(cfg, { id: "local", email: "ada@example.com", emailVerified: null });
    const response = await signIn(new Client(cfg));
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthAccountNotLinked");
    expect(store.accounts.size).toBe(0);
  });

  it("links by e-mail into a user an OAuth sign-in created (emailVerified null, as Auth.js leaves it) through an OAuth 2 provider carrying the flag", async () => {
    // An OAuth 2 provider that does not say whether it verified addresses (GitHub-like): its
    // accounts leave the address trusted, as Auth.js trusts it.
    const plainOAuth: OAuth2Config = {
      id: "plain",
      name: "Plain OAuth 2",
      type: "oauth",
      authorization: `${op.issuer}/auth`,
      token: `${op.issuer}/token`,
      userinfo: `${op.issuer}/me`,
      allowDangerousEmailAccountLinking: true,
    };
    const { store, cfg } = withAdapter({
      providers: [oidc({ allowDangerousEmailAccountLinking: true }), plainOAuth],
    });
    await existingUser(
      cfg,
      { id: "migrated", email: "ada@example.com", emailVerified: null },
      { type: "oauth", provider: "plain", providerAccountId: "ada-elsewhere" },
    );
    const client = new Client(cfg);
    await signIn(client);
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
    expect(
      [...store.accounts.values()].map((account) => [account.provider, account.userId]).sort(),
    ).toEqual([
      ["op", "migrated"],
      ["plain", "migrated"],
    ]);
  });

  it("pre-account takeover: never links by e-mail into a user whose account is of an OpenID Provider that did not verify the address", async () => {
    // The user has emailVerified null beside an account of an OP: that OP did not say "verified"
    // (had it, emailVerified would be set), so the address is nobody's proof.
    const { store, cfg } = withAdapter({
      providers: [
        oidc({ allowDangerousEmailAccountLinking: true }),
        postProvider({ allowDangerousEmailAccountLinking: true }),
      ],
    });
    await existingUser(
      cfg,
      { id: "squatter", email: "ada@example.com", emailVerified: null },
      { type: "oidc", provider: "op-post", providerAccountId: "someone" },
    );
    const response = await signIn(new Client(cfg));
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthAccountNotLinked");
    expect(store.accounts.size).toBe(1);
  });

  it("marks a returning user's address verified when the OpenID Provider says it is (users Auth.js created have none)", async () => {
    const { store, cfg } = withAdapter();
    await existingUser(
      cfg,
      { id: "from-authjs", email: "ada@example.com", emailVerified: null },
      { type: "oidc", provider: "op", providerAccountId: "ada-1" },
    );
    await signIn(new Client(cfg));
    expect(store.users.get("from-authjs")?.emailVerified).toBeInstanceOf(Date);
    // Grace's OP says her address is unverified: her returning sign-in leaves it unverified.
    await existingUser(
      cfg,
      { id: "grace", email: "grace@example.com", emailVerified: null },
      { type: "oidc", provider: "op", providerAccountId: "grace-2" },
    );
    await signIn(new Client(cfg), "op", "grace@example.com");
    expect(store.users.get("grace")?.emailVerified).toBeNull();
  });

  it("pre-account takeover: refuses to link into an unverified user whose other account's provider lacks the flag", async () => {
    const { store, cfg } = withAdapter({
      providers: [oidc({ allowDangerousEmailAccountLinking: true }), postProvider()],
    });
    await existingUser(
      cfg,
      { id: "squatter", email: "ada@example.com", emailVerified: null },
      { type: "oidc", provider: "op-post", providerAccountId: "someone" },
    );
    const response = await signIn(new Client(cfg));
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthAccountNotLinked");
    expect(store.accounts.size).toBe(1);
  });

  it("refuses to link by e-mail when the OpenID Provider says the address is unverified", async () => {
    const { store, cfg } = withAdapter({
      providers: [oidc({ allowDangerousEmailAccountLinking: true })],
    });
    await existingUser(cfg, {
      id: "local",
      email: "grace@example.com",
      emailVerified: new Date(),
    });
    // The OP's Grace has email_verified: false.
    const response = await signIn(new Client(cfg), "op", "grace@example.com");
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthAccountNotLinked");
    expect(store.accounts.size).toBe(0);
  });

  it("links by e-mail into a verified user when the adapter cannot list a user's accounts", async () => {
    const store = createMemoryStore();
    const { listAccountsByUserId: _omitted, ...withoutListing } = MemoryAdapter(store);
    const cfg = config({
      adapter: withoutListing,
      providers: [oidc({ allowDangerousEmailAccountLinking: true })],
    });
    await withoutListing.createUser?.({
      id: "old",
      email: "ada@example.com",
      emailVerified: new Date(),
    });
    await signIn(new Client(cfg));
    expect([...store.accounts.values()][0]).toMatchObject({ userId: "old", provider: "op" });
  });

  it("pre-account takeover: never links by e-mail into an unverified user when the adapter cannot list the user's accounts", async () => {
    // The user's accounts cannot be seen: one of them may have brought an address nobody proved.
    const store = createMemoryStore();
    const { listAccountsByUserId: _omitted, ...withoutListing } = MemoryAdapter(store);
    const cfg = config({
      adapter: withoutListing,
      providers: [oidc({ allowDangerousEmailAccountLinking: true })],
    });
    await withoutListing.createUser?.({ id: "old", email: "ada@example.com", emailVerified: null });
    const response = await signIn(new Client(cfg));
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthAccountNotLinked");
    expect(store.accounts.size).toBe(0);
  });

  it("asks the signIn callback before storing anything; a refusal leaves no user behind", async () => {
    const seen: unknown[] = [];
    const { store, cfg } = withAdapter({
      callbacks: {
        signIn: (params) => {
          seen.push(params);
          return false;
        },
      },
    });
    const response = await signIn(new Client(cfg));
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/error?error=AccessDenied`);
    expect(store.users.size).toBe(0);
    expect(store.accounts.size).toBe(0);
    expect(seen[0]).toMatchObject({
      user: { id: "ada-1", email: "ada@example.com" },
      account: { provider: "op", type: "oidc", providerAccountId: "ada-1" },
      profile: { sub: "ada-1" },
    });
  });

  it("redirects where the signIn callback says", async () => {
    const { cfg } = withAdapter({ callbacks: { signIn: () => "/not-yet" } });
    const client = new Client(cfg);
    const response = await signIn(client);
    expect(locationOf(response).href).toBe(`${ORIGIN}/not-yet`);
    expect(await client.session()).toBeNull();
  });

  it("creates users without an e-mail address without colliding on it", async () => {
    const { store, cfg } = withAdapter({
      providers: [oidc({ profile: (p) => ({ id: String(p.sub), name: String(p.name) }) })],
    });
    await signIn(new Client(cfg));
    await signIn(new Client(cfg), "op", "grace@example.com");
    expect(store.users.size).toBe(2);
  });
});

describe("redirect proxy", () => {
  it("sends the provider to the proxy, which forwards the callback to the originating deployment", async () => {
    const cfg = config({
      redirectProxyUrl: `${ORIGIN}/auth`,
      providers: [oidc({ checks: ["pkce"] })],
    });
    const preview = new Client(cfg, PREVIEW);
    const proxy = new Client(cfg, ORIGIN);
    const authorizationUrl = await startSignIn(preview, "op");
    // The proxy's callback is the one registered at the provider; state is added automatically.
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(callback("op"));
    expect(authorizationUrl.searchParams.get("state")).toBeTruthy();

    const answer = await op.authorize(authorizationUrl.href);
    expect(answer.url.startsWith(callback("op"))).toBe(true);
    const forwarded = await deliverCallback(proxy, answer);
    const target = locationOf(forwarded);
    expect(`${target.origin}${target.pathname}`).toBe(callback("op", PREVIEW));
    expect(target.searchParams.get("code")).toBe(new URL(answer.url).searchParams.get("code"));
    expect(await proxy.session()).toBeNull();

    await preview.get(target.href);
    expect((await preview.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("takes the proxy from AUTH_REDIRECT_PROXY_URL", async () => {
    const previous = process.env.AUTH_REDIRECT_PROXY_URL;
    process.env.AUTH_REDIRECT_PROXY_URL = `${ORIGIN}/auth`;
    try {
      const preview = new Client(config({ providers: [oidc({ checks: ["pkce"] })] }), PREVIEW);
      const authorizationUrl = await startSignIn(preview, "op");
      expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(callback("op"));
      expect(authorizationUrl.searchParams.get("state")).toBeTruthy();
    } finally {
      if (previous === undefined) delete process.env.AUTH_REDIRECT_PROXY_URL;
      else process.env.AUTH_REDIRECT_PROXY_URL = previous;
    }
  });

  it("handles its own sign-ins on the proxy deployment", async () => {
    const cfg = config({
      redirectProxyUrl: `${ORIGIN}/auth`,
      providers: [oidc({ checks: ["pkce"] })],
    });
    const client = new Client(cfg, ORIGIN);
    await signIn(client);
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("does not forward a state it cannot decrypt", async () => {
    const cfg = config({
      redirectProxyUrl: `${ORIGIN}/auth`,
      providers: [oidc({ checks: ["pkce"] })],
    });
    const foreign = config({
      secret: "another-secret-with-at-least-32-characters!",
      redirectProxyUrl: `${ORIGIN}/auth`,
      providers: [oidc({ checks: ["pkce"] })],
    });
    const authorizationUrl = await startSignIn(new Client(foreign, PREVIEW), "op");
    const answer = await op.authorize(authorizationUrl.href);
    const response = await deliverCallback(new Client(cfg, ORIGIN), answer);
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
  });
});
