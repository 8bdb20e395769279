/**
 * TikTok, VK and Yandex against a local server answering like their documented endpoints, with
 * the profile shapes their APIs document: TikTok's client key and `fields`, VK's numeric id, API version
 * and e-mail from the token response, Yandex's `OAuth` scheme and avatar sizes.
 */
import { customFetch } from "@tessera/core";
import TikTok from "@tessera/core/providers/tiktok";
import VK from "@tessera/core/providers/vk";
import Yandex, { yandexAvatarUrl } from "@tessera/core/providers/yandex";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { locationOf, startSignIn } from "../fixtures/oauth-flow.js";
import { answerAuthorization, providerConfig, tokenResponse } from "../fixtures/provider-flow.js";
import { type ProviderServer, startProviderServer } from "../fixtures/provider-server.js";
import { Client, ORIGIN } from "../helpers.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server?.close());
beforeEach(() => server.reset());

const credentials = () => ({
  clientId: "client-key-1",
  clientSecret: "secret-1",
  [customFetch]: server.fetch,
});
const endpointOf = (url: URL) => `${url.origin}${url.pathname}`;

describe("TikTok", () => {
  const TOKEN_URL = "https://open.tiktokapis.com/v2/oauth/token/";
  const INFO_URL = "https://open.tiktokapis.com/v2/user/info/";
  const user = {
    open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
    union_id: "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1",
    avatar_url: "https://p19-sign.tiktokcdn-us.com/a.jpeg",
    display_name: "TikTok Dev",
    username: "tiktokdev",
  };

  function serveTikTok(
    info: unknown = { data: { user }, error: { code: "ok", message: "", log_id: "1" } },
  ) {
    server.on(`POST ${TOKEN_URL}`, () =>
      tokenResponse({
        open_id: user.open_id,
        scope: "user.info.basic",
        refresh_expires_in: 31536000,
      }),
    );
    server.on(`GET ${INFO_URL}`, () => Response.json(info));
  }

  it("sends the client key, asks for the configured fields, and has no e-mail", async () => {
    serveTikTok();
    const { config } = providerConfig(
      TikTok({ ...credentials(), fields: ["open_id", "avatar_url", "display_name", "username"] }),
    );
    const client = new Client(config);
    const authorizationUrl = await startSignIn(client, "tiktok");
    expect(endpointOf(authorizationUrl)).toBe("https://www.tiktok.com/v2/auth/authorize/");
    expect(authorizationUrl.searchParams.get("client_key")).toBe("client-key-1");
    expect(authorizationUrl.searchParams.get("scope")).toBe("user.info.basic");
    expect(authorizationUrl.searchParams.get("state")).toBeTruthy();
    await answerAuthorization(client, authorizationUrl);

    const [token] = server.requestsTo(TOKEN_URL);
    expect(token?.headers.get("content-type")).toMatch(/application\/x-www-form-urlencoded/);
    expect(token?.form.get("client_key")).toBe("client-key-1");
    expect(token?.form.get("client_secret")).toBe("secret-1");
    expect(token?.form.get("grant_type")).toBe("authorization_code");
    const [info] = server.requestsTo(INFO_URL);
    expect(info?.url.searchParams.get("fields")).toBe("open_id,avatar_url,display_name,username");
    expect(info?.headers.get("authorization")).toBe("Bearer provider-access-token");
    expect((await client.session())?.user).toEqual({
      name: "TikTok Dev",
      email: null,
      image: user.avatar_url,
    });
  });

  it("asks for the basic fields by default", async () => {
    serveTikTok();
    const { config } = providerConfig(TikTok(credentials()));
    const client = new Client(config);
    await answerAuthorization(client, await startSignIn(client, "tiktok"));
    const [info] = server.requestsTo(INFO_URL);
    expect(info?.url.searchParams.get("fields")).toBe("open_id,avatar_url,display_name");
  });

  it("fails the sign-in when TikTok reports an error next to HTTP 200", async () => {
    serveTikTok({
      data: {},
      error: {
        code: "access_token_invalid",
        message: "The access token is invalid",
        log_id: "2025",
      },
    });
    const { config, log } = providerConfig(TikTok(credentials()));
    const client = new Client(config);
    const response = await answerAuthorization(client, await startSignIn(client, "tiktok"));
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(log.errors.at(-1)?.message).toMatch(/access_token_invalid/);
  });
});

describe("VK", () => {
  const vkUser = {
    id: 210700286,
    first_name: "Lindsey",
    last_name: "Stirling",
    photo_100: "https://sun1-99.userapi.com/s/photo100.jpg",
    can_access_closed: true,
    is_closed: false,
  };

  function serveVK() {
    // VK's token response has no token_type, a user_id and the e-mail.
    server.on("POST https://oauth.vk.com/access_token", () =>
      Response.json({
        access_token: "vk-token",
        expires_in: 86400,
        user_id: 210700286,
        email: "Lindsey@Example.com",
      }),
    );
    server.on("POST https://api.vk.com/method/users.get", () =>
      Response.json({ response: [vkUser] }),
    );
  }

  it("signs in with the numeric id, the token's e-mail and the default API version", async () => {
    serveVK();
    const store = createMemoryStore();
    const { config } = providerConfig(VK(credentials()), { adapter: MemoryAdapter(store) });
    const client = new Client(config);
    const authorizationUrl = await startSignIn(client, "vk");
    expect(endpointOf(authorizationUrl)).toBe("https://oauth.vk.com/authorize");
    expect(authorizationUrl.searchParams.get("v")).toBe("5.126");
    expect(authorizationUrl.searchParams.get("scope")).toBe("email");
    await answerAuthorization(client, authorizationUrl);

    const [token] = server.requestsTo("https://oauth.vk.com/access_token");
    expect(token?.url.searchParams.get("v")).toBe("5.126");
    expect(token?.form.get("client_secret")).toBe("secret-1");
    const [profile] = server.requestsTo("https://api.vk.com/method/users.get");
    expect(profile?.url.searchParams.get("v")).toBe("5.126");
    expect(profile?.url.searchParams.get("fields")).toBe("photo_100");
    // The access token travels in the POST body, not in the URL.
    expect(profile?.form.get("access_token")).toBe("vk-token");
    expect(profile?.url.searchParams.has("access_token")).toBe(false);

    expect((await client.session())?.user).toEqual({
      name: "Lindsey Stirling",
      email: "lindsey@example.com",
      image: vkUser.photo_100,
    });
    expect([...store.accounts.values()][0]).toMatchObject({
      provider: "vk",
      providerAccountId: "210700286",
      token_type: "bearer",
    });
  });

  it("sends another API version everywhere when configured", async () => {
    serveVK();
    const { config } = providerConfig(VK({ ...credentials(), apiVersion: "5.199" }));
    const client = new Client(config);
    const authorizationUrl = await startSignIn(client, "vk");
    expect(authorizationUrl.searchParams.get("v")).toBe("5.199");
    await answerAuthorization(client, authorizationUrl);
    for (const url of ["https://oauth.vk.com/access_token", "https://api.vk.com/method/users.get"])
      expect(server.requestsTo(url)[0]?.url.searchParams.get("v")).toBe("5.199");
    expect((await client.session())?.user).toMatchObject({ name: "Lindsey Stirling" });
  });

  it("reports VK's error objects as OAuthCallbackError", async () => {
    serveVK();
    server.on("POST https://api.vk.com/method/users.get", () =>
      Response.json({ error: { error_code: 5, error_msg: "User authorization failed" } }),
    );
    const { config, log } = providerConfig(VK(credentials()));
    const client = new Client(config);
    const response = await answerAuthorization(client, await startSignIn(client, "vk"));
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(log.errors.at(-1)?.message).toMatch(/User authorization failed/);
  });
});

describe("Yandex", () => {
  const profile = {
    id: "1000034426",
    client_id: "4760187d81bc4b7799476b42b5103713",
    login: "ivan",
    psuid: "1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge",
    display_name: "Ivan",
    real_name: "Ivan Ivanov",
    default_email: "ivan@yandex.ru",
    emails: ["ivan@yandex.ru"],
    default_avatar_id: "131652443/kmsYEIOLDsBEWFuS1Gxn0ZM8-1",
    is_avatar_empty: false,
    birthday: "1987-03-12",
    sex: "male",
  };

  function serveYandex(info: unknown = profile) {
    server.on("POST https://oauth.yandex.ru/token", () => tokenResponse({ token_type: "bearer" }));
    server.on("GET https://login.yandex.ru/info", () => Response.json(info));
  }

  it("reads the profile with the OAuth scheme and builds the avatar URL", async () => {
    serveYandex();
    const { config } = providerConfig(Yandex(credentials()));
    const client = new Client(config);
    const authorizationUrl = await startSignIn(client, "yandex");
    expect(endpointOf(authorizationUrl)).toBe("https://oauth.yandex.ru/authorize");
    expect(authorizationUrl.searchParams.get("scope")).toBe("login:info login:email login:avatar");
    await answerAuthorization(client, authorizationUrl);
    const [info] = server.requestsTo("https://login.yandex.ru/info");
    expect(info?.headers.get("authorization")).toBe("OAuth provider-access-token");
    expect(info?.url.searchParams.get("format")).toBe("json");
    expect((await client.session())?.user).toEqual({
      name: "Ivan",
      email: "ivan@yandex.ru",
      image: `https://avatars.yandex.net/get-yapic/${profile.default_avatar_id}/islands-200`,
    });
  });

  it("uses the configured avatar size, and no image when the avatar is empty", async () => {
    serveYandex();
    const { config } = providerConfig(
      Yandex({ ...credentials(), avatarSize: "islands-retina-50" }),
    );
    const client = new Client(config);
    await answerAuthorization(client, await startSignIn(client, "yandex"));
    expect((await client.session())?.user).toMatchObject({
      image: yandexAvatarUrl(profile.default_avatar_id, "islands-retina-50"),
    });

    server.reset();
    serveYandex({
      ...profile,
      is_avatar_empty: true,
      default_email: undefined,
      display_name: undefined,
    });
    const other = new Client(config);
    await answerAuthorization(other, await startSignIn(other, "yandex"));
    expect((await other.session())?.user).toEqual({
      name: "Ivan Ivanov",
      email: "ivan@yandex.ru",
      image: null,
    });
  });
});
