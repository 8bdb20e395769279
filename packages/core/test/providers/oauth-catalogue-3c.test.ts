/**
 * Sign-in through `Auth()` with the providers of catalogue group 3c (Threads to Zoom), each
 * against a local server that answers like the provider's documented API, quirks included:
 * Threads' token response without `token_type`, Trakt's API headers, WeChat's `appid`/`secret`
 * GET exchange, `text/plain` answers and `openid`, WorkOS's profile in the token response.
 */
import Threads from "@tessera/core/providers/threads";
import Todoist from "@tessera/core/providers/todoist";
import Trakt from "@tessera/core/providers/trakt";
import Webex from "@tessera/core/providers/webex";
import WeChat from "@tessera/core/providers/wechat";
import Wikimedia from "@tessera/core/providers/wikimedia";
import WordPress from "@tessera/core/providers/wordpress";
import WorkOS from "@tessera/core/providers/workos";
import Zoho from "@tessera/core/providers/zoho";
import Zoom from "@tessera/core/providers/zoom";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  describeSignIns,
  expectCredentialsInBody,
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
afterEach(() => {
  vi.unstubAllEnvs();
});

/** Options of a called provider: credentials and the local server. */
function withServer<O extends Record<string, unknown>>(options: O) {
  return serverOptions(server, options);
}

const WEBEX_USER = {
  id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRk",
  emails: ["john.andersen@example.com"],
  displayName: "John Andersen",
  avatar: "https://avatar-prod-us-east-2.webexcontent.com/john~1600",
  orgId: "Y2lzY29zcGFyazovL3VzL09SR0FOSVpBVElPTi85NmFi",
};

const WIKIMEDIA_PROFILE = {
  sub: 12345678,
  username: "Jane Doe",
  editcount: 4321,
  confirmed_email: true,
  blocked: false,
  registered: "20150712083156",
  groups: ["*", "user", "autoconfirmed"],
  rights: ["read", "edit"],
  grants: ["mwoauth-authonlyprivate"],
  realname: "Jane Doe",
  email: "jane@example.org",
};

const CASES: SignInCase[] = [
  {
    title:
      "Threads asks for threads_basic with state only, posts the credentials, takes a token response without token_type and reads the Graph profile",
    provider: () => Threads(withServer({})),
    providerId: "threads",
    authorizationEndpoint: "https://threads.net/oauth/authorize",
    params: { scope: "threads_basic", state: true, code_challenge: false },
    tokenUrl: "https://graph.threads.net/oauth/access_token",
    // Threads' short-lived token answer: no token_type, no expires_in.
    token: () => Response.json({ access_token: "provider-access-token", user_id: 1234567 }),
    profileUrl: "https://graph.threads.net/v1.0/me",
    profile: {
      id: "1234567",
      username: "threadsapitestuser",
      threads_profile_picture_url: "https://scontent.cdninstagram.com/v/t51/1234567.jpg",
    },
    clientAuth: "custom",
    user: {
      name: "threadsapitestuser",
      email: null,
      image: "https://scontent.cdninstagram.com/v/t51/1234567.jpg",
    },
    check: ({ token, profile }) => {
      expectCredentialsInBody(token);
      expect(profile.url.searchParams.get("fields")).toBe(
        "id,username,threads_profile_picture_url",
      );
    },
  },
  {
    title:
      "Todoist asks for data:read with state and PKCE, posts the credentials and reads the user of API v1",
    provider: () => Todoist(withServer({})),
    providerId: "todoist",
    authorizationEndpoint: "https://todoist.com/oauth/authorize",
    params: { scope: "data:read", state: true, code_challenge: true },
    tokenUrl: "https://todoist.com/oauth/access_token",
    token: () => Response.json({ access_token: "provider-access-token", token_type: "Bearer" }),
    profileUrl: "https://api.todoist.com/api/v1/user",
    profile: {
      id: "2671355",
      email: "jane@example.com",
      full_name: "Jane Doe",
      avatar_big: "https://dcff1xvirvpfp.cloudfront.net/kr6_big.jpg",
      is_premium: true,
      inbox_project_id: "6Jf8VQXxpwv56VQ7",
    },
    clientAuth: "custom",
    user: {
      name: "Jane Doe",
      email: "jane@example.com",
      image: "https://dcff1xvirvpfp.cloudfront.net/kr6_big.jpg",
    },
    check: ({ token }) => expectCredentialsInBody(token),
  },
  {
    title:
      "Trakt sends an empty scope and the trakt-api-version and trakt-api-key headers with the profile request",
    provider: () => Trakt(withServer({})),
    providerId: "trakt",
    authorizationEndpoint: "https://trakt.tv/oauth/authorize",
    params: { scope: "", code_challenge: true },
    tokenUrl: "https://api.trakt.tv/oauth/token",
    profileUrl: "https://api.trakt.tv/users/me",
    profileAuthorized: (request) =>
      request.headers.get("authorization") === "Bearer provider-access-token" &&
      request.headers.get("trakt-api-version") === "2" &&
      request.headers.get("trakt-api-key") === "client-1",
    profile: {
      username: "sean",
      private: false,
      name: "Sean Rudford",
      vip: true,
      vip_ep: false,
      ids: { slug: "sean" },
      joined_at: "2010-09-25T17:49:25.000Z",
      location: "SF",
      about: null,
      gender: null,
      age: null,
      images: { avatar: { full: "https://walter-r2.trakt.tv/images/users/sean.jpg" } },
    },
    clientAuth: "basic",
    user: {
      name: "Sean Rudford",
      email: null,
      image: "https://walter-r2.trakt.tv/images/users/sean.jpg",
    },
    check: ({ profile }) => expect(profile.url.searchParams.get("extended")).toBe("full"),
  },
  {
    title: "Webex asks for spark:kms spark:people_read and takes the first address of emails",
    provider: () => Webex(withServer({})),
    providerId: "webex",
    authorizationEndpoint: "https://webexapis.com/v1/authorize",
    params: { scope: "spark:kms spark:people_read", code_challenge: true },
    tokenUrl: "https://webexapis.com/v1/access_token",
    profileUrl: "https://webexapis.com/v1/people/me",
    profile: { ...WEBEX_USER, emails: ["john.andersen@example.com", "john@example.org"] },
    clientAuth: "basic",
    user: { name: "John Andersen", email: "john.andersen@example.com", image: WEBEX_USER.avatar },
  },
  {
    title: "Webex with apiBaseUrl sends every request to that base",
    provider: () => Webex(withServer({ apiBaseUrl: "https://api-usgov.webex.com/v1" })),
    providerId: "webex",
    authorizationEndpoint: "https://api-usgov.webex.com/v1/authorize",
    params: { scope: "spark:kms spark:people_read" },
    tokenUrl: "https://api-usgov.webex.com/v1/access_token",
    profileUrl: "https://api-usgov.webex.com/v1/people/me",
    profile: WEBEX_USER,
    clientAuth: "basic",
    user: { name: "John Andersen", email: "john.andersen@example.com", image: WEBEX_USER.avatar },
  },
  {
    title: "Wikimedia sends an empty scope and names the user by username, without an image",
    provider: () => Wikimedia(withServer({})),
    providerId: "wikimedia",
    authorizationEndpoint: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
    params: { scope: "", code_challenge: true },
    tokenUrl: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
    profileUrl: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
    profile: WIKIMEDIA_PROFILE,
    clientAuth: "basic",
    user: { name: "Jane Doe", email: "jane@example.org", image: null },
  },
  {
    title:
      "Wikimedia keeps an address the wiki has not confirmed, for display only (no sign-in or linking through it)",
    provider: () => Wikimedia(withServer({})),
    providerId: "wikimedia",
    authorizationEndpoint: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
    params: {},
    tokenUrl: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
    profileUrl: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
    profile: { ...WIKIMEDIA_PROFILE, confirmed_email: false, email: "someone@example.org" },
    clientAuth: "basic",
    user: { name: "Jane Doe", email: "someone@example.org", image: null },
  },
  {
    title: "WordPress.com asks for the auth scope and reads /rest/v1/me",
    provider: () => WordPress(withServer({})),
    providerId: "wordpress",
    authorizationEndpoint: "https://public-api.wordpress.com/oauth2/authorize",
    params: { scope: "auth", code_challenge: true },
    tokenUrl: "https://public-api.wordpress.com/oauth2/token",
    token: () =>
      tokenResponse({ blog_id: "0", blog_url: null, scope: "auth", expires_in: undefined }),
    profileUrl: "https://public-api.wordpress.com/rest/v1/me",
    profile: {
      ID: 1234567,
      display_name: "Jane Doe",
      username: "janedoe",
      email: "jane@example.com",
      email_verified: true,
      primary_blog: 9876543,
      avatar_URL: "https://0.gravatar.com/avatar/1c3e6b6b5d6b3f3d?s=96&d=identicon",
    },
    clientAuth: "basic",
    user: {
      name: "Jane Doe",
      email: "jane@example.com",
      image: "https://0.gravatar.com/avatar/1c3e6b6b5d6b3f3d?s=96&d=identicon",
    },
  },
  {
    title: "Zoho asks for AaaServer.profile.Read and joins first and last names",
    provider: () => Zoho(withServer({})),
    providerId: "zoho",
    authorizationEndpoint: "https://accounts.zoho.com/oauth/v2/auth",
    params: { scope: "AaaServer.profile.Read", code_challenge: true },
    tokenUrl: "https://accounts.zoho.com/oauth/v2/token",
    token: () =>
      tokenResponse({ api_domain: "https://www.zohoapis.com", refresh_token: "1000.refresh" }),
    profileUrl: "https://accounts.zoho.com/oauth/user/info",
    profile: {
      First_Name: "Jane",
      Email: "jane@example.com",
      Last_Name: "Doe",
      Display_Name: "jane.doe",
      ZUID: 60012345678,
    },
    clientAuth: "basic",
    user: { name: "Jane Doe", email: "jane@example.com", image: null },
  },
  {
    title: "Zoom sends an empty scope and reads /v2/users/me",
    provider: () => Zoom(withServer({})),
    providerId: "zoom",
    authorizationEndpoint: "https://zoom.us/oauth/authorize",
    params: { scope: "", code_challenge: true },
    tokenUrl: "https://zoom.us/oauth/token",
    token: () => tokenResponse({ refresh_token: "eyJhbGciOiJIUzUxMiJ9.refresh", scope: "" }),
    profileUrl: "https://api.zoom.us/v2/users/me",
    profile: {
      id: "KDcuGIm1QgePTO8WbOqwIQ",
      first_name: "Jill",
      last_name: "Chill",
      email: "jchill@example.com",
      type: 1,
      pic_url: "https://lh4.googleusercontent.com/-1jL6kqS1aMA/photo.jpg",
      account_id: "gVcjZnYYRLDbb_MfgHuaxg",
      status: "active",
    },
    clientAuth: "basic",
    user: {
      name: "Jill Chill",
      email: "jchill@example.com",
      image: "https://lh4.googleusercontent.com/-1jL6kqS1aMA/photo.jpg",
    },
  },
];

describeSignIns(() => server, CASES);

describe("wechat", () => {
  const TOKEN_URL = "https://api.weixin.qq.com/sns/oauth2/access_token";
  const PROFILE_URL = "https://api.weixin.qq.com/sns/userinfo";
  const PROFILE = {
    openid: "o6_bmjrPTlm6_2sgVt7hMZOPfL2M",
    nickname: "张三",
    sex: 1,
    province: "广东",
    city: "广州",
    country: "中国",
    headimgurl: "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFq/46",
    privilege: [],
    unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
  };

  /** WeChat's answers: JSON served as text/plain. */
  function weChatText(body: unknown): Response {
    return new Response(JSON.stringify(body), {
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }

  /** Serves WeChat's GET token exchange and its userinfo (the token goes in the query). */
  function serveWeChat(token: unknown, profile: unknown = PROFILE) {
    server.on(`GET ${TOKEN_URL}`, () => weChatText(token));
    server.on(`GET ${PROFILE_URL}`, (request) =>
      request.url.searchParams.get("access_token") === "provider-access-token"
        ? weChatText(profile)
        : weChatText({ errcode: 40001, errmsg: "invalid credential" }),
    );
  }

  const TOKEN = {
    access_token: "provider-access-token",
    expires_in: 7200,
    refresh_token: "wechat-refresh-token",
    openid: PROFILE.openid,
    scope: "snsapi_userinfo",
    unionid: PROFILE.unionid,
  };

  /** A sign-in case whose token and profile routes the test serves itself (WeChat's are GETs). */
  function weChatCase(provider: SignInCase["provider"]): SignInCase {
    return {
      title: "WeChat",
      provider,
      providerId: "wechat",
      authorizationEndpoint: "",
      params: {},
      tokenUrl: TOKEN_URL,
      profileUrl: PROFILE_URL,
      // A POST to either URL is not WeChat's API: it answers like WeChat does to a bad request.
      token: () => weChatText({ errcode: 40029, errmsg: "invalid code (POST)" }),
      profileMethod: "POST",
      profile: { errcode: 40003, errmsg: "invalid openid (POST)" },
      clientAuth: "custom",
      user: {},
    };
  }

  it("Official Account: sends appid and snsapi_userinfo to oauth2/authorize#wechat_redirect, exchanges the code by GET with appid and secret, and asks userinfo with the openid", async () => {
    serveWeChat(TOKEN);
    const { client, authorizationUrl, response } = await runSignIn(
      server,
      weChatCase(() => WeChat(withServer({}))),
    );
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(
      "https://open.weixin.qq.com/connect/oauth2/authorize",
    );
    expect(authorizationUrl.hash).toBe("#wechat_redirect");
    expect(authorizationUrl.searchParams.get("appid")).toBe("client-1");
    expect(authorizationUrl.searchParams.get("scope")).toBe("snsapi_userinfo");
    expect(authorizationUrl.searchParams.get("response_type")).toBe("code");
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(
      `${ORIGIN}/auth/callback/wechat`,
    );
    expect(authorizationUrl.searchParams.get("state")).toBeTruthy();
    expect(authorizationUrl.searchParams.has("code_challenge")).toBe(false);

    const [token] = server.requestsTo(TOKEN_URL);
    expect(token?.method).toBe("GET");
    expect(Object.fromEntries(token?.url.searchParams ?? [])).toEqual({
      appid: "client-1",
      secret: "secret-1",
      code: "provider-code",
      grant_type: "authorization_code",
    });
    const [profile] = server.requestsTo(PROFILE_URL);
    expect(profile?.method).toBe("GET");
    expect(Object.fromEntries(profile?.url.searchParams ?? [])).toEqual({
      access_token: "provider-access-token",
      openid: PROFILE.openid,
      lang: "zh_CN",
    });

    expect(locationOf(response).pathname).not.toMatch(/error/);
    expect((await client.session())?.user).toEqual({
      name: "张三",
      email: null,
      image: PROFILE.headimgurl,
    });
  });

  it("Website app: QR-code login at connect/qrconnect with snsapi_login", async () => {
    serveWeChat({ ...TOKEN, scope: "snsapi_login" });
    const { client, authorizationUrl } = await runSignIn(
      server,
      weChatCase(() => WeChat(withServer({ platformType: "WebsiteApp" as const }))),
    );
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(
      "https://open.weixin.qq.com/connect/qrconnect",
    );
    expect(authorizationUrl.hash).toBe("#wechat_redirect");
    expect(authorizationUrl.searchParams.get("scope")).toBe("snsapi_login");
    expect(authorizationUrl.searchParams.get("appid")).toBe("client-1");
    expect((await client.session())?.user).toMatchObject({ name: "张三" });
  });

  it("exchanges the code with the secret the environment gives at sign-in (AUTH_WECHAT_SECRET)", async () => {
    vi.stubEnv("AUTH_WECHAT_SECRET", "env-secret");
    serveWeChat(TOKEN);
    const { clientSecret: _unused, ...options } = withServer({});
    const { client } = await runSignIn(
      server,
      weChatCase(() => WeChat(options)),
    );
    expect(server.requestsTo(TOKEN_URL)[0]?.url.searchParams.get("secret")).toBe("env-secret");
    expect((await client.session())?.user).toMatchObject({ name: "张三" });
  });

  it("fails the sign-in with WeChat's errcode when the code exchange is refused with HTTP 200", async () => {
    serveWeChat({ errcode: 40029, errmsg: "invalid code, rid: 6543" });
    const { client, response, log } = await runSignIn(
      server,
      weChatCase(() => WeChat(withServer({}))),
    );
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(log.errors.at(-1)?.message).toMatch(/errcode 40029 \(invalid code/);
    expect(server.requestsTo(PROFILE_URL)).toHaveLength(0);
    expect(await client.session()).toBeNull();
  });

  it("fails the sign-in when userinfo answers an errcode instead of a profile", async () => {
    serveWeChat(TOKEN, { errcode: 40003, errmsg: "invalid openid" });
    const { client, response, log } = await runSignIn(
      server,
      weChatCase(() => WeChat(withServer({}))),
    );
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(log.errors.at(-1)?.message).toMatch(/errcode 40003/);
    expect(await client.session()).toBeNull();
  });

  it("fails the sign-in when the token response names no openid (userinfo cannot be asked)", async () => {
    const { openid: _openid, ...withoutOpenid } = TOKEN;
    serveWeChat(withoutOpenid);
    const { client, response, log } = await runSignIn(
      server,
      weChatCase(() => WeChat(withServer({}))),
    );
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(log.errors.at(-1)?.message).toMatch(/openid/);
    expect(server.requestsTo(PROFILE_URL)).toHaveLength(0);
    expect(await client.session()).toBeNull();
  });

  it("refuses a profile without unionid (an app not bound to the Open Platform), saying so", async () => {
    const { unionid: _unionid, ...withoutUnionid } = PROFILE;
    serveWeChat(TOKEN, withoutUnionid);
    const { client, response, log } = await runSignIn(
      server,
      weChatCase(() => WeChat(withServer({}))),
    );
    // A profile the provider cannot map is the app's configuration to fix, as in Auth.js.
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(log.errors.at(-1)?.message).toMatch(/unionid/);
    expect(await client.session()).toBeNull();
  });
});

describe("workos", () => {
  const TOKEN_URL = "https://api.workos.com/sso/token";
  const PROFILE_URL = "https://api.workos.com/sso/profile";
  const PROFILE = {
    object: "profile",
    id: "prof_01DMC79VCBZ0NY2099737PSVF1",
    organization_id: "org_01EHQMYV6MBK39QC5PZXHY59C3",
    connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5",
    connection_type: "OktaSAML",
    idp_id: "00u1a0ufowBJlzPlk357",
    email: "todd@example.com",
    first_name: "Todd",
    last_name: "Rundgren",
    raw_attributes: { picture: "https://example.com/todd.jpg" },
  };

  function workosCase(provider: SignInCase["provider"], token: () => Response): SignInCase {
    return {
      title: "WorkOS",
      provider,
      providerId: "workos",
      authorizationEndpoint: "https://api.workos.com/sso/authorize",
      params: {},
      tokenUrl: TOKEN_URL,
      token,
      profileUrl: PROFILE_URL,
      profile: { ...PROFILE, first_name: "From", last_name: "Profile" },
      clientAuth: "custom",
      user: {},
    };
  }

  it("sends the organization, posts the credentials and takes the profile from the token response (no token_type, no profile request)", async () => {
    const { client, authorizationUrl, response, token, profile } = await runSignIn(
      server,
      workosCase(
        () => WorkOS(withServer({ organization: "org_01EHQMYV6MBK39QC5PZXHY59C3" })),
        // WorkOS's answer: the access token and the profile, without token_type.
        () => Response.json({ access_token: "provider-access-token", profile: PROFILE }),
      ),
    );
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(
      "https://api.workos.com/sso/authorize",
    );
    expect(authorizationUrl.searchParams.get("organization")).toBe(
      "org_01EHQMYV6MBK39QC5PZXHY59C3",
    );
    expect(authorizationUrl.searchParams.has("connection")).toBe(false);
    expect(authorizationUrl.searchParams.has("scope")).toBe(false);
    expectCredentialsInBody(token);
    expect(profile).toBeUndefined();
    expect(locationOf(response).pathname).not.toMatch(/error/);
    expect((await client.session())?.user).toEqual({
      name: "Todd Rundgren",
      email: "todd@example.com",
      image: "https://example.com/todd.jpg",
    });
  });

  it("sends the connection, or the parameters signIn() gives, and reads /sso/profile when the token response has no profile", async () => {
    const { client, authorizationUrl, profile } = await runSignIn(
      server,
      workosCase(
        () => WorkOS(withServer({ connection: "conn_01E4ZCR3C56J083X43JQXF3JK5" })),
        () => tokenResponse(),
      ),
    );
    expect(authorizationUrl.searchParams.get("connection")).toBe("conn_01E4ZCR3C56J083X43JQXF3JK5");
    expect(profile?.headers.get("authorization")).toBe("Bearer provider-access-token");
    expect((await client.session())?.user).toMatchObject({ name: "From Profile" });
  });

  it("moves every endpoint to the issuer given", async () => {
    const { client, authorizationUrl } = await runSignIn(server, {
      ...workosCase(
        () => WorkOS(withServer({ issuer: "https://auth.example.com", connection: "conn_1" })),
        () => Response.json({ access_token: "provider-access-token", profile: PROFILE }),
      ),
      tokenUrl: "https://auth.example.com/sso/token",
    });
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(
      "https://auth.example.com/sso/authorize",
    );
    expect(server.requestsTo(TOKEN_URL)).toHaveLength(0);
    expect((await client.session())?.user).toMatchObject({ name: "Todd Rundgren" });
  });
});
