/**
 * The built-in plain OAuth 2 providers against a local server answering like each provider's
 * documented token and profile endpoints: Discord, GitLab, Twitter/X, Facebook and Spotify.
 */
import { customFetch } from "@tessera/core";
import type { Provider } from "@tessera/core/providers";
import Discord, { discordAvatarUrl } from "@tessera/core/providers/discord";
import Facebook from "@tessera/core/providers/facebook";
import GitLab from "@tessera/core/providers/gitlab";
import Spotify from "@tessera/core/providers/spotify";
import Twitter from "@tessera/core/providers/twitter";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSignIn } from "../fixtures/oauth-flow.js";
import { answerAuthorization, providerConfig, tokenResponse } from "../fixtures/provider-flow.js";
import {
  type ProviderServer,
  type RecordedRequest,
  startProviderServer,
} from "../fixtures/provider-server.js";
import { Client } from "../helpers.js";

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
  tokenUrl: string;
  userinfoUrl: string;
  profile: unknown;
  token?: Record<string, unknown>;
}

async function run(scenario: Scenario) {
  server.on(`POST ${scenario.tokenUrl}`, () => tokenResponse(scenario.token));
  server.on(scenario.userinfoUrl, () => Response.json(scenario.profile));
  const { config, log } = providerConfig(scenario.provider);
  const client = new Client(config);
  const authorizationUrl = await startSignIn(client, scenario.providerId);
  await answerAuthorization(client, authorizationUrl);
  const [token] = server.requestsTo(scenario.tokenUrl);
  const [userinfo] = server.requestsTo(scenario.userinfoUrl);
  return {
    authorizationUrl,
    token: token as RecordedRequest,
    userinfo: userinfo as RecordedRequest,
    session: await client.session(),
    log,
  };
}

const endpointOf = (url: URL) => `${url.origin}${url.pathname}`;

describe("Discord", () => {
  const user = {
    id: "80351110224678912",
    username: "nelly",
    discriminator: "0",
    global_name: "Nelly",
    avatar: "a_8342729096ea3675442027381ff50dfe",
    verified: true,
    email: "nelly@discord.com",
  };

  it("signs in with identify+email and the animated avatar", async () => {
    const { authorizationUrl, userinfo, session } = await run({
      provider: Discord(credentials()),
      providerId: "discord",
      tokenUrl: "https://discord.com/api/oauth2/token",
      userinfoUrl: "https://discord.com/api/users/@me",
      profile: user,
    });
    expect(endpointOf(authorizationUrl)).toBe("https://discord.com/oauth2/authorize");
    expect(authorizationUrl.searchParams.get("scope")).toBe("identify email");
    expect(userinfo.headers.get("authorization")).toBe("Bearer provider-access-token");
    expect(session?.user).toEqual({
      name: "Nelly",
      email: "nelly@discord.com",
      image: `https://cdn.discordapp.com/avatars/${user.id}/${user.avatar}.gif`,
    });
  });

  it("keeps an e-mail address Discord has not verified, and says it is unverified", async () => {
    const { session } = await run({
      provider: Discord(credentials()),
      providerId: "discord",
      tokenUrl: "https://discord.com/api/oauth2/token",
      userinfoUrl: "https://discord.com/api/users/@me",
      profile: { ...user, verified: false },
    });
    // Shown as the user's address (schemas may require one), but never proof of it.
    expect(session?.user).toMatchObject({ email: "nelly@discord.com" });
    const discord = Discord(credentials());
    expect(discord.emailVerified?.({ ...user, verified: false })).toBe(false);
    expect(discord.emailVerified?.({ ...user, verified: true })).toBe(true);
    expect(discord.emailVerified?.({ ...user, verified: undefined })).toBeUndefined();
  });

  it("computes default avatars for new and legacy usernames", () => {
    const base = { ...user, avatar: null };
    // New usernames: (id >> 22) % 6.
    expect(discordAvatarUrl(base)).toBe(
      `https://cdn.discordapp.com/embed/avatars/${Number((80351110224678912n >> 22n) % 6n)}.png`,
    );
    expect(discordAvatarUrl({ ...base, discriminator: "1337" })).toBe(
      "https://cdn.discordapp.com/embed/avatars/2.png",
    );
    expect(discordAvatarUrl({ ...user, avatar: "8342729096ea3675442027381ff50dfe" })).toMatch(
      /\.png$/,
    );
  });
});

describe("GitLab", () => {
  it("signs in on gitlab.com with read_user", async () => {
    const { authorizationUrl, token, session } = await run({
      provider: GitLab(credentials()),
      providerId: "gitlab",
      tokenUrl: "https://gitlab.com/oauth/token",
      userinfoUrl: "https://gitlab.com/api/v4/user",
      profile: {
        id: 1,
        username: "john_smith",
        name: "John Smith",
        avatar_url: "https://gitlab.com/a.png",
        email: "john@example.com",
      },
    });
    expect(endpointOf(authorizationUrl)).toBe("https://gitlab.com/oauth/authorize");
    expect(authorizationUrl.searchParams.get("scope")).toBe("read_user");
    expect(token.form.get("code_verifier")).toBeTruthy();
    expect(session?.user).toEqual({
      name: "John Smith",
      email: "john@example.com",
      image: "https://gitlab.com/a.png",
    });
  });

  it("signs in on a self-managed instance", async () => {
    const { authorizationUrl, session } = await run({
      provider: GitLab({ ...credentials(), baseUrl: "https://gitlab.example.com/" }),
      providerId: "gitlab",
      tokenUrl: "https://gitlab.example.com/oauth/token",
      userinfoUrl: "https://gitlab.example.com/api/v4/user",
      profile: { id: 7, username: "ada", name: null, avatar_url: null, email: "ada@example.com" },
    });
    expect(authorizationUrl.origin).toBe("https://gitlab.example.com");
    expect(session?.user).toEqual({ name: "ada", email: "ada@example.com", image: null });
  });
});

describe("Twitter / X", () => {
  it("uses PKCE and state, Basic client authentication and the v2 users/me shape", async () => {
    const { authorizationUrl, token, userinfo, session } = await run({
      provider: Twitter(credentials()),
      providerId: "twitter",
      tokenUrl: "https://api.x.com/2/oauth2/token",
      userinfoUrl: "https://api.x.com/2/users/me",
      profile: {
        data: {
          id: "2244994945",
          name: "X Dev",
          username: "XDevelopers",
          profile_image_url: "https://pbs.twimg.com/p.jpg",
        },
      },
    });
    expect(endpointOf(authorizationUrl)).toBe("https://x.com/i/oauth2/authorize");
    expect(authorizationUrl.searchParams.get("scope")).toBe("users.read tweet.read offline.access");
    expect(authorizationUrl.searchParams.get("state")).toBeTruthy();
    expect(authorizationUrl.searchParams.get("code_challenge")).toBeTruthy();
    expect(token.headers.get("authorization")).toBe(`Basic ${btoa("client-1:secret-1")}`);
    expect(userinfo.url.searchParams.get("user.fields")).toBe("profile_image_url");
    expect(session?.user).toEqual({
      name: "X Dev",
      email: null,
      image: "https://pbs.twimg.com/p.jpg",
    });
  });
});

describe("Facebook", () => {
  it("sends the client credentials as parameters and reads the Graph picture", async () => {
    const { authorizationUrl, token, userinfo, session } = await run({
      provider: Facebook(credentials()),
      providerId: "facebook",
      tokenUrl: "https://graph.facebook.com/v21.0/oauth/access_token",
      userinfoUrl: "https://graph.facebook.com/v21.0/me",
      profile: {
        id: "10158",
        name: "Ada",
        email: "ada@example.com",
        picture: { data: { url: "https://platform-lookaside.fbsbx.com/p", height: 50, width: 50 } },
      },
      token: { token_type: "bearer" },
    });
    expect(endpointOf(authorizationUrl)).toBe("https://www.facebook.com/v21.0/dialog/oauth");
    expect(authorizationUrl.searchParams.get("scope")).toBe("email");
    expect(token.form.get("client_secret")).toBe("secret-1");
    expect(userinfo.url.searchParams.get("fields")).toBe("id,name,email,picture");
    expect(session?.user).toEqual({
      name: "Ada",
      email: "ada@example.com",
      image: "https://platform-lookaside.fbsbx.com/p",
    });
  });
});

describe("Spotify", () => {
  it("maps display_name and the first image", async () => {
    const { authorizationUrl, session } = await run({
      provider: Spotify(credentials()),
      providerId: "spotify",
      tokenUrl: "https://accounts.spotify.com/api/token",
      userinfoUrl: "https://api.spotify.com/v1/me",
      profile: {
        id: "smedjan",
        display_name: "Smedjan",
        email: "smedjan@example.com",
        images: [{ url: "https://i.scdn.co/image/big", height: 300, width: 300 }],
      },
    });
    expect(endpointOf(authorizationUrl)).toBe("https://accounts.spotify.com/authorize");
    expect(authorizationUrl.searchParams.get("scope")).toBe("user-read-email");
    expect(session?.user).toEqual({
      name: "Smedjan",
      email: "smedjan@example.com",
      image: "https://i.scdn.co/image/big",
    });
  });
});
