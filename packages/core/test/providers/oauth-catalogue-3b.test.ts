/**
 * Sign-ins through `Auth()` with the OAuth 2 providers Naver to Strava, each against a local
 * server answering like the provider's documented API (fixtures/provider-server.ts), and the
 * failures their quirks bring: Notion's bot owned by a workspace, Nextcloud's OCS errors, a
 * NetSuite account id that is not one.
 */
import { customFetch } from "@tessera/core";
import Naver from "@tessera/core/providers/naver";
import NetSuite from "@tessera/core/providers/netsuite";
import Nextcloud from "@tessera/core/providers/nextcloud";
import Notion from "@tessera/core/providers/notion";
import Osso from "@tessera/core/providers/osso";
import Osu from "@tessera/core/providers/osu";
import Patreon from "@tessera/core/providers/patreon";
import Pinterest from "@tessera/core/providers/pinterest";
import Pipedrive from "@tessera/core/providers/pipedrive";
import Reddit from "@tessera/core/providers/reddit";
import Strava from "@tessera/core/providers/strava";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/lib/config/resolve.js";
import {
  describeSignIns,
  runSignIn,
  type SignInCase,
  serverOptions,
} from "../fixtures/catalogue-sign-in.js";
import { locationOf } from "../fixtures/oauth-flow.js";
import { tokenResponse } from "../fixtures/provider-flow.js";
import { type ProviderServer, startProviderServer } from "../fixtures/provider-server.js";
import { ORIGIN, SECRET } from "../helpers.js";

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

const BASIC = `Basic ${btoa("client-1:secret-1")}`;
const NETSUITE_RESTLET =
  "https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1";

/** The OCS envelope Nextcloud's provisioning API answers in. */
function ocs(data: unknown, status = "ok", statuscode = 100) {
  return { ocs: { meta: { status, statuscode, message: "OK" }, data } };
}

const NEXTCLOUD_USER = {
  enabled: true,
  id: "frank",
  email: "frank@cloud.example.com",
  displayname: "Frank K.",
  groups: ["admin"],
  language: "en",
};

/** `GET /v1/users/me` of a public integration installed by a user. */
const NOTION_BOT = {
  object: "user",
  id: "9188c6a5-7381-452f-b3dc-d4865aa89bdf",
  name: "Tessera sign-in",
  avatar_url: null,
  type: "bot",
  bot: {
    owner: {
      type: "user",
      user: {
        object: "user",
        id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6",
        name: "Avocado Lovelace",
        avatar_url: "https://s3-us-west-2.amazonaws.com/public.notion-static.com/avocado.jpg",
        type: "person",
        person: { email: "avo@example.org" },
      },
    },
    workspace_name: "Avocado's Notion",
  },
};

const CASES: SignInCase[] = [
  {
    title: "Naver sends no scope and reads the user under response",
    provider: () => Naver(withServer({})),
    providerId: "naver",
    authorizationEndpoint: "https://nid.naver.com/oauth2.0/authorize",
    params: { scope: false, state: false, code_challenge: true },
    tokenUrl: "https://nid.naver.com/oauth2.0/token",
    profileUrl: "https://openapi.naver.com/v1/nid/me",
    profile: {
      resultcode: "00",
      message: "success",
      response: {
        id: "32742776",
        nickname: "OpenAPI",
        email: "openapi@naver.com",
        profile_image: "https://ssl.pstatic.net/static/pwe/address/img_profile.png",
      },
    },
    clientAuth: "basic",
    user: {
      name: "OpenAPI",
      email: "openapi@naver.com",
      image: "https://ssl.pstatic.net/static/pwe/address/img_profile.png",
    },
  },
  {
    title:
      "NetSuite sends the account's requests to its account-specific hosts and reads the user from the RESTlet",
    provider: () =>
      NetSuite(withServer({ accountID: "TSTDRV1234567", userinfo: NETSUITE_RESTLET })),
    providerId: "netsuite",
    authorizationEndpoint: "https://tstdrv1234567.app.netsuite.com/app/login/oauth2/authorize.nl",
    params: { scope: "restlets rest_webservices", state: true, code_challenge: false },
    tokenUrl: "https://tstdrv1234567.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token",
    profileUrl: "https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl",
    profile: { id: 1234, name: "Larry Nelson", email: "larry@example.com", location: 1, role: 3 },
    clientAuth: "basic",
    user: { name: "Larry Nelson", email: "larry@example.com", image: null },
    check: ({ profile }) => {
      // The RESTlet is named by its query: it must arrive as configured.
      expect(profile.url.searchParams.get("script")).toBe("123");
      expect(profile.url.searchParams.get("deploy")).toBe("1");
    },
  },
  {
    title:
      "Nextcloud uses the instance's endpoints and reads the token's user from the OCS provisioning API",
    provider: () => Nextcloud(withServer({ issuer: "https://cloud.example.com/" })),
    providerId: "nextcloud",
    authorizationEndpoint: "https://cloud.example.com/apps/oauth2/authorize",
    params: { scope: false, code_challenge: true },
    tokenUrl: "https://cloud.example.com/apps/oauth2/api/v1/token",
    token: () => tokenResponse({ user_id: "frank" }),
    profileUrl: "https://cloud.example.com/ocs/v1.php/cloud/users/frank",
    profile: ocs(NEXTCLOUD_USER),
    clientAuth: "basic",
    user: {
      name: "Frank K.",
      email: "frank@cloud.example.com",
      image: "https://cloud.example.com/avatar/frank/512",
    },
    check: ({ profile }) => {
      expect(profile.headers.get("ocs-apirequest")).toBe("true");
      expect(profile.headers.get("accept")).toBe("application/json");
    },
  },
  {
    title:
      "Notion exchanges the code with Basic auth and signs in the owner of the integration's bot user",
    provider: () => Notion(withServer({})),
    providerId: "notion",
    authorizationEndpoint: "https://api.notion.com/v1/oauth/authorize",
    params: { owner: "user", response_type: "code", scope: false, code_challenge: true },
    tokenUrl: "https://api.notion.com/v1/oauth/token",
    token: () =>
      tokenResponse({
        token_type: "bearer",
        bot_id: NOTION_BOT.id,
        workspace_id: "f9f7c8d4-1e0b-4d2a-9b5a-2b1f0c3e4d5a",
        workspace_name: "Avocado's Notion",
        workspace_icon: null,
        owner: NOTION_BOT.bot.owner,
        duplicated_template_id: null,
      }),
    profileUrl: "https://api.notion.com/v1/users/me",
    profile: NOTION_BOT,
    clientAuth: "basic",
    user: {
      name: "Avocado Lovelace",
      email: "avo@example.org",
      image: "https://s3-us-west-2.amazonaws.com/public.notion-static.com/avocado.jpg",
    },
    check: ({ token, profile }) => {
      expect(token.headers.get("authorization")).toBe(BASIC);
      expect(token.form.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/notion`);
      expect(profile.headers.get("notion-version")).toBe("2022-06-28");
    },
  },
  {
    title: "Osso uses the instance's endpoints and identifies the user by Osso's id",
    provider: () => Osso(withServer({ issuer: "https://demo.ossoapp.com" })),
    providerId: "osso",
    authorizationEndpoint: "https://demo.ossoapp.com/oauth/authorize",
    params: { scope: false, code_challenge: true },
    tokenUrl: "https://demo.ossoapp.com/oauth/token",
    profileUrl: "https://demo.ossoapp.com/oauth/me",
    profile: {
      id: "2e1a4b4d-d5bd-4d5b-9e4d-1c2ff24d0e5f",
      email: "user@example.com",
      idp: "OKTA",
      requested: { domain: "example.com" },
    },
    clientAuth: "basic",
    user: { name: null, email: "user@example.com", image: null },
  },
  {
    title: "osu! asks for identify and names the user by username, without an e-mail",
    provider: () => Osu(withServer({})),
    providerId: "osu",
    authorizationEndpoint: "https://osu.ppy.sh/oauth/authorize",
    params: { scope: "identify", code_challenge: true },
    tokenUrl: "https://osu.ppy.sh/oauth/token",
    profileUrl: "https://osu.ppy.sh/api/v2/me",
    profile: {
      id: 2,
      username: "peppy",
      avatar_url: "https://a.ppy.sh/2?1519081077.png",
      country_code: "AU",
      is_bot: false,
    },
    clientAuth: "basic",
    user: { name: "peppy", email: null, image: "https://a.ppy.sh/2?1519081077.png" },
  },
  {
    title: "Patreon asks for identity and its e-mail and reads the JSON:API user's attributes",
    provider: () => Patreon(withServer({})),
    providerId: "patreon",
    authorizationEndpoint: "https://www.patreon.com/oauth2/authorize",
    params: { scope: "identity identity[email]", code_challenge: true },
    tokenUrl: "https://www.patreon.com/api/oauth2/token",
    profileUrl: "https://www.patreon.com/api/oauth2/api/current_user",
    profile: {
      data: {
        id: "12345689",
        type: "user",
        attributes: {
          full_name: "Corgi The Dev",
          email: "corgi@example.com",
          image_url: "https://c8.patreon.com/2/200/12345689",
        },
      },
    },
    clientAuth: "basic",
    user: {
      name: "Corgi The Dev",
      email: "corgi@example.com",
      image: "https://c8.patreon.com/2/200/12345689",
    },
  },
  {
    title: "Pinterest asks for user_accounts:read and names the user by username",
    provider: () => Pinterest(withServer({})),
    providerId: "pinterest",
    authorizationEndpoint: "https://www.pinterest.com/oauth",
    params: { scope: "user_accounts:read", code_challenge: true },
    tokenUrl: "https://api.pinterest.com/v5/oauth/token",
    profileUrl: "https://api.pinterest.com/v5/user_account",
    profile: {
      account_type: "PINNER",
      profile_image: "https://i.pinimg.com/280x280_RS/01/02/03/0102030405.jpg",
      website_url: "https://www.example.com",
      username: "pinterestdev",
    },
    clientAuth: "basic",
    user: {
      name: "pinterestdev",
      email: null,
      image: "https://i.pinimg.com/280x280_RS/01/02/03/0102030405.jpg",
    },
    check: ({ token }) => expect(token.headers.get("authorization")).toBe(BASIC),
  },
  {
    title: "Pipedrive sends no scope and reads the user under data",
    provider: () => Pipedrive(withServer({})),
    providerId: "pipedrive",
    authorizationEndpoint: "https://oauth.pipedrive.com/oauth/authorize",
    params: { scope: false, code_challenge: true },
    tokenUrl: "https://oauth.pipedrive.com/oauth/token",
    token: () =>
      tokenResponse({ scope: "base,users:read", api_domain: "https://casinoroyale.pipedrive.com" }),
    profileUrl: "https://api.pipedrive.com/users/me",
    profile: {
      success: true,
      data: {
        id: 777,
        name: "James Bond",
        email: "bond@example.com",
        icon_url: "https://d3myhnqlqw2314.cloudfront.net/profile_120x120_622732.jpg",
        company_id: 1,
      },
    },
    clientAuth: "basic",
    user: {
      name: "James Bond",
      email: "bond@example.com",
      image: "https://d3myhnqlqw2314.cloudfront.net/profile_120x120_622732.jpg",
    },
    check: ({ token }) => expect(token.headers.get("authorization")).toBe(BASIC),
  },
  {
    title:
      "Reddit asks for identity with state only, exchanges the code with Basic auth and sends its user agent",
    provider: () => Reddit(withServer({ userAgent: "web:com.example.app:v1.0.0 (by /u/tessera)" })),
    providerId: "reddit",
    authorizationEndpoint: "https://www.reddit.com/api/v1/authorize",
    params: { scope: "identity", state: true, code_challenge: false },
    tokenUrl: "https://www.reddit.com/api/v1/access_token",
    token: () => tokenResponse({ token_type: "bearer", scope: "identity" }),
    profileUrl: "https://oauth.reddit.com/api/v1/me",
    profile: {
      id: "1w72",
      name: "spez",
      icon_img: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon.png",
      has_verified_email: true,
    },
    clientAuth: "basic",
    user: { name: "spez", email: null, image: null },
    check: ({ token, profile }) => {
      expect(token.headers.get("authorization")).toBe(BASIC);
      expect(token.form.has("client_secret")).toBe(false);
      expect(profile.headers.get("user-agent")).toBe("web:com.example.app:v1.0.0 (by /u/tessera)");
    },
  },
  {
    title:
      "Strava asks for read with approval_prompt=auto and sends the client secret in the token request body",
    provider: () => Strava(withServer({})),
    providerId: "strava",
    authorizationEndpoint: "https://www.strava.com/api/v3/oauth/authorize",
    params: { scope: "read", approval_prompt: "auto", response_type: "code", code_challenge: true },
    tokenUrl: "https://www.strava.com/api/v3/oauth/token",
    token: () =>
      tokenResponse({
        token_type: "Bearer",
        expires_at: Math.floor(Date.now() / 1000) + 21600,
        refresh_token: "e5n567567",
        athlete: { id: 134815, resource_state: 2 },
      }),
    profileUrl: "https://www.strava.com/api/v3/athlete",
    profile: {
      id: 134815,
      resource_state: 3,
      firstname: "Marianne",
      lastname: "Teutenberg",
      profile: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/large.jpg",
    },
    clientAuth: "custom",
    user: {
      name: "Marianne Teutenberg",
      email: null,
      image: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/large.jpg",
    },
    check: ({ token }) => {
      expect(token.headers.get("authorization")).toBeNull();
      expect(token.form.get("client_id")).toBe("client-1");
      expect(token.form.get("client_secret")).toBe("secret-1");
      expect(token.form.get("code")).toBe("provider-code");
    },
  },
];

describeSignIns(() => server, CASES);

function caseOf(id: string): SignInCase {
  return CASES.find((c) => c.providerId === id) as SignInCase;
}

describe("options the providers take", () => {
  it("NetSuite: a sandbox account id with _ names the account's -sb1 hosts, and prompt and scope are sent", async () => {
    const { authorizationUrl, token } = await runSignIn(server, {
      ...caseOf("netsuite"),
      provider: () =>
        NetSuite(
          withServer({
            accountID: "1234567_SB1",
            userinfo: NETSUITE_RESTLET,
            prompt: "login consent",
            scope: "restlets",
          }),
        ),
      tokenUrl: "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token",
    });
    expect(authorizationUrl.host).toBe("1234567-sb1.app.netsuite.com");
    expect(authorizationUrl.searchParams.get("prompt")).toBe("login consent");
    expect(authorizationUrl.searchParams.get("scope")).toBe("restlets");
    expect(token).toBeDefined();
  });

  it("NetSuite: an account id that is not a host label is a configuration error (no redirect to another host)", () => {
    const { configError } = resolveConfig(
      {
        secret: SECRET,
        trustHost: true,
        providers: [
          (() =>
            NetSuite({
              accountID: "attacker.example/#",
              userinfo: NETSUITE_RESTLET,
            })) as never,
        ],
      },
      {},
    );
    expect(configError?.message).toMatch(
      /accountID "attacker\.example\/#" is not a NetSuite account id/,
    );
  });

  it("NetSuite: without accountID the provider has no endpoints, which the configuration check reports", () => {
    const { configError } = resolveConfig(
      { secret: SECRET, trustHost: true, providers: [NetSuite({ userinfo: NETSUITE_RESTLET })] },
      {},
    );
    expect(configError?.message).toMatch(/"netsuite" has no .* `authorization` endpoint/);
  });

  it("Reddit: without userAgent the profile request still names its client", async () => {
    const { profile } = await runSignIn(server, {
      ...caseOf("reddit"),
      provider: () => Reddit(withServer({})),
    });
    expect(profile.headers.get("user-agent")).toBe("tessera");
  });

  it("Notion: the redirectUri option of Auth.js configurations is accepted; the callback URL is sent", async () => {
    const { authorizationUrl } = await runSignIn(server, {
      ...caseOf("notion"),
      provider: () => Notion(withServer({ redirectUri: "https://elsewhere.example/callback" })),
    });
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(
      `${ORIGIN}/auth/callback/notion`,
    );
  });

  it("Nextcloud: a user id is percent-encoded into the profile request and the avatar URL", async () => {
    const { client, profile } = await runSignIn(server, {
      ...caseOf("nextcloud"),
      token: () => tokenResponse({ user_id: "jane doe/x" }),
      profileUrl: "https://cloud.example.com/ocs/v1.php/cloud/users/jane%20doe%2Fx",
      profile: ocs({ ...NEXTCLOUD_USER, id: "jane doe/x" }),
    });
    expect(profile).toBeDefined();
    expect((await client.session())?.user).toMatchObject({
      image: "https://cloud.example.com/avatar/jane%20doe%2Fx/512",
    });
  });
});

describe("environment", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("Nextcloud, uncalled, takes its instance from AUTH_NEXTCLOUD_ISSUER", async () => {
    Object.assign(process.env, {
      AUTH_NEXTCLOUD_ID: "nextcloud-env-id",
      AUTH_NEXTCLOUD_SECRET: "nextcloud-env-secret",
      AUTH_NEXTCLOUD_ISSUER: "https://cloud.example.com",
    });
    const { authorizationUrl, token, client } = await runSignIn(server, {
      ...caseOf("nextcloud"),
      provider:
        () =>
        (options: Record<string, unknown> = {}) =>
          Nextcloud({ ...options, [customFetch]: server.fetch }),
    });
    expect(authorizationUrl.searchParams.get("client_id")).toBe("nextcloud-env-id");
    expect(token.headers.get("authorization")).toBe(
      `Basic ${btoa("nextcloud-env-id:nextcloud-env-secret")}`,
    );
    expect((await client.session())?.user).toEqual(caseOf("nextcloud").user);
  });

  it("Osso, called without an issuer, takes its instance from AUTH_OSSO_ISSUER", async () => {
    process.env.AUTH_OSSO_ISSUER = "https://osso.example.com/";
    const { authorizationUrl, profile } = await runSignIn(server, {
      ...caseOf("osso"),
      provider: () => Osso(withServer({})),
      authorizationEndpoint: "https://osso.example.com/oauth/authorize",
      tokenUrl: "https://osso.example.com/oauth/token",
      profileUrl: "https://osso.example.com/oauth/me",
    });
    expect(authorizationUrl.host).toBe("osso.example.com");
    expect(profile).toBeDefined();
  });
});

describe("failures the providers report", () => {
  it("Notion: a bot owned by a workspace rather than a user fails the sign-in", async () => {
    const { client, response, log } = await runSignIn(server, {
      ...caseOf("notion"),
      profile: { ...NOTION_BOT, bot: { owner: { type: "workspace", workspace: true } } },
    });
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(String(log.errors.at(-1)?.message)).toMatch(/owned by a workspace/);
    expect(await client.session()).toBeNull();
  });

  it("Nextcloud: an OCS error answered with HTTP 200 (OCS v1) fails the sign-in", async () => {
    const { client, response, log } = await runSignIn(server, {
      ...caseOf("nextcloud"),
      profile: ocs([], "failure", 997),
    });
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(String(log.errors.at(-1)?.message)).toMatch(/status code 997/);
    expect(await client.session()).toBeNull();
  });

  it("Nextcloud: a token response without user_id fails the sign-in before any profile request", async () => {
    const { client, response, profile } = await runSignIn(server, {
      ...caseOf("nextcloud"),
      token: () => tokenResponse(),
    });
    expect(profile).toBeUndefined();
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(await client.session()).toBeNull();
  });
});
