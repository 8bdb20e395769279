/**
 * Attacks on the OAuth callback, against a real OpenID Provider (oidc-provider on 127.0.0.1):
 * forged, missing, replayed and cross-provider checks, issuer mix-up, ID token tampering,
 * authorization code replay, provider failures and hostile input. Token responses are tampered
 * with by a `customFetch` standing between Tessera and the provider (a network attacker or a
 * malicious provider), re-signed with the provider's real key where the signature must hold.
 */
import type { AuthConfig } from "@tessera/core";
import { customFetch } from "@tessera/core";
import type { OIDCConfig } from "@tessera/core/providers";
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverCallback, locationOf, startSignIn } from "./fixtures/oauth-flow.js";
import {
  type AuthorizationResponse,
  type RunningOidcProvider,
  startOidcProvider,
} from "./fixtures/oidc-provider.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { setCookies } from "./set-cookie.js";

const SIGNIN_ERROR = `${ORIGIN}/auth/signin?error=OAuthCallbackError`;
const CHECK_COOKIES = ["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"];
let op: RunningOidcProvider;

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        redirect_uris: ["op", "op-b"].map((id) => `${ORIGIN}/auth/callback/${id}`),
      },
    ],
    accounts: [{ sub: "ada", email: "ada@example.com", email_verified: true, name: "Ada" }],
  });
});
afterAll(() => op?.close());

type Fetch = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

function provider(overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "op",
    name: "OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: "app",
    clientSecret: "app-secret",
    checks: ["pkce", "state", "nonce"],
    ...overrides,
  };
}

function setup(overrides: Partial<OIDCConfig> = {}, extra: OIDCConfig[] = []) {
  const log = recordingLogger();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    providers: [provider(overrides), ...extra],
  };
  return { config, log, client: new Client(config) };
}

/** Starts a sign-in and lets the provider answer it. */
async function begin(client: Client, providerId = "op"): Promise<AuthorizationResponse> {
  const authorizationUrl = await startSignIn(client, providerId);
  return op.authorize(authorizationUrl.href);
}

/** The message chain of the last logged error (message plus causes). */
function lastError(log: ReturnType<typeof recordingLogger>): string {
  const parts: string[] = [];
  let current: unknown = log.errors.at(-1);
  for (let i = 0; current instanceof Error && i < 5; i++) {
    parts.push(current.message);
    const cause: unknown = current.cause;
    current = cause && typeof cause === "object" && "err" in cause ? cause.err : cause;
  }
  return parts.join(" <- ");
}

async function expectRefused(client: Client, response: Response) {
  expect(locationOf(response).href).toBe(SIGNIN_ERROR);
  expect(setCookies(response).get("authjs.session-token")).toBeUndefined();
  expect(await client.session()).toBeNull();
}

function withParam(answer: AuthorizationResponse, name: string, value: string | null) {
  const url = new URL(answer.url);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return { ...answer, url: url.href };
}

describe("state, PKCE and nonce cookies", () => {
  it("rejects a callback whose state cookie is missing", async () => {
    const { client, log } = setup();
    const answer = await begin(client);
    client.jar.delete("authjs.state");
    await expectRefused(client, await deliverCallback(client, answer));
    expect(lastError(log)).toMatch(/state cookie .* is missing/);
  });

  it("rejects a tampered state cookie", async () => {
    const { client, log } = setup();
    const answer = await begin(client);
    const sealed = client.jar.get("authjs.state") as string;
    client.jar.set("authjs.state", `${sealed.slice(0, -2)}${sealed.endsWith("AA") ? "BB" : "AA"}`);
    await expectRefused(client, await deliverCallback(client, answer));
    expect(lastError(log)).toMatch(/could not be decrypted/);
  });

  it("rejects a state minted for another provider", async () => {
    const { client, log } = setup({}, [provider({ id: "op-b" })]);
    const answer = await begin(client, "op");
    const crossed = { ...answer, url: answer.url.replace("/callback/op?", "/callback/op-b?") };
    await expectRefused(client, await deliverCallback(client, crossed));
    expect(lastError(log)).toMatch(/created for another provider than "op-b"/);
  });

  it("rejects an attacker's authorization response in the victim's browser (login CSRF)", async () => {
    const { config, log } = setup();
    const attacker = new Client(config);
    const victim = new Client(config);
    const attackersAnswer = await begin(attacker);
    await startSignIn(victim, "op"); // the victim has check cookies of their own
    await expectRefused(victim, await deliverCallback(victim, attackersAnswer));
    expect(lastError(log)).toMatch(/state/);
  });

  it("rejects a response forged without any state", async () => {
    const { client } = setup();
    const answer = await begin(client);
    await expectRefused(client, await deliverCallback(client, withParam(answer, "state", null)));
  });

  it("rejects replayed check cookies from an earlier sign-in", async () => {
    const { config, client } = setup();
    const first = await begin(client);
    const earlierCookies = new Map(client.jar);
    await deliverCallback(client, first);
    const other = new Client(config);
    const second = await begin(other);
    for (const name of CHECK_COOKIES) other.jar.set(name, earlierCookies.get(name) as string);
    await expectRefused(other, await deliverCallback(other, second));
  });

  it("rejects a callback whose PKCE cookie is missing, before calling the token endpoint", async () => {
    const tokenRequests: string[] = [];
    const spy: Fetch = (url, init) => {
      if (String(url).endsWith("/token")) tokenRequests.push(String(url));
      return fetch(url, init);
    };
    const { client, log } = setup({ [customFetch]: spy });
    const answer = await begin(client);
    client.jar.delete("authjs.pkce.code_verifier");
    await expectRefused(client, await deliverCallback(client, answer));
    expect(lastError(log)).toMatch(/pkceCodeVerifier cookie .* is missing/);
    expect(tokenRequests).toEqual([]);
  });

  it("rejects a code redeemed with another sign-in's PKCE verifier (code injection)", async () => {
    const { config, log } = setup({ checks: ["pkce"] });
    const victim = new Client(config);
    const stolen = await begin(victim); // the victim's code, intercepted
    const attacker = new Client(config);
    await startSignIn(attacker, "op"); // the attacker's own verifier cookie
    await expectRefused(attacker, await deliverCallback(attacker, stolen));
    expect(lastError(log)).toMatch(/invalid_grant/);
  });

  it("rejects a callback whose nonce cookie is missing", async () => {
    const { client, log } = setup();
    const answer = await begin(client);
    client.jar.delete("authjs.nonce");
    await expectRefused(client, await deliverCallback(client, answer));
    expect(lastError(log)).toMatch(/nonce cookie .* is missing/);
  });

  it("rejects an ID token whose nonce is not the one sent (ID token replay)", async () => {
    const { config, client, log } = setup({ checks: ["state", "nonce"] });
    const answer = await begin(client);
    const other = new Client(config);
    await startSignIn(other, "op");
    client.jar.set("authjs.nonce", other.jar.get("authjs.nonce") as string);
    await expectRefused(client, await deliverCallback(client, answer));
    expect(lastError(log)).toMatch(/nonce/);
  });

  it("deletes the check cookies even when the callback fails", async () => {
    const { client } = setup();
    const answer = await begin(client);
    const response = await deliverCallback(client, withParam(answer, "iss", "https://evil.test"));
    const cookies = setCookies(response);
    for (const name of CHECK_COOKIES) expect(cookies.get(name)).toMatchObject({ maxAge: 0 });
  });
});

describe("issuer mix-up (RFC 9207)", () => {
  it("rejects an authorization response from another issuer", async () => {
    const { client, log } = setup();
    const answer = await begin(client);
    const mixed = withParam(answer, "iss", "https://attacker.example");
    await expectRefused(client, await deliverCallback(client, mixed));
    expect(lastError(log)).toMatch(/iss/);
  });

  it("rejects a response without iss from a provider that announces it", async () => {
    const { client, log } = setup();
    const answer = await begin(client);
    await expectRefused(client, await deliverCallback(client, withParam(answer, "iss", null)));
    expect(lastError(log)).toMatch(/"iss" \(issuer\) missing/);
  });

  it("rejects duplicated response parameters (parameter pollution)", async () => {
    const { client } = setup();
    const answer = await begin(client);
    const url = new URL(answer.url);
    url.searchParams.append("state", "second");
    await expectRefused(client, await deliverCallback(client, { ...answer, url: url.href }));
  });
});

describe("ID token validation", () => {
  async function resign(idToken: string, change: (claims: Record<string, unknown>) => void) {
    const claims = decodeJwt(idToken) as Record<string, unknown>;
    change(claims);
    const key = await importJWK(op.signingKey, "RS256");
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: op.signingKey.kid, typ: "JWT" })
      .sign(key);
  }

  /** A fetch that rewrites the ID token of the token response. */
  function tampering(mutate: (idToken: string) => Promise<string> | string): Fetch {
    return async (url, init) => {
      const response = await fetch(url, init);
      if (!String(url).endsWith("/token") || !response.ok) return response;
      const body = (await response.json()) as { id_token: string };
      body.id_token = await mutate(body.id_token);
      return Response.json(body);
    };
  }

  async function signInWith(mutate: (idToken: string) => Promise<string> | string) {
    const { client, log } = setup({ [customFetch]: tampering(mutate) });
    const response = await deliverCallback(client, await begin(client));
    return { client, log, response };
  }

  it("accepts an ID token re-signed with the provider's key and unchanged claims (control)", async () => {
    const { client, response } = await signInWith((token) => resign(token, () => {}));
    expect(locationOf(response).origin).toBe(ORIGIN);
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("rejects an ID token with a bad signature", async () => {
    const { client, log, response } = await signInWith((token) => {
      const [header, payload, signature] = token.split(".") as [string, string, string];
      const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`;
      return `${header}.${payload}.${flipped}`;
    });
    await expectRefused(client, response);
    expect(lastError(log)).toMatch(/signature/i);
  });

  it("rejects an ID token whose claims were changed after signing", async () => {
    const { client, response } = await signInWith((token) => {
      const [header, , signature] = token.split(".");
      const claims = { ...decodeJwt(token), sub: "someone-else", email: "victim@example.com" };
      const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
      return `${header}.${payload}.${signature}`;
    });
    await expectRefused(client, response);
  });

  it("rejects an ID token for another audience", async () => {
    const { client, log, response } = await signInWith((token) =>
      resign(token, (claims) => {
        claims.aud = "another-client";
      }),
    );
    await expectRefused(client, response);
    expect(lastError(log)).toMatch(/aud/);
  });

  it("rejects an ID token from another issuer", async () => {
    const { client, log, response } = await signInWith((token) =>
      resign(token, (claims) => {
        claims.iss = "https://attacker.example";
      }),
    );
    await expectRefused(client, response);
    expect(lastError(log)).toMatch(/iss/);
  });

  it("rejects an expired ID token", async () => {
    const { client, log, response } = await signInWith((token) =>
      resign(token, (claims) => {
        claims.iat = Math.floor(Date.now() / 1000) - 7200;
        claims.exp = Math.floor(Date.now() / 1000) - 3600;
      }),
    );
    await expectRefused(client, response);
    expect(lastError(log)).toMatch(/exp/);
  });

  it('rejects an unsigned ID token (alg: "none")', async () => {
    const { client, log, response } = await signInWith((token) => {
      const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
      return `${header}.${token.split(".")[1]}.`;
    });
    await expectRefused(client, response);
    expect(lastError(log)).toMatch(/alg/);
  });

  it("rejects an ID token signed with the client secret when the provider signs with RS256", async () => {
    const { client, response } = await signInWith(async (token) => {
      const claims = decodeJwt(token);
      expect(decodeProtectedHeader(token).alg).toBe("RS256");
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode("app-secret"));
    });
    await expectRefused(client, response);
  });

  it("rejects a token response without an ID token from an OIDC provider", async () => {
    const { client, response } = await signInWith(() => undefined as unknown as string);
    await expectRefused(client, response);
  });
});

describe("authorization code and provider failures", () => {
  it("rejects a replayed authorization code", async () => {
    const { config, client, log } = setup();
    const answer = await begin(client);
    const checkCookies = new Map(client.jar);
    await deliverCallback(client, answer);
    expect(await client.session()).not.toBeNull();
    const replay = new Client(config);
    for (const [name, value] of checkCookies) replay.jar.set(name, value);
    await expectRefused(replay, await deliverCallback(replay, answer));
    expect(lastError(log)).toMatch(/invalid_grant/);
  });

  it("turns a token endpoint answering 500 with HTML into OAuthCallbackError", async () => {
    const broken: Fetch = async (url, init) =>
      String(url).endsWith("/token")
        ? new Response("<html><script>alert(1)</script></html>", { status: 500 })
        : fetch(url, init);
    const { client } = setup({ [customFetch]: broken });
    const response = await deliverCallback(client, await begin(client));
    await expectRefused(client, response);
  });

  it("turns a network failure at the token endpoint into OAuthCallbackError", async () => {
    const unreachable: Fetch = async (url, init) => {
      if (String(url).endsWith("/token")) throw new TypeError("fetch failed");
      return fetch(url, init);
    };
    const { client, log } = setup({ [customFetch]: unreachable });
    await expectRefused(client, await deliverCallback(client, await begin(client)));
    expect(lastError(log)).toMatch(/fetch failed/);
  });

  it("fails the sign-in start with OAuthSignInError when the provider is unreachable", async () => {
    const { client } = setup({ issuer: "http://127.0.0.1:9" });
    const csrfToken = await client.csrfToken();
    const response = await client.post("/auth/signin/op", { csrfToken });
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthSignin`);
    expect(client.jar.has("authjs.state")).toBe(false);
  });

  it("reflects nothing of a hostile error response", async () => {
    const { client } = setup();
    const answer = await begin(client);
    const state = new URL(answer.url).searchParams.get("state") as string;
    const hostile = new URL(`${ORIGIN}/auth/callback/op`);
    hostile.search = new URLSearchParams({
      error: '"><script>alert(1)</script>',
      error_description: "<img src=x onerror=alert(2)>",
      state,
      iss: op.issuer,
    }).toString();
    const response = await client.get(hostile.href);
    await expectRefused(client, response);
    const page = await (await client.get(locationOf(response).href)).text();
    expect(page).not.toMatch(/<script>alert|onerror/);
  });

  it("answers a callback without any parameter with a redirect, not a 500", async () => {
    const { client } = setup();
    await expectRefused(client, await client.get("/auth/callback/op"));
  });

  it("reports a profile callback without an id as a configuration error", async () => {
    const { client, log } = setup({ profile: (profile) => ({ email: profile.email ?? null }) });
    const response = await deliverCallback(client, await begin(client));
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(log.errors.at(-1)?.name).toBe("OAuthProfileParseError");
    expect(await client.session()).toBeNull();
  });

  it("never redirects off-site, whatever the callbackUrl", async () => {
    for (const callbackUrl of ["https://evil.test/x", "//evil.test/x", "/\\evil.test/x"]) {
      const { client } = setup();
      const authorizationUrl = await startSignIn(client, "op", { callbackUrl });
      const answer = await op.authorize(authorizationUrl.href);
      expect(locationOf(await deliverCallback(client, answer)).origin).toBe(ORIGIN);
    }
  });
});
