/**
 * Provider conformance with Auth.js: each built-in provider is compared with the one of the same
 * id in `@auth/core` (a devDependency). A user switching from Auth.js must get at least the checks
 * Auth.js sends, the same RFC 9207 issuer, and the same user from the same profile — except where
 * docs/migrating-from-authjs.md lists a deliberate difference, which is asserted here explicitly.
 */

import { readFile } from "node:fs/promises";
import AuthApple from "@auth/core/providers/apple";
import AuthAuth0 from "@auth/core/providers/auth0";
import AuthDiscord from "@auth/core/providers/discord";
import AuthFacebook from "@auth/core/providers/facebook";
import AuthGitHub from "@auth/core/providers/github";
import AuthGitLab from "@auth/core/providers/gitlab";
import AuthGoogle from "@auth/core/providers/google";
import AuthKeycloak from "@auth/core/providers/keycloak";
import AuthLinkedIn from "@auth/core/providers/linkedin";
import AuthMicrosoftEntraID from "@auth/core/providers/microsoft-entra-id";
import AuthOkta from "@auth/core/providers/okta";
import AuthSlack from "@auth/core/providers/slack";
import AuthSpotify from "@auth/core/providers/spotify";
import AuthTikTok from "@auth/core/providers/tiktok";
import AuthTwitch from "@auth/core/providers/twitch";
import AuthTwitter from "@auth/core/providers/twitter";
import AuthVK from "@auth/core/providers/vk";
import AuthYandex from "@auth/core/providers/yandex";
import type { Provider } from "@tessera/core/providers";
import Apple from "@tessera/core/providers/apple";
import Auth0 from "@tessera/core/providers/auth0";
import Discord from "@tessera/core/providers/discord";
import Facebook from "@tessera/core/providers/facebook";
import GitHub from "@tessera/core/providers/github";
import GitLab from "@tessera/core/providers/gitlab";
import Google from "@tessera/core/providers/google";
import Keycloak from "@tessera/core/providers/keycloak";
import LinkedIn from "@tessera/core/providers/linkedin";
import MicrosoftEntraID from "@tessera/core/providers/microsoft-entra-id";
import Okta from "@tessera/core/providers/okta";
import Slack from "@tessera/core/providers/slack";
import Spotify from "@tessera/core/providers/spotify";
import TikTok from "@tessera/core/providers/tiktok";
import Twitch from "@tessera/core/providers/twitch";
import Twitter from "@tessera/core/providers/twitter";
import VK from "@tessera/core/providers/vk";
import Yandex from "@tessera/core/providers/yandex";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resolveConfig } from "../../src/lib/config/resolve.js";
import type { InternalOAuthProvider } from "../../src/providers/index.js";
import { ORIGIN, SECRET } from "../helpers.js";

// Functions, not shared objects: Auth.js's factories may write defaults into the options given.
const credentials = () => ({ clientId: "client-id", clientSecret: "client-secret" });
const withIssuer = () => ({ ...credentials(), issuer: "https://id.example.com/oauth2/default" });
const TOKENS = { access_token: "access-token", token_type: "bearer" };

/** Standard OIDC claims, for providers whose profile comes from the ID token. */
const OIDC_CLAIMS = {
  sub: "248289761001",
  name: "Jane Doe",
  preferred_username: "j.doe",
  email: "janedoe@example.com",
  email_verified: true,
  picture: "https://example.com/janedoe/me.jpg",
};

/** One provider of both libraries, with profiles as the provider sends them. */
interface Pair {
  id: string;
  tessera: () => Provider;
  authjs: () => object;
  profiles: Record<string, unknown>[];
}

const DISCORD_USER = {
  id: "80351110224678912",
  username: "nelly",
  discriminator: "0",
  global_name: "Nelly",
  avatar: "8342729096ea3675442027381ff50dfe",
  verified: true,
  email: "nelly@discord.com",
};

const TWITTER_USER = {
  id: "2244994945",
  name: "X Dev",
  username: "XDevelopers",
  profile_image_url: "https://pbs.twimg.com/profile_images/1/x_normal.jpg",
};

const PAIRS: Pair[] = [
  {
    id: "apple",
    tessera: () => Apple(credentials()),
    authjs: () => AuthApple(credentials()),
    profiles: [
      {
        sub: "001234.abcdef",
        email: "jane@privaterelay.appleid.com",
        email_verified: "true",
        user: { name: { firstName: "Jane", lastName: "Doe" } },
      },
      { sub: "001234.abcdef", email: "jane@privaterelay.appleid.com" },
    ],
  },
  {
    id: "auth0",
    tessera: () => Auth0(withIssuer()),
    authjs: () => AuthAuth0(withIssuer()),
    profiles: [{ ...OIDC_CLAIMS, sub: "auth0|5f7c8ec7c33c6c004bbafe82", nickname: "jane" }],
  },
  {
    id: "discord",
    tessera: () => Discord(credentials()),
    authjs: () => AuthDiscord(credentials()),
    profiles: [
      DISCORD_USER,
      { ...DISCORD_USER, avatar: "a_d5efa99b3eeaa7dd43acca82f5692432", global_name: null },
      { ...DISCORD_USER, avatar: null },
      { ...DISCORD_USER, avatar: null, discriminator: "1337" },
      { ...DISCORD_USER, email: null },
    ],
  },
  {
    id: "facebook",
    tessera: () => Facebook(credentials()),
    authjs: () => AuthFacebook(credentials()),
    profiles: [
      {
        id: "10158012345678901",
        name: "Jane Doe",
        email: "jane@example.com",
        picture: {
          data: { url: "https://platform-lookaside.fbsbx.com/p.jpg", is_silhouette: false },
        },
      },
    ],
  },
  {
    id: "github",
    tessera: () => GitHub(credentials()),
    authjs: () => AuthGitHub(credentials()),
    profiles: [
      {
        login: "octocat",
        id: 583231,
        avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
        name: "The Octocat",
        email: "octocat@github.com",
      },
      {
        login: "octocat",
        id: 583231,
        avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
        name: null,
        email: null,
      },
    ],
  },
  {
    id: "gitlab",
    tessera: () => GitLab(credentials()),
    authjs: () => AuthGitLab(credentials()),
    profiles: [
      {
        id: 1,
        username: "john_smith",
        name: "John Smith",
        email: "john@example.com",
        avatar_url: "https://gitlab.com/uploads/user/avatar/1/index.jpg",
      },
    ],
  },
  {
    id: "google",
    tessera: () => Google(credentials()),
    authjs: () => AuthGoogle(credentials()),
    profiles: [{ ...OIDC_CLAIMS, iss: "https://accounts.google.com", given_name: "Jane" }],
  },
  {
    id: "keycloak",
    tessera: () => Keycloak(withIssuer()),
    authjs: () => AuthKeycloak(withIssuer()),
    profiles: [OIDC_CLAIMS],
  },
  {
    id: "linkedin",
    tessera: () => LinkedIn(credentials()),
    authjs: () => AuthLinkedIn(credentials()),
    profiles: [{ ...OIDC_CLAIMS, locale: "en-US" }],
  },
  {
    id: "microsoft-entra-id",
    tessera: () => MicrosoftEntraID(credentials()),
    authjs: () => AuthMicrosoftEntraID(credentials()),
    profiles: [
      {
        sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
        name: "Jane Doe",
        email: "jane@contoso.com",
      },
    ],
  },
  {
    id: "okta",
    tessera: () => Okta(withIssuer()),
    authjs: () => AuthOkta(withIssuer()),
    profiles: [OIDC_CLAIMS],
  },
  {
    id: "slack",
    tessera: () => Slack(credentials()),
    authjs: () => AuthSlack(credentials()),
    profiles: [{ ...OIDC_CLAIMS, sub: "U0R7JM", "https://slack.com/team_id": "T0R7GR" }],
  },
  {
    id: "spotify",
    tessera: () => Spotify(credentials()),
    authjs: () => AuthSpotify(credentials()),
    profiles: [
      {
        id: "wizzler",
        display_name: "Wizzler",
        email: "wizzler@example.com",
        images: [{ url: "https://i.scdn.co/image/ab67616d", height: 300, width: 300 }],
      },
    ],
  },
  {
    id: "tiktok",
    tessera: () => TikTok(credentials()),
    authjs: () => AuthTikTok(credentials()),
    profiles: [
      {
        data: {
          user: {
            open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
            union_id: "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1",
            avatar_url: "https://p19-sign.tiktokcdn-us.com/avatar.jpeg",
            display_name: "Tik Toker",
            username: "tiktoker",
          },
        },
      },
    ],
  },
  {
    id: "twitch",
    tessera: () => Twitch(credentials()),
    authjs: () => AuthTwitch(credentials()),
    profiles: [
      {
        sub: "713936733",
        preferred_username: "twitchdev",
        email: "dev@twitch.tv",
        email_verified: true,
        picture: "https://static-cdn.jtvnw.net/user-default-pictures.png",
      },
    ],
  },
  {
    id: "twitter",
    tessera: () => Twitter(credentials()),
    authjs: () => AuthTwitter(credentials()),
    profiles: [{ data: TWITTER_USER }],
  },
  {
    id: "vk",
    tessera: () => VK(credentials()),
    authjs: () => AuthVK(credentials()),
    profiles: [
      {
        id: 1,
        first_name: "Pavel",
        last_name: "Durov",
        photo_100: "https://sun9-1.userapi.com/photo.jpg",
        email: "pavel@example.com",
      },
    ],
  },
  {
    id: "yandex",
    tessera: () => Yandex(credentials()),
    authjs: () => AuthYandex(credentials()),
    profiles: [
      {
        id: "1000034426",
        login: "ivan",
        client_id: "4760187d81bc4b7799476b42b5103713",
        display_name: "Ivan",
        real_name: "Ivan Ivanov",
        first_name: "Ivan",
        default_email: "ivan@yandex.ru",
        emails: ["ivan@yandex.ru"],
        default_avatar_id: "131652443",
        is_avatar_empty: false,
        psuid: "1.AAceCw",
      },
    ],
  },
];

/** Auth.js's default when a provider names no checks. */
const AUTHJS_DEFAULT_CHECKS = ["pkce"];

/** A field of a provider object, read without assuming either library's types. */
function field(provider: object, name: string): unknown {
  return Reflect.get(provider, name);
}

/** The Tessera provider as a sign-in uses it: options merged, defaults applied. */
function resolved(provider: Provider): InternalOAuthProvider {
  const result = resolveConfig({ secret: SECRET, trustHost: true, providers: [provider] }, {});
  expect(result.configError).toBeUndefined();
  const [internal] = result.providersFor(ORIGIN);
  if (internal?.type !== "oauth" && internal?.type !== "oidc")
    throw new Error("The provider did not resolve to an OAuth provider.");
  return internal;
}

function pairOf(id: string): Pair {
  const pair = PAIRS.find((candidate) => candidate.id === id);
  if (!pair) throw new Error(`No provider pair "${id}".`);
  return pair;
}

/** A mapped user, compared the way it is stored: ids as strings, absent fields as null. */
function comparable(user: unknown) {
  const read = (name: string): unknown =>
    user !== null && typeof user === "object" ? Reflect.get(user, name) : undefined;
  const id = read("id");
  return {
    id: id === undefined || id === null ? id : String(id),
    name: read("name") ?? null,
    email: read("email") ?? null,
    image: read("image") ?? null,
  };
}

/** The user Tessera maps `profile` to. */
async function tesseraUser(pair: Pair, profile: Record<string, unknown>) {
  return comparable(await resolved(pair.tessera()).profile(structuredClone(profile), TOKENS));
}

/**
 * The user Auth.js maps `profile` to; `undefined` when its provider has no `profile()` (it then
 * uses its default OIDC mapping).
 */
async function authjsUser(pair: Pair, profile: Record<string, unknown>) {
  const map = field(pair.authjs(), "profile");
  if (typeof map !== "function") return undefined;
  // Auth.js's mappings may write into the profile (Discord's avatar URL): give each a copy.
  return comparable(await map(structuredClone(profile), TOKENS));
}

/** The standard OIDC mapping (sub, name, email, picture) Auth.js applies without `profile()`. */
function oidcDefault(profile: object) {
  return comparable({
    id: field(profile, "sub"),
    name:
      field(profile, "name") ?? field(profile, "nickname") ?? field(profile, "preferred_username"),
    email: field(profile, "email"),
    image: field(profile, "picture"),
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe.each(PAIRS)("$id matches Auth.js's provider", (pair) => {
  it("has the same id, name and type", () => {
    const tessera = resolved(pair.tessera());
    const authjs = pair.authjs();
    expect(tessera.id).toBe(field(authjs, "id"));
    expect(tessera.name).toBe(field(authjs, "name"));
    expect(tessera.type).toBe(field(authjs, "type"));
  });

  it("sends every check Auth.js sends (a provider that requires state refuses a request without one)", () => {
    const tessera = resolved(pair.tessera());
    const checks = field(pair.authjs(), "checks");
    const authjsChecks = Array.isArray(checks) ? checks : AUTHJS_DEFAULT_CHECKS;
    expect(tessera.checks).toEqual(expect.arrayContaining(authjsChecks));
  });

  it("expects the issuer Auth.js expects (RFC 9207 `iss` on the callback)", () => {
    const authjsIssuer = field(pair.authjs(), "issuer");
    if (authjsIssuer === undefined) return;
    expect(resolved(pair.tessera()).issuer).toBe(authjsIssuer);
  });

  it("maps the provider's profile to the same user", async () => {
    // Microsoft Entra ID's mappings download the photo from Microsoft Graph, which cannot run
    // here: Graph is replaced by a server without photos (HTTP 404) for both libraries.
    vi.stubGlobal("fetch", async () => new Response(null, { status: 404 }));
    for (const profile of pair.profiles) {
      const expected = (await authjsUser(pair, profile)) ?? oidcDefault(profile);
      expect(await tesseraUser(pair, profile)).toEqual(expected);
    }
  });
});

describe("deliberate differences from Auth.js (docs/migrating-from-authjs.md)", () => {
  const discord = pairOf("discord");
  const twitter = pairOf("twitter");

  it("are each listed in the migration guide, so that a user switching is not surprised", async () => {
    const guide = await readFile(
      new URL("../../../../docs/migrating-from-authjs.md", import.meta.url),
      "utf8",
    );
    const section = guide.split(/^## Deliberate differences$/m)[1]?.split(/^## /m)[0] ?? "";
    expect(section).toMatch(/^- \*\*Discord provider: .*unverified/m);
    expect(section).toMatch(/^- \*\*Twitter \/ X provider: .*confirmed_email/m);
  });

  it("Discord: an address Discord reports as unverified is not the user's e-mail (no account linking through it)", async () => {
    const unverified = { ...DISCORD_USER, verified: false };
    expect((await authjsUser(discord, unverified))?.email).toBe("nelly@discord.com");
    expect(await tesseraUser(discord, unverified)).toEqual({
      ...(await authjsUser(discord, unverified)),
      email: null,
    });
  });

  it("Twitter / X: the e-mail is X's `confirmed_email`; an `email` field X does not define is ignored", async () => {
    const confirmed = { data: { ...TWITTER_USER, confirmed_email: "dev@x.com" } };
    expect((await authjsUser(twitter, confirmed))?.email).toBeNull();
    expect((await tesseraUser(twitter, confirmed)).email).toBe("dev@x.com");

    const unconfirmed = { data: { ...TWITTER_USER, email: "someone@x.com" } };
    expect((await authjsUser(twitter, unconfirmed))?.email).toBe("someone@x.com");
    expect(await tesseraUser(twitter, unconfirmed)).toEqual({
      ...(await authjsUser(twitter, unconfirmed)),
      email: null,
    });
  });
});

describe("GitHub Enterprise Server", () => {
  it("expects the issuer under the server's base URL, as Auth.js does", () => {
    const enterprise = () => ({
      ...credentials(),
      enterprise: { baseUrl: "https://ghe.example.com" },
    });
    const issuer = resolved(GitHub(enterprise())).issuer;
    expect(issuer).toBe(field(AuthGitHub(enterprise()), "issuer"));
    expect(issuer).toBe("https://ghe.example.com/login/oauth");
  });
});
