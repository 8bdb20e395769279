/**
 * The OAuth 2 providers of the catalogue (part 1: 42 School to Dropbox), each signing in through
 * `Auth()` against a local server answering like the provider's documented token and profile
 * endpoints: the authorization parameters and checks, client authentication, each request quirk
 * (extra headers, non-standard token requests and responses, POST profile requests, nested
 * profile JSON) and the user its profile maps to.
 */
import { customFetch } from "@tessera/core";
import FortyTwo from "@tessera/core/providers/42-school";
import Atlassian from "@tessera/core/providers/atlassian";
import AzureDevOps from "@tessera/core/providers/azure-devops";
import Bitbucket from "@tessera/core/providers/bitbucket";
import Box from "@tessera/core/providers/box";
import BoxyHQSAML from "@tessera/core/providers/boxyhq-saml";
import Bungie from "@tessera/core/providers/bungie";
import ClickUp from "@tessera/core/providers/click-up";
import Coinbase from "@tessera/core/providers/coinbase";
import Concept2 from "@tessera/core/providers/concept2";
import Dribbble from "@tessera/core/providers/dribbble";
import Dropbox from "@tessera/core/providers/dropbox";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  describeSignIns,
  runSignIn,
  type SignInCase,
  serverOptions,
} from "../fixtures/catalogue-sign-in.js";
import { locationOf } from "../fixtures/oauth-flow.js";
import { tokenResponse } from "../fixtures/provider-flow.js";
import { type ProviderServer, startProviderServer } from "../fixtures/provider-server.js";
import { ORIGIN } from "../helpers.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server?.close());
beforeEach(() => server.reset());

/** Options of a called provider: credentials and the local server. */
function withServer<O extends Record<string, unknown>>(options: O) {
  return serverOptions(server, options);
}

const CASES: SignInCase[] = [
  {
    title: "42 School reads /v2/me with the public scope",
    provider: () => FortyTwo(withServer({})),
    providerId: "42-school",
    authorizationEndpoint: "https://api.intra.42.fr/oauth/authorize",
    params: { scope: "public", code_challenge: true },
    tokenUrl: "https://api.intra.42.fr/oauth/token",
    profileUrl: "https://api.intra.42.fr/v2/me",
    profile: {
      id: 2,
      login: "ada",
      email: "ada@student.42.fr",
      usual_full_name: "Ada Lovelace",
      image: { link: "https://cdn.intra.42.fr/users/ada.jpg", versions: {} },
    },
    clientAuth: "basic",
    user: {
      name: "Ada Lovelace",
      email: "ada@student.42.fr",
      image: "https://cdn.intra.42.fr/users/ada.jpg",
    },
  },
  {
    title: "Atlassian names the api.atlassian.com audience and sends state without PKCE",
    provider: () => Atlassian(withServer({})),
    providerId: "atlassian",
    authorizationEndpoint: "https://auth.atlassian.com/authorize",
    params: {
      audience: "api.atlassian.com",
      scope: "read:me",
      state: true,
      code_challenge: false,
    },
    tokenUrl: "https://auth.atlassian.com/oauth/token",
    profileUrl: "https://api.atlassian.com/me",
    profile: {
      account_id: "5b10ac8d82e05b22cc7d4ef5",
      name: "Ada Lovelace",
      email: "ada@example.com",
      picture: "https://avatar-management.services.atlassian.com/ada.png",
    },
    clientAuth: "basic",
    user: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      image: "https://avatar-management.services.atlassian.com/ada.png",
    },
  },
  {
    title:
      "Azure DevOps asks for an Assertion, exchanges it as a JWT bearer grant and reads the avatar",
    provider: () => AzureDevOps(withServer({ scope: "vso.profile vso.code" })),
    providerId: "azure-devops",
    authorizationEndpoint: "https://app.vssps.visualstudio.com/oauth2/authorize",
    params: { response_type: "Assertion", scope: "vso.profile vso.code" },
    tokenUrl: "https://app.vssps.visualstudio.com/oauth2/token",
    token: () =>
      Response.json({
        access_token: "provider-access-token",
        token_type: "jwt-bearer",
        expires_in: "3599",
        refresh_token: "refresh",
      }),
    profileUrl: "https://app.vssps.visualstudio.com/_apis/profile/profiles/me",
    profile: {
      id: "e3a6a4cc-0e8f-6d6b-9b0f-2b8d1d0c0e5a",
      displayName: "Ada Lovelace",
      emailAddress: "ada@example.com",
      coreAttributes: { Avatar: { value: { value: "iVBORw0KGgo=" } } },
    },
    clientAuth: "custom",
    user: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      image: "data:image/jpeg;base64,iVBORw0KGgo=",
    },
    check: ({ token, profile }) => {
      expect(Object.fromEntries(token.form)).toEqual({
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: "secret-1",
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: "provider-code",
        redirect_uri: `${ORIGIN}/auth/callback/azure-devops`,
      });
      expect(Object.fromEntries(profile.url.searchParams)).toEqual({
        details: "true",
        coreAttributes: "Avatar",
        "api-version": "6.0",
      });
    },
  },
  {
    title: "Bitbucket signs in with the account scope and no e-mail",
    provider: () => Bitbucket(withServer({})),
    providerId: "bitbucket",
    authorizationEndpoint: "https://bitbucket.org/site/oauth2/authorize",
    params: { scope: "account", code_challenge: true },
    tokenUrl: "https://bitbucket.org/site/oauth2/access_token",
    profileUrl: "https://api.bitbucket.org/2.0/user",
    profile: {
      account_id: "557058:1b2c3d",
      uuid: "{a1b2}",
      username: "ada",
      display_name: null,
      links: { avatar: { href: "https://avatar-management.atl-paas.net/ada.png" } },
    },
    clientAuth: "basic",
    user: { name: "ada", email: null, image: "https://avatar-management.atl-paas.net/ada.png" },
  },
  {
    title: "Box sends no scope and takes the login as e-mail",
    provider: () => Box(withServer({})),
    providerId: "box",
    authorizationEndpoint: "https://account.box.com/api/oauth2/authorize",
    params: { scope: false, code_challenge: true },
    tokenUrl: "https://api.box.com/oauth2/token",
    profileUrl: "https://api.box.com/2.0/users/me",
    profile: {
      type: "user",
      id: "11446498",
      name: "Aaron Levie",
      login: "ceo@example.com",
      avatar_url: "https://www.box.com/api/avatar/large/181216415",
    },
    clientAuth: "basic",
    user: {
      name: "Aaron Levie",
      email: "ceo@example.com",
      image: "https://www.box.com/api/avatar/large/181216415",
    },
  },
  {
    title: "BoxyHQ SAML asks Jackson for the saml provider without a scope, and joins the names",
    provider: () =>
      BoxyHQSAML(
        withServer({
          issuer: "https://jackson.example.com",
          clientId: "tenant=acme.com&product=demo",
          clientSecret: "dummy",
        }),
      ),
    providerId: "boxyhq-saml",
    authorizationEndpoint: "https://jackson.example.com/api/oauth/authorize",
    params: { provider: "saml", scope: false, client_id: "tenant=acme.com&product=demo" },
    tokenUrl: "https://jackson.example.com/api/oauth/token",
    profileUrl: "https://jackson.example.com/api/oauth/userinfo",
    profile: {
      id: "jackson-user-1",
      email: "ada@acme.com",
      firstName: "Ada",
      lastName: "Lovelace",
      requested: { tenant: "acme.com" },
    },
    clientAuth: "basic",
    user: { name: "Ada Lovelace", email: "ada@acme.com", image: null },
  },
  {
    title: "Bungie fills in the membership id and sends its API key",
    provider: () => Bungie(withServer({ apiKey: "bungie-api-key" })),
    providerId: "bungie",
    authorizationEndpoint: "https://www.bungie.net/en/OAuth/Authorize",
    params: { reauth: "true", scope: false },
    tokenUrl: "https://www.bungie.net/platform/app/oauth/token/",
    token: () =>
      tokenResponse({ membership_id: "4611686018467284386", refresh_expires_in: 7776000 }),
    profileUrl: "https://www.bungie.net/platform/User/GetBungieAccount/4611686018467284386/254/",
    profile: {
      Response: {
        bungieNetUser: {
          membershipId: "4611686018467284386",
          displayName: "Guardian",
          profilePicturePath: "/img/profile/avatars/default_avatar.gif",
        },
        destinyMemberships: [],
      },
      ErrorCode: 1,
      ErrorStatus: "Success",
    },
    clientAuth: "basic",
    user: {
      name: "Guardian",
      email: null,
      image: "https://www.bungie.net/img/profile/avatars/default_avatar.gif",
    },
    check: ({ profile }) => expect(profile.headers.get("x-api-key")).toBe("bungie-api-key"),
  },
  {
    title: "ClickUp takes a token response without token_type, state only",
    provider: () => ClickUp(withServer({})),
    providerId: "click-up",
    authorizationEndpoint: "https://app.clickup.com/api",
    params: { state: true, code_challenge: false, scope: false },
    tokenUrl: "https://api.clickup.com/api/v2/oauth/token",
    token: () => Response.json({ access_token: "provider-access-token" }),
    profileUrl: "https://api.clickup.com/api/v2/user",
    profile: {
      user: {
        id: 123,
        username: "Ada",
        email: "ada@example.com",
        color: "#40BC86",
        profilePicture: "https://attachments.clickup.com/profilePictures/123.jpg",
      },
    },
    clientAuth: "basic",
    // No e-mail or image in the profile: the session omits them, as Auth.js's does.
    user: { name: "Ada" },
  },
  {
    title: "Coinbase asks for the wallet user scopes and reads data",
    provider: () => Coinbase(withServer({})),
    providerId: "coinbase",
    authorizationEndpoint: "https://login.coinbase.com/oauth2/auth",
    params: { scope: "wallet:user:email wallet:user:read", code_challenge: true },
    tokenUrl: "https://login.coinbase.com/oauth2/token",
    profileUrl: "https://api.coinbase.com/v2/user",
    profile: {
      data: {
        id: "9da7a204-544e-5fd1-9a12-61176c5d4cd8",
        name: "User One",
        email: "user1@example.com",
        avatar_url: "https://images.coinbase.com/avatar?h=1",
        resource: "user",
      },
    },
    clientAuth: "basic",
    user: {
      name: "User One",
      email: "user1@example.com",
      image: "https://images.coinbase.com/avatar?h=1",
    },
  },
  {
    title: "Concept2 sends comma-separated scopes and reads data",
    provider: () => Concept2(withServer({})),
    providerId: "concept2",
    authorizationEndpoint: "https://log.concept2.com/oauth/authorize",
    params: { scope: "user:read,results:write" },
    tokenUrl: "https://log.concept2.com/oauth/access_token",
    profileUrl: "https://log.concept2.com/api/users/me",
    profile: {
      data: {
        id: 1,
        username: "david",
        email: "david@example.com",
        profile_image: "https://log.concept2.com/images/david.png",
      },
    },
    clientAuth: "basic",
    user: {
      name: "david",
      email: "david@example.com",
      image: "https://log.concept2.com/images/david.png",
    },
  },
  {
    title: "Dribbble sends the public scope unless told otherwise",
    provider: () => Dribbble(withServer({})),
    providerId: "dribbble",
    authorizationEndpoint: "https://dribbble.com/oauth/authorize",
    params: { scope: "public" },
    tokenUrl: "https://dribbble.com/oauth/token",
    profileUrl: "https://api.dribbble.com/v2/user",
    profile: {
      id: 1,
      name: "Dan Cederholm",
      login: "simplebits",
      email: "dan@example.com",
      avatar_url: "https://cdn.dribbble.com/users/1/avatar.png",
    },
    clientAuth: "basic",
    user: {
      name: "Dan Cederholm",
      email: "dan@example.com",
      image: "https://cdn.dribbble.com/users/1/avatar.png",
    },
  },
  {
    title: "Dribbble sends the scopes of its scope option",
    provider: () => Dribbble(withServer({ scope: "public upload" as const })),
    providerId: "dribbble",
    authorizationEndpoint: "https://dribbble.com/oauth/authorize",
    params: { scope: "public upload" },
    tokenUrl: "https://dribbble.com/oauth/token",
    profileUrl: "https://api.dribbble.com/v2/user",
    profile: { id: 2, name: "Ada", avatar_url: "https://cdn.dribbble.com/users/2/avatar.png" },
    clientAuth: "basic",
    user: { name: "Ada", email: null, image: "https://cdn.dribbble.com/users/2/avatar.png" },
  },
  {
    title: "Dropbox asks for offline access and reads the account with a bodiless POST",
    provider: () => Dropbox(withServer({})),
    providerId: "dropbox",
    authorizationEndpoint: "https://www.dropbox.com/oauth2/authorize",
    params: { token_access_type: "offline", scope: "account_info.read", code_challenge: true },
    tokenUrl: "https://api.dropboxapi.com/oauth2/token",
    profileUrl: "https://api.dropboxapi.com/2/users/get_current_account",
    profileMethod: "POST",
    profile: {
      account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      name: { given_name: "Franz", surname: "Ferdinand", display_name: "Franz Ferdinand" },
      email: "franz@dropbox.com",
      email_verified: true,
      profile_photo_url: "https://dl-web.dropbox.com/account_photo/get/franz",
    },
    clientAuth: "basic",
    user: {
      name: "Franz Ferdinand",
      email: "franz@dropbox.com",
      image: "https://dl-web.dropbox.com/account_photo/get/franz",
    },
    check: ({ profile }) => {
      expect(profile.body).toBe("");
      expect(profile.headers.has("content-type")).toBe(false);
    },
  },
];

describeSignIns(() => server, CASES);

describe("environment", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("Bungie, uncalled, takes its credentials and API key from AUTH_BUNGIE_ID, _SECRET and _KEY", async () => {
    Object.assign(process.env, {
      AUTH_BUNGIE_ID: "bungie-env-id",
      AUTH_BUNGIE_SECRET: "bungie-env-secret",
      AUTH_BUNGIE_KEY: "bungie-env-key",
    });
    const bungie = CASES.find((c) => c.providerId === "bungie") as SignInCase;
    const { authorizationUrl, token, profile, client } = await runSignIn(server, {
      ...bungie,
      provider:
        () =>
        (options: Record<string, unknown> = {}) =>
          Bungie({ ...options, [customFetch]: server.fetch }),
    });
    expect(authorizationUrl.searchParams.get("client_id")).toBe("bungie-env-id");
    expect(token.headers.get("authorization")).toBe(
      `Basic ${btoa("bungie-env-id:bungie-env-secret")}`,
    );
    expect(profile.headers.get("x-api-key")).toBe("bungie-env-key");
    expect((await client.session())?.user).toEqual(bungie.user);
  });

  it("42 School, uncalled, reads AUTH_42_SCHOOL_ID and AUTH_42_SCHOOL_SECRET", async () => {
    Object.assign(process.env, {
      AUTH_42_SCHOOL_ID: "school-env-id",
      AUTH_42_SCHOOL_SECRET: "school-env-secret",
    });
    const school = CASES.find((c) => c.providerId === "42-school") as SignInCase;
    const { authorizationUrl, token } = await runSignIn(server, {
      ...school,
      provider:
        () =>
        (options: Record<string, unknown> = {}) =>
          FortyTwo({ ...options, [customFetch]: server.fetch }),
    });
    expect(authorizationUrl.searchParams.get("client_id")).toBe("school-env-id");
    expect(token.headers.get("authorization")).toBe(
      `Basic ${btoa("school-env-id:school-env-secret")}`,
    );
  });
});

describe("failures the providers report", () => {
  it("Bungie: a profile answer without the account (an API error envelope) fails the sign-in", async () => {
    const bungie = CASES.find((c) => c.providerId === "bungie") as SignInCase;
    const { client, response, log } = await runSignIn(server, {
      ...bungie,
      profile: { ErrorCode: 2101, ErrorStatus: "ApiInvalidOrExpiredKey", Message: "Bad key" },
    });
    expect(log.errors.at(-1)?.name).toBe("OAuthProfileParseError");
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(await client.session()).toBeNull();
  });

  it("Azure DevOps: a refused assertion fails the sign-in", async () => {
    const devops = CASES.find((c) => c.providerId === "azure-devops") as SignInCase;
    const { client, response } = await runSignIn(server, {
      ...devops,
      token: () => Response.json({ Error: "InvalidAssertion" }, { status: 400 }),
    });
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(await client.session()).toBeNull();
  });
});
