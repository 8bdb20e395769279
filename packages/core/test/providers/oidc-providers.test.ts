/**
 * The built-in OpenID Connect providers against a local server answering like each provider's
 * documented discovery, JWKS and token endpoints, with ID tokens signed by a test key: Google,
 * Microsoft Entra ID (multi-tenant issuer, Graph photo), Apple (form_post, `user` parameter),
 * Auth0, Okta, Keycloak, LinkedIn, Slack and Twitch.
 */
import type { AuthConfig } from "@tessera/core";
import { customFetch } from "@tessera/core";
import type { Provider } from "@tessera/core/providers";
import Apple from "@tessera/core/providers/apple";
import Auth0 from "@tessera/core/providers/auth0";
import Google from "@tessera/core/providers/google";
import Keycloak from "@tessera/core/providers/keycloak";
import LinkedIn from "@tessera/core/providers/linkedin";
import MicrosoftEntraID from "@tessera/core/providers/microsoft-entra-id";
import Okta from "@tessera/core/providers/okta";
import Slack from "@tessera/core/providers/slack";
import Twitch from "@tessera/core/providers/twitch";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { locationOf, startSignIn } from "../fixtures/oauth-flow.js";
import {
  answerAuthorization,
  idTokenFor,
  providerConfig,
  tokenResponse,
} from "../fixtures/provider-flow.js";
import {
  type OidcIssuerOptions,
  type ProviderServer,
  serveOidcIssuer,
  startProviderServer,
} from "../fixtures/provider-server.js";
import { Client, ORIGIN } from "../helpers.js";
import { setCookies } from "../set-cookie.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server?.close());
beforeEach(() => server.reset());

const credentials = () => ({
  clientId: "client-1",
  clientSecret: "secret-1",
  [customFetch]: server.fetch,
});

interface Scenario {
  provider: Provider;
  providerId: string;
  issuer: OidcIssuerOptions;
  /** ID token claims (`iss` defaults to the issuer). */
  claims: Record<string, unknown>;
  token?: Record<string, unknown>;
  callbackParams?: Record<string, string>;
  post?: boolean;
  config?: Partial<AuthConfig>;
}

/** Serves the issuer, runs a sign-in, and returns what a test looks at. */
async function run(scenario: Scenario) {
  const endpoints = serveOidcIssuer(server, scenario.issuer);
  let authorizationUrl: URL | undefined;
  server.on(`POST ${endpoints.token_endpoint}`, async () =>
    tokenResponse({
      id_token: await idTokenFor(server, authorizationUrl as URL, {
        iss: scenario.issuer.issuer,
        ...scenario.claims,
      }),
      ...scenario.token,
    }),
  );
  const { config, log } = providerConfig(scenario.provider, scenario.config);
  const client = new Client(config);
  authorizationUrl = await startSignIn(client, scenario.providerId);
  const response = await answerAuthorization(
    client,
    authorizationUrl,
    scenario.callbackParams,
    scenario.post,
  );
  const [tokenRequest] = server.requestsTo(endpoints.token_endpoint);
  return { client, log, authorizationUrl, response, tokenRequest, endpoints };
}

describe("Google", () => {
  it("discovers accounts.google.com and maps the ID token claims", async () => {
    const { client, authorizationUrl, tokenRequest } = await run({
      provider: Google(credentials()),
      providerId: "google",
      issuer: { issuer: "https://accounts.google.com" },
      claims: {
        sub: "1098765",
        email: "Ada@Gmail.com",
        email_verified: true,
        name: "Ada L.",
        picture: "https://lh3.googleusercontent.com/a/pic",
      },
    });
    expect(authorizationUrl.origin).toBe("https://accounts.google.com");
    expect(authorizationUrl.searchParams.get("scope")).toBe("openid profile email");
    expect(tokenRequest?.headers.get("authorization")).toMatch(/^Basic /);
    expect((await client.session())?.user).toEqual({
      name: "Ada L.",
      email: "ada@gmail.com",
      image: "https://lh3.googleusercontent.com/a/pic",
    });
  });
});

describe("Microsoft Entra ID", () => {
  const TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad";
  const common: OidcIssuerOptions = {
    issuer: "https://login.microsoftonline.com/common/v2.0",
    publishedIssuer: "https://login.microsoftonline.com/{tenantid}/v2.0",
    authorizationEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    tokenEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
    jwksUri: "https://login.microsoftonline.com/common/discovery/v2.0/keys",
  };
  const PHOTO = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
  const photoUrl = "https://graph.microsoft.com/v1.0/me/photos/48x48/$value";

  it("admits any tenant through the common issuer, checking each ID token against its tenant", async () => {
    server.on(photoUrl, () => new Response(PHOTO, { headers: { "content-type": "image/jpeg" } }));
    const { client, authorizationUrl } = await run({
      provider: MicrosoftEntraID(credentials()),
      providerId: "microsoft-entra-id",
      issuer: common,
      claims: {
        iss: `https://login.microsoftonline.com/${TENANT}/v2.0`,
        tid: TENANT,
        sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
        name: "Megan Bowen",
        email: "MeganB@contoso.com",
      },
    });
    expect(authorizationUrl.searchParams.get("scope")).toBe("openid profile email User.Read");
    const [photo] = server.requestsTo(photoUrl);
    expect(photo?.headers.get("authorization")).toBe("Bearer provider-access-token");
    expect((await client.session())?.user).toEqual({
      name: "Megan Bowen",
      email: "meganb@contoso.com",
      image: `data:image/jpeg;base64,${Buffer.from(PHOTO).toString("base64")}`,
    });
  });

  it("rejects an ID token whose issuer names another tenant than its tid", async () => {
    const { client, response } = await run({
      provider: MicrosoftEntraID({ ...credentials(), profilePhotoSize: false }),
      providerId: "microsoft-entra-id",
      issuer: common,
      claims: {
        iss: "https://login.microsoftonline.com/attacker-tenant/v2.0",
        tid: TENANT,
        sub: "x",
      },
    });
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(await client.session()).toBeNull();
  });

  it("pins a single tenant through its issuer and signs in without a photo", async () => {
    const issuer = `https://login.microsoftonline.com/${TENANT}/v2.0`;
    server.on(photoUrl, () => new Response("not found", { status: 404 }));
    const { client } = await run({
      provider: MicrosoftEntraID({ ...credentials(), issuer }),
      providerId: "microsoft-entra-id",
      issuer: { issuer },
      claims: { tid: TENANT, sub: "megan", name: "Megan", email: "megan@contoso.com" },
    });
    expect((await client.session())?.user).toEqual({
      name: "Megan",
      email: "megan@contoso.com",
      image: null,
    });
  });
});

describe("Apple", () => {
  it("takes the form_post answer with the one-time user parameter, state and nonce", async () => {
    const store = createMemoryStore();
    const { client, authorizationUrl, tokenRequest } = await run({
      provider: Apple(credentials()),
      providerId: "apple",
      issuer: { issuer: "https://appleid.apple.com" },
      claims: {
        sub: "001234.abcdef.1234",
        email: "jane@privaterelay.appleid.com",
        email_verified: "true",
        is_private_email: "true",
      },
      callbackParams: {
        user: JSON.stringify({ name: { firstName: "Jane", lastName: "Appleseed" } }),
      },
      post: true,
      config: { adapter: MemoryAdapter(store) },
    });
    const params = authorizationUrl.searchParams;
    expect(params.get("response_mode")).toBe("form_post");
    expect(params.get("scope")).toBe("name email");
    expect(params.get("state")).toBeTruthy();
    expect(params.get("nonce")).toBeTruthy();
    expect(params.has("code_challenge")).toBe(false);
    expect(tokenRequest?.form.get("client_secret")).toBe("secret-1");
    expect(tokenRequest?.headers.has("authorization")).toBe(false);
    expect((await client.session())?.user).toMatchObject({
      name: "Jane Appleseed",
      email: "jane@privaterelay.appleid.com",
    });
    // Apple's string "true" counts as a verified address.
    expect([...store.users.values()][0]?.emailVerified).toBeInstanceOf(Date);
  });

  it("sets its check cookies SameSite=None; Secure for Apple's cross-site POST", async () => {
    const { config } = providerConfig(Apple(credentials()));
    serveOidcIssuer(server, { issuer: "https://appleid.apple.com" });
    const client = new Client(config);
    const csrfToken = await client.csrfToken();
    const response = await client.post("/auth/signin/apple", { csrfToken });
    const cookies = setCookies(response);
    for (const name of ["authjs.state", "authjs.nonce"])
      expect(cookies.get(name)).toMatchObject({ sameSite: "None", secure: true, httpOnly: true });
  });

  it("falls back to the e-mail as name after the first consent", async () => {
    const { client } = await run({
      provider: Apple(credentials()),
      providerId: "apple",
      issuer: { issuer: "https://appleid.apple.com" },
      claims: { sub: "001234.abcdef.1234", email: "jane@example.com" },
      post: true,
    });
    expect((await client.session())?.user).toMatchObject({ name: "jane@example.com" });
  });
});

describe("Auth0, Okta and Keycloak", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("Auth0: discovers the tenant's issuer (with its trailing slash)", async () => {
    const issuer = "https://example.eu.auth0.com/";
    const { client } = await run({
      provider: Auth0({ ...credentials(), issuer }),
      providerId: "auth0",
      issuer: { issuer },
      claims: {
        sub: "auth0|123",
        nickname: "ada",
        email: "ada@example.com",
        picture: "https://s.gravatar.com/a",
      },
    });
    expect((await client.session())?.user).toEqual({
      name: "ada",
      email: "ada@example.com",
      image: "https://s.gravatar.com/a",
    });
  });

  it("Okta: reads issuer, client id and secret from AUTH_OKTA_* when used uncalled", async () => {
    const issuer = "https://example.okta.com/oauth2/default";
    process.env.AUTH_OKTA_ISSUER = issuer;
    process.env.AUTH_OKTA_ID = "okta-env-id";
    process.env.AUTH_OKTA_SECRET = "okta-env-secret";
    const okta = (options = {}) => Okta({ ...options, [customFetch]: server.fetch });
    const { client, authorizationUrl, tokenRequest } = await run({
      provider: okta,
      providerId: "okta",
      issuer: { issuer },
      claims: { sub: "00u1", preferred_username: "ada@example.com", email: "ada@example.com" },
    });
    expect(authorizationUrl.searchParams.get("client_id")).toBe("okta-env-id");
    // Okta refuses an authorization request without `state`.
    expect(authorizationUrl.searchParams.get("state")).toBeTruthy();
    expect(authorizationUrl.searchParams.get("code_challenge")).toBeTruthy();
    expect(tokenRequest?.headers.get("authorization")).toBe(
      `Basic ${btoa("okta-env-id:okta-env-secret")}`,
    );
    expect((await client.session())?.user).toMatchObject({ name: "ada@example.com" });
  });

  it("Keycloak: works with a plain-http realm URL and maps preferred_username", async () => {
    const issuer = "http://keycloak.local:8080/realms/acme";
    const { client, authorizationUrl } = await run({
      provider: Keycloak({ ...credentials(), issuer }),
      providerId: "keycloak",
      issuer: { issuer },
      claims: { sub: "f:1", preferred_username: "ada", email: "ada@acme.test" },
    });
    expect(authorizationUrl.href.startsWith(`${issuer}/authorize?`)).toBe(true);
    expect((await client.session())?.user).toMatchObject({ name: "ada", email: "ada@acme.test" });
  });

  it("reports a missing issuer as a configuration error naming the fix", async () => {
    const { config, log } = providerConfig(Keycloak({ clientId: "x", clientSecret: "y" }));
    const response = await new Client(config).get("/auth/signin");
    expect(response.status).toBe(500);
    expect(log.errors.at(-1)?.message).toMatch(/"keycloak" has no `issuer`/);
  });
});

describe("LinkedIn, Slack and Twitch", () => {
  it("LinkedIn: state only (no PKCE), client credentials in the body", async () => {
    const { client, authorizationUrl, tokenRequest } = await run({
      provider: LinkedIn(credentials()),
      providerId: "linkedin",
      issuer: { issuer: "https://www.linkedin.com/oauth" },
      claims: {
        sub: "782bbtaQ",
        name: "Ada",
        email: "ada@example.com",
        picture: "https://media.licdn.com/p",
      },
    });
    expect(authorizationUrl.searchParams.get("state")).toBeTruthy();
    expect(authorizationUrl.searchParams.has("code_challenge")).toBe(false);
    expect(tokenRequest?.form.get("client_id")).toBe("client-1");
    expect(tokenRequest?.form.get("client_secret")).toBe("secret-1");
    expect((await client.session())?.user).toMatchObject({ image: "https://media.licdn.com/p" });
  });

  it("Slack: nonce and state, the team claims reach the profile callback", async () => {
    const seen: unknown[] = [];
    const { client, authorizationUrl } = await run({
      provider: Slack({
        ...credentials(),
        profile: (profile) => {
          seen.push(profile["https://slack.com/team_id"]);
          return { id: profile.sub, email: profile.email ?? null };
        },
      }),
      providerId: "slack",
      issuer: { issuer: "https://slack.com" },
      claims: { sub: "U0R7JM", email: "ada@example.com", "https://slack.com/team_id": "T0R7GR" },
    });
    expect(authorizationUrl.searchParams.get("nonce")).toBeTruthy();
    expect(authorizationUrl.searchParams.has("code_challenge")).toBe(false);
    expect(seen).toEqual(["T0R7GR"]);
    expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
  });

  it("Twitch: asks for claims as JSON and accepts the scope array of its token response", async () => {
    const { client, authorizationUrl, tokenRequest } = await run({
      provider: Twitch(credentials()),
      providerId: "twitch",
      issuer: { issuer: "https://id.twitch.tv/oauth2" },
      claims: { sub: "713936733", preferred_username: "ada_streams", email: "ada@example.com" },
      token: { scope: ["openid", "user:read:email"], token_type: "bearer" },
    });
    const claims = JSON.parse(authorizationUrl.searchParams.get("claims") as string);
    expect(claims).toEqual({
      id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
    });
    expect(tokenRequest?.form.get("client_secret")).toBe("secret-1");
    expect((await client.session())?.user).toMatchObject({ name: "ada_streams" });
  });
});
