/**
 * Signing-key rotation at the OpenID Provider (oidc-provider on 127.0.0.1, its own instance so
 * that no other test sees the rotation): an ID token signed with a new key verifies at once, the
 * JWKS is downloaded again only then, and a key the OP never published does not make every
 * sign-in download the keys.
 */
import type { AuthConfig } from "@tessera/core";
import { customFetch } from "@tessera/core";
import type { OIDCConfig } from "@tessera/core/providers";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverCallback, locationOf, startSignIn } from "./fixtures/oauth-flow.js";
import { type RunningOidcProvider, startOidcProvider } from "./fixtures/oidc-provider.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

let op: RunningOidcProvider;
const ADA = { sub: "ada-1", email: "ada@example.com", email_verified: true, name: "Ada Lovelace" };

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

/** Counts the requests a provider makes, by path; optionally rewrites token responses. */
function countingFetch(rewriteIdToken?: (idToken: string) => Promise<string>) {
  const counts = new Map<string, number>();
  const idTokenKids: unknown[] = [];
  const spy: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    const response = await fetch(input, init);
    if (url.pathname !== "/token" || !response.ok) return response;
    const body = (await response.json()) as { id_token: string };
    if (rewriteIdToken) body.id_token = await rewriteIdToken(body.id_token);
    idTokenKids.push(decodeProtectedHeader(body.id_token).kid);
    return Response.json(body);
  };
  return {
    spy,
    idTokenKids,
    jwks: () => counts.get("/jwks") ?? 0,
    discovery: () => counts.get("/.well-known/openid-configuration") ?? 0,
  };
}

/**
 * The provider as an app configures it: by issuer (discovery), or with every endpoint given; and
 * how many discovery documents a sign-in with a fresh cache fetches.
 */
const CONFIGURATIONS: [string, () => Partial<OIDCConfig>, number][] = [
  ["discovered from the issuer", () => ({}), 1],
  [
    "configured with explicit endpoints and jwks_endpoint",
    () => ({
      authorization: `${op.issuer}/auth`,
      token: `${op.issuer}/token`,
      jwks_endpoint: `${op.issuer}/jwks`,
    }),
    0,
  ],
];

function setup(overrides: Partial<OIDCConfig>, fetchSpy: typeof fetch) {
  const log = recordingLogger();
  const provider: OIDCConfig = {
    id: "op",
    name: "Test OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: "rp",
    clientSecret: "rp-secret",
    checks: ["pkce", "state", "nonce"],
    [customFetch]: fetchSpy,
    ...overrides,
  };
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    providers: [provider],
  };
  return { config, log };
}

/** One sign-in in a fresh browser; returns the callback's answer and the browser. */
async function signIn(config: AuthConfig) {
  const client = new Client(config);
  const authorizationUrl = await startSignIn(client, "op", { callbackUrl: "/dashboard" });
  const response = await deliverCallback(client, await op.authorize(authorizationUrl.href));
  return { client, response };
}

async function expectSignedIn(config: AuthConfig) {
  const { client, response } = await signIn(config);
  expect(locationOf(response).href).toBe(`${ORIGIN}/dashboard`);
  expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
}

describe.each(CONFIGURATIONS)(
  "signing-key rotation, provider %s",
  (_name, overrides, discoveries) => {
    it("verifies an ID token signed with the OP's new key at once, downloading the JWKS once more", async () => {
      const counter = countingFetch();
      const { config } = setup(overrides(), counter.spy);

      await expectSignedIn(config);
      expect(counter.jwks()).toBe(1);
      // A normal sign-in uses the cached keys (and metadata).
      await expectSignedIn(config);
      expect(counter.jwks()).toBe(1);
      expect(counter.discovery()).toBe(discoveries);

      const { kid } = await op.rotateSigningKey();
      await expectSignedIn(config);
      expect(counter.idTokenKids.at(-1)).toBe(kid);
      expect(counter.jwks()).toBe(2);
      // The refreshed keys are cached in turn.
      await expectSignedIn(config);
      await expectSignedIn(config);
      expect(counter.jwks()).toBe(2);
      // The discovery document is read again with the keys, as a rotation may move `jwks_uri`.
      expect(counter.discovery()).toBe(2 * discoveries);
    });
  },
);

describe("an ID token signed with a key the OP never published", () => {
  it("is refused, and only the first such sign-in downloads the keys again (no download per request)", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const foreignKid = `foreign-${(await exportJWK(publicKey)).n?.slice(0, 8)}`;
    // Attack stand-in: an ID token signed with a key the OP does not vouch for.
    const forge = (idToken: string) =>
      new SignJWT(decodeJwt(idToken))
        .setProtectedHeader({ alg: "RS256", kid: foreignKid, typ: "JWT" })
        .sign(privateKey);
    const counter = countingFetch(forge);
    const { config, log } = setup({}, counter.spy);

    const first = await signIn(config);
    expect(locationOf(first.response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(log.errors.at(-1)?.message).toMatch(/no applicable keys/);
    const afterFirst = { jwks: counter.jwks(), discovery: counter.discovery() };
    expect(afterFirst.jwks).toBe(2); // the cached keys, then one refresh

    for (let attempt = 0; attempt < 3; attempt++) {
      const { client, response } = await signIn(config);
      expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
      expect(await client.session()).toBeNull();
    }
    expect({ jwks: counter.jwks(), discovery: counter.discovery() }).toEqual(afterFirst);
  });
});
