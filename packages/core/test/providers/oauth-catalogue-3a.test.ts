/**
 * Sign-ins through `Auth()` with the catalogue's Eventbrite … Mattermost providers, each against
 * a local server answering like the provider's documented API: token responses without
 * `token_type` (Foursquare, Mailchimp, Instagram), access tokens taken in the query (Foursquare,
 * Mail.ru), in the URL path (HubSpot) or under another scheme (Mailchimp), client credentials in
 * the body or in a Basic header, and instance URLs (Mastodon, Mattermost).
 */
import type { Provider } from "@tessera/core/providers";
import Eventbrite from "@tessera/core/providers/eventbrite";
import EVEOnline from "@tessera/core/providers/eveonline";
import FACEIT from "@tessera/core/providers/faceit";
import Foursquare from "@tessera/core/providers/foursquare";
import HubSpot from "@tessera/core/providers/hubspot";
import Instagram from "@tessera/core/providers/instagram";
import Kakao from "@tessera/core/providers/kakao";
import Mailchimp from "@tessera/core/providers/mailchimp";
import Mailru from "@tessera/core/providers/mailru";
import Mastodon from "@tessera/core/providers/mastodon";
import Mattermost from "@tessera/core/providers/mattermost";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveConfig } from "../../src/lib/config/resolve.js";
import { bearerTokenResponse } from "../../src/lib/oauth/token-response.js";
import {
  describeSignIns,
  expectCredentialsInBody,
  runSignIn,
  type SignInCase,
  serverOptions,
} from "../fixtures/catalogue-sign-in.js";
import { locationOf } from "../fixtures/oauth-flow.js";
import { tokenResponse } from "../fixtures/provider-flow.js";
import {
  type ProviderServer,
  type RecordedRequest,
  startProviderServer,
} from "../fixtures/provider-server.js";
import { SECRET } from "../helpers.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server?.close());
beforeEach(() => server.reset());
afterEach(() => {
  vi.unstubAllEnvs();
});

/** Options of a called provider: credentials and the local server. */
function withServer<O extends Record<string, unknown>>(options: O) {
  return serverOptions(server, options);
}

/** A profile request carrying the token in the query only (RFC 6750 §2: one method at most). */
function tokenInQuery(name: string) {
  return (request: RecordedRequest) =>
    request.url.searchParams.get(name) === "provider-access-token" &&
    !request.headers.has("authorization");
}

const KAKAO_USER = {
  id: 1234567890,
  connected_at: "2024-05-01T08:30:00Z",
  properties: { nickname: "에이다" },
  kakao_account: {
    profile_nickname_needs_agreement: false,
    profile: {
      nickname: "에이다",
      thumbnail_image_url: "http://k.kakaocdn.net/dn/p/img_110x110.jpg",
      profile_image_url: "http://k.kakaocdn.net/dn/p/img_640x640.jpg",
      is_default_image: false,
    },
    email_needs_agreement: false,
    is_email_valid: true,
    is_email_verified: true,
    email: "ada@kakao.com",
  },
};

const MASTODON_ACCOUNT = {
  id: "109302837439",
  username: "ada",
  acct: "ada",
  display_name: "Ada Lovelace",
  url: "https://social.example/@ada",
  avatar: "https://files.social.example/avatars/ada.gif",
  avatar_static: "https://files.social.example/avatars/ada.png",
};

const INSTAGRAM_ME = {
  id: "17841405793187218",
  username: "ada.codes",
  account_type: "BUSINESS",
  name: "Ada",
};

const CASES: SignInCase[] = [
  {
    title:
      "Eventbrite asks for user.profile, posts the client credentials and takes the primary e-mail",
    provider: () => Eventbrite(withServer({})),
    providerId: "eventbrite",
    authorizationEndpoint: "https://www.eventbrite.com/oauth/authorize",
    params: { scope: "user.profile", code_challenge: true },
    tokenUrl: "https://www.eventbrite.com/oauth/token",
    profileUrl: "https://www.eventbriteapi.com/v3/users/me/",
    profile: {
      id: "1234567890",
      name: "Ada Lovelace",
      first_name: "Ada",
      last_name: "Lovelace",
      image_id: "502337279",
      emails: [
        { email: "ada@old.example.com", verified: true, primary: false },
        { email: "ada@example.com", verified: true, primary: true },
      ],
    },
    clientAuth: "custom",
    user: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      image:
        "https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F502337279%2F1%2Foriginal.jpg",
    },
    check: ({ token }) => expectCredentialsInBody(token),
  },
  {
    title: "EVE Online asks for publicData with state, and the user is the verified character",
    provider: () => EVEOnline(withServer({})),
    providerId: "eveonline",
    authorizationEndpoint: "https://login.eveonline.com/v2/oauth/authorize",
    params: { scope: "publicData", state: true, code_challenge: false },
    tokenUrl: "https://login.eveonline.com/v2/oauth/token",
    profileUrl: "https://login.eveonline.com/oauth/verify",
    profile: {
      CharacterID: 2112625428,
      CharacterName: "Ada Capsuleer",
      ExpiresOn: "2024-05-01T08:50:00",
      Scopes: "publicData",
      TokenType: "Character",
      CharacterOwnerHash: "YBa4Cr7QwyiBdQNzKUWcDf0yFuE=",
      IntellectualProperty: "EVE",
    },
    clientAuth: "basic",
    user: {
      name: "Ada Capsuleer",
      email: null,
      image: "https://image.eveonline.com/Character/2112625428_128.jpg",
    },
  },
  {
    title:
      "FACEIT opens the popup consent with openid profile email and authenticates with HTTP Basic",
    provider: () => FACEIT(withServer({})),
    providerId: "faceit",
    authorizationEndpoint: "https://accounts.faceit.com/accounts",
    params: { redirect_popup: "true", scope: "openid profile email", code_challenge: true },
    tokenUrl: "https://api.faceit.com/auth/v1/oauth/token",
    profileUrl: "https://api.faceit.com/auth/v1/resources/userinfo",
    profile: {
      guid: "0b2a3e2c-5f1d-4a8e-9a3f-1c2d3e4f5a6b",
      name: "Ada Lovelace",
      nickname: "ada",
      email: "ada@example.com",
      picture: "https://assets.faceit-cdn.net/avatars/ada.jpg",
    },
    clientAuth: "basic",
    user: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      image: "https://assets.faceit-cdn.net/avatars/ada.jpg",
    },
    check: ({ token }) => {
      const basic = token.headers.get("authorization")?.slice("Basic ".length) ?? "";
      expect(atob(basic)).toBe("client-1:secret-1");
      expect(token.form.has("client_secret")).toBe(false);
    },
  },
  {
    title:
      "Foursquare takes a token response without token_type and reads users/self with oauth_token and v",
    provider: () => Foursquare(withServer({})),
    providerId: "foursquare",
    authorizationEndpoint: "https://foursquare.com/oauth2/authenticate",
    params: { scope: false, code_challenge: true },
    tokenUrl: "https://foursquare.com/oauth2/access_token",
    // Foursquare documents `{ "access_token": ACCESS_TOKEN }` and nothing else.
    token: () => Response.json({ access_token: "provider-access-token" }),
    profileUrl: "https://api.foursquare.com/v2/users/self",
    profileAuthorized: (request) =>
      tokenInQuery("oauth_token")(request) && request.url.searchParams.get("v") === "20230131",
    profile: {
      meta: { code: 200, requestId: "5a1f" },
      response: {
        user: {
          id: "1234567",
          firstName: "Ada",
          lastName: "Lovelace",
          photo: { prefix: "https://fastly.4sqi.net/img/user/", suffix: "/1234567-ABC.jpg" },
          contact: { email: "ada@example.com" },
        },
      },
    },
    clientAuth: "custom",
    user: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      image: "https://fastly.4sqi.net/img/user/original/1234567-ABC.jpg",
    },
    check: ({ token }) => expectCredentialsInBody(token),
  },
  {
    title: "Foursquare sends the configured apiVersion as v",
    provider: () => Foursquare(withServer({ apiVersion: "20240601" })),
    providerId: "foursquare",
    authorizationEndpoint: "https://foursquare.com/oauth2/authenticate",
    params: {},
    tokenUrl: "https://foursquare.com/oauth2/access_token",
    token: () => Response.json({ access_token: "provider-access-token" }),
    profileUrl: "https://api.foursquare.com/v2/users/self",
    profileAuthorized: (request) =>
      tokenInQuery("oauth_token")(request) && request.url.searchParams.get("v") === "20240601",
    profile: {
      response: { user: { id: "1234567", firstName: "Ada", lastName: "L", contact: {} } },
    },
    clientAuth: "custom",
    user: { name: "Ada L", image: null },
  },
  {
    title: "HubSpot asks for the oauth scope and reads the user from the access token's metadata",
    provider: () => HubSpot(withServer({})),
    providerId: "hubspot",
    authorizationEndpoint: "https://app.hubspot.com/oauth/authorize",
    params: { scope: "oauth", client_id: "client-1", code_challenge: true },
    tokenUrl: "https://api.hubapi.com/oauth/v1/token",
    token: () => tokenResponse({ refresh_token: "hubspot-refresh", expires_in: 1800 }),
    // The token is the last path segment; HubSpot wants no Authorization header here.
    profileUrl: "https://api.hubapi.com/oauth/v1/access-tokens/provider-access-token",
    profileAuthorized: (request) => !request.headers.has("authorization"),
    profile: {
      token: "provider-access-token",
      user: "ada@example.com",
      hub_domain: "example.com",
      scopes: ["oauth"],
      hub_id: 62515,
      app_id: 456,
      expires_in: 1800,
      user_id: 123,
      token_type: "access",
    },
    clientAuth: "custom",
    user: { name: "ada@example.com", email: "ada@example.com", image: null },
    check: ({ token }) => expectCredentialsInBody(token),
  },
  {
    title:
      "Instagram asks for instagram_business_basic and unwraps the token answer of Instagram Login",
    provider: () => Instagram(withServer({})),
    providerId: "instagram",
    authorizationEndpoint: "https://www.instagram.com/oauth/authorize",
    params: { scope: "instagram_business_basic", code_challenge: true },
    tokenUrl: "https://api.instagram.com/oauth/access_token",
    token: () =>
      Response.json({
        data: [
          {
            access_token: "provider-access-token",
            user_id: "17841405793187218",
            permissions: "instagram_business_basic",
          },
        ],
      }),
    profileUrl: "https://graph.instagram.com/me",
    profile: INSTAGRAM_ME,
    clientAuth: "custom",
    user: { name: "ada.codes", email: null, image: null },
    check: ({ token, profile }) => {
      expectCredentialsInBody(token);
      expect(profile.url.searchParams.get("fields")).toBe("id,username,account_type,name");
    },
  },
  {
    title: "Instagram also takes the token answer without its data list",
    provider: () => Instagram(withServer({})),
    providerId: "instagram",
    authorizationEndpoint: "https://www.instagram.com/oauth/authorize",
    params: {},
    tokenUrl: "https://api.instagram.com/oauth/access_token",
    token: () =>
      Response.json({
        access_token: "provider-access-token",
        user_id: 17841405793187218,
        permissions: ["instagram_business_basic"],
      }),
    profileUrl: "https://graph.instagram.com/me",
    profile: INSTAGRAM_ME,
    clientAuth: "custom",
    user: { name: "ada.codes", email: null, image: null },
  },
  {
    title: "Kakao sends an empty scope, posts the client credentials and reads kakao_account",
    provider: () => Kakao(withServer({})),
    providerId: "kakao",
    authorizationEndpoint: "https://kauth.kakao.com/oauth/authorize",
    params: { scope: "", code_challenge: true },
    tokenUrl: "https://kauth.kakao.com/oauth/token",
    token: () =>
      tokenResponse({
        token_type: "bearer",
        expires_in: 21599,
        refresh_token: "kakao-refresh",
        refresh_token_expires_in: 5183999,
      }),
    profileUrl: "https://kapi.kakao.com/v2/user/me",
    profile: KAKAO_USER,
    clientAuth: "custom",
    user: {
      name: "에이다",
      email: "ada@kakao.com",
      image: "http://k.kakaocdn.net/dn/p/img_640x640.jpg",
    },
    check: ({ token }) => expectCredentialsInBody(token),
  },
  {
    title: "Kakao signs in a user who shared nothing but the id",
    provider: () => Kakao(withServer({})),
    providerId: "kakao",
    authorizationEndpoint: "https://kauth.kakao.com/oauth/authorize",
    params: {},
    tokenUrl: "https://kauth.kakao.com/oauth/token",
    profileUrl: "https://kapi.kakao.com/v2/user/me",
    profile: { id: 1234567891, connected_at: "2024-05-01T08:30:00Z", kakao_account: {} },
    clientAuth: "custom",
    user: {},
  },
  {
    title:
      "Mailchimp takes its never-expiring token answer and reads the metadata with the OAuth scheme",
    provider: () => Mailchimp(withServer({})),
    providerId: "mailchimp",
    authorizationEndpoint: "https://login.mailchimp.com/oauth2/authorize",
    params: { scope: false, code_challenge: true },
    tokenUrl: "https://login.mailchimp.com/oauth2/token",
    // As Mailchimp documents it: no token_type, a null scope, and 0 for "never expires".
    token: () =>
      Response.json({ access_token: "provider-access-token", expires_in: 0, scope: null }),
    profileUrl: "https://login.mailchimp.com/oauth2/metadata",
    profileAuthorized: (request) =>
      request.headers.get("authorization") === "OAuth provider-access-token",
    profile: {
      dc: "us6",
      role: "owner",
      accountname: "Analytical Engines Ltd",
      user_id: 48151623,
      login: { email: "ada@example.com", avatar: null, login_id: 48151623, login_name: "ada" },
      login_url: "https://login.mailchimp.com",
      api_endpoint: "https://us6.api.mailchimp.com",
    },
    clientAuth: "basic",
    user: { name: "Analytical Engines Ltd", email: "ada@example.com", image: null },
  },
  {
    title: "Mail.ru asks for userinfo and reads the profile with access_token in the query",
    provider: () => Mailru(withServer({})),
    providerId: "mailru",
    authorizationEndpoint: "https://oauth.mail.ru/login",
    params: { scope: "userinfo", code_challenge: true },
    tokenUrl: "https://oauth.mail.ru/token",
    token: () => tokenResponse({ refresh_token: "mailru-refresh" }),
    profileUrl: "https://oauth.mail.ru/userinfo",
    profileAuthorized: tokenInQuery("access_token"),
    profile: {
      id: "1234567890123456789",
      client_id: "client-1",
      gender: "f",
      name: "Ада Лавлейс",
      nickname: "ada",
      locale: "ru_RU",
      first_name: "Ада",
      last_name: "Лавлейс",
      image: "https://filin.mail.ru/pic?d=abc&width=180&height=180",
      email: "ada@mail.ru",
    },
    clientAuth: "basic",
    // Mapped as Auth.js maps it: the avatar is Mail.ru's `image`, not an OIDC `picture`.
    user: { name: "Ада Лавлейс", email: "ada@mail.ru", image: null },
  },
  {
    title: "Mastodon signs in against the server named by issuer, asking for read",
    provider: () => Mastodon(withServer({ issuer: "https://social.example" })),
    providerId: "mastodon",
    authorizationEndpoint: "https://social.example/oauth/authorize",
    params: { scope: "read", code_challenge: true },
    tokenUrl: "https://social.example/oauth/token",
    profileUrl: "https://social.example/api/v1/accounts/verify_credentials",
    profile: MASTODON_ACCOUNT,
    clientAuth: "basic",
    user: { name: "ada", email: null, image: "https://files.social.example/avatars/ada.png" },
  },
  {
    title: "Mattermost signs in against the server named by issuer and posts the credentials",
    provider: () => Mattermost(withServer({ issuer: "https://chat.example.com/" })),
    providerId: "mattermost",
    authorizationEndpoint: "https://chat.example.com/oauth/authorize",
    params: { scope: false, code_challenge: true },
    tokenUrl: "https://chat.example.com/oauth/access_token",
    token: () => tokenResponse({ scope: "user", refresh_token: "mm-refresh" }),
    profileUrl: "https://chat.example.com/api/v4/users/me",
    profile: {
      id: "8gb7zzm4ajnh8ry4bq1ksmuxeo",
      create_at: 1714550400000,
      update_at: 1714550400000,
      delete_at: 0,
      username: "ada",
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      roles: "system_user",
    },
    clientAuth: "custom",
    user: { name: "ada", email: "ada@example.com", image: null },
    check: ({ token }) => expectCredentialsInBody(token),
  },
];

describeSignIns(() => server, CASES);

describe("instance URLs (Mastodon, Mattermost)", () => {
  const mastodon = CASES.find((scenario) => scenario.providerId === "mastodon") as SignInCase;

  it("Mastodon takes the server from AUTH_MASTODON_ISSUER when no issuer is given", async () => {
    vi.stubEnv("AUTH_MASTODON_ISSUER", "https://fosstodon.example/");
    const { authorizationUrl, response, profile } = await runSignIn(server, {
      ...mastodon,
      provider: () => Mastodon(withServer({})),
      tokenUrl: "https://fosstodon.example/oauth/token",
      profileUrl: "https://fosstodon.example/api/v1/accounts/verify_credentials",
    });
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(
      "https://fosstodon.example/oauth/authorize",
    );
    expect(profile).toBeDefined();
    expect(locationOf(response).pathname).not.toMatch(/error/);
  });

  it("an issuer option wins over the environment", async () => {
    vi.stubEnv("AUTH_MATTERMOST_ISSUER", "https://other.example.com");
    const mattermost = CASES.find((scenario) => scenario.providerId === "mattermost") as SignInCase;
    const { authorizationUrl, token } = await runSignIn(server, mattermost);
    expect(authorizationUrl.host).toBe("chat.example.com");
    expect(token).toBeDefined();
    expect(server.requests.some((request) => request.url.host === "other.example.com")).toBe(false);
  });

  const withoutServer = { clientId: "id", clientSecret: "secret" };
  it.each([
    ["mastodon", "AUTH_MASTODON_ISSUER", () => Mastodon(withoutServer)],
    ["mattermost", "AUTH_MATTERMOST_ISSUER", () => Mattermost(withoutServer)],
  ] as const)("%s without a server URL is a configuration error naming %s", (_, env, make) => {
    vi.stubEnv(env, "");
    const providers = [make() as Provider];
    const result = resolveConfig({ secret: SECRET, trustHost: true, providers }, {});
    expect(result.configError?.message).toContain(env);
  });
});

describe("token responses repaired as their providers document them", () => {
  it("Mailchimp's token never expires: its expires_in of 0 gives no expiry, its null scope none", async () => {
    const mailchimp = CASES.find((scenario) => scenario.providerId === "mailchimp") as SignInCase;
    let stored: Record<string, unknown> | undefined;
    const { response } = await runSignIn(server, {
      ...mailchimp,
      provider: () =>
        Mailchimp(
          withServer({
            account: (tokens: Record<string, unknown>) => {
              stored = tokens;
              return tokens;
            },
          }),
        ),
    });
    expect(locationOf(response).pathname).not.toMatch(/error/);
    expect(stored).toMatchObject({ access_token: "provider-access-token", token_type: "bearer" });
    expect(stored).not.toHaveProperty("expires_in");
    expect(stored).not.toHaveProperty("expires_at");
    expect(stored).not.toHaveProperty("scope");
  });

  it("keeps what a provider does send: its token_type, a real expiry and scope", async () => {
    const repaired = await bearerTokenResponse()(
      Response.json({ access_token: "t", token_type: "MAC", expires_in: 3600, scope: "read" }),
    );
    expect(await repaired?.json()).toEqual({
      access_token: "t",
      token_type: "MAC",
      expires_in: 3600,
      scope: "read",
    });
  });

  it("leaves a body that is not a JSON object to the token response check", async () => {
    const conform = bearerTokenResponse();
    expect(await conform(new Response("access_token=t", { status: 200 }))).toBeUndefined();
    expect(await conform(Response.json(["t"]))).toBeUndefined();
  });

  it("a token error answer passes through as the provider's error, not as a bearer token", async () => {
    const foursquare = CASES.find((scenario) => scenario.providerId === "foursquare") as SignInCase;
    const { response, profile } = await runSignIn(server, {
      ...foursquare,
      token: () => Response.json({ error: "invalid_grant" }, { status: 400 }),
    });
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(profile).toBeUndefined();
  });
});
