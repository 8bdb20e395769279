/**
 * Provider conformance with Auth.js: each built-in OAuth/OIDC provider is loaded from both
 * `@auth/core` (a devDependency) and Tessera and compared: id, name, type, issuer, discovery URL,
 * the authorization, token and userinfo endpoints (URLs and parameters, scopes included), checks,
 * client options, ID token use, and the user `profile()` maps sample profiles to. Where Tessera
 * differs on purpose, the difference is listed in DIFFERENCES with its reason, must be real, and
 * must be noted in docs/providers.md, which takes the notes from the providers' doc comments.
 */

import { readdir, readFile } from "node:fs/promises";
import AuthGitHub from "@auth/core/providers/github";
import type { Provider } from "@tessera/core/providers";
import GitHub from "@tessera/core/providers/github";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resolveConfig } from "../../src/lib/config/resolve.js";
import type { InternalOAuthProvider } from "../../src/providers/index.js";
import { ORIGIN, SECRET } from "../helpers.js";
import { group3a } from "./groups/catalogue-3a.js";
import { group3b } from "./groups/catalogue-3b.js";
import { group3c } from "./groups/catalogue-3c.js";
import { credentials, type Difference, FIELDS, type Field, type Pair } from "./groups/types.js";

/** The groups of the catalogue kept in their own files. */
const GROUPS = [group3a, group3b, group3c];

// Functions, not shared objects: Auth.js's factories may write defaults into the options given.
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

const BASE_PAIRS: Pair[] = [
  {
    id: "apple",
    options: credentials,
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
    options: withIssuer,
    profiles: [{ ...OIDC_CLAIMS, sub: "auth0|5f7c8ec7c33c6c004bbafe82", nickname: "jane" }],
  },
  {
    id: "discord",
    options: credentials,
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
    options: credentials,
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
    options: credentials,
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
    options: credentials,
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
    options: credentials,
    profiles: [{ ...OIDC_CLAIMS, iss: "https://accounts.google.com", given_name: "Jane" }],
  },
  {
    id: "keycloak",
    options: withIssuer,
    profiles: [OIDC_CLAIMS],
  },
  {
    id: "linkedin",
    options: credentials,
    profiles: [{ ...OIDC_CLAIMS, locale: "en-US" }],
  },
  {
    id: "microsoft-entra-id",
    options: credentials,
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
    options: withIssuer,
    profiles: [OIDC_CLAIMS],
  },
  {
    id: "slack",
    options: credentials,
    profiles: [{ ...OIDC_CLAIMS, sub: "U0R7JM", "https://slack.com/team_id": "T0R7GR" }],
  },
  {
    id: "spotify",
    options: credentials,
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
    options: credentials,
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
    options: credentials,
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
    options: credentials,
    profiles: [{ data: TWITTER_USER }],
  },
  {
    id: "vk",
    options: credentials,
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
    options: credentials,
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
  // OAuth 2 providers of the catalogue (#15).
  {
    id: "42-school",
    options: credentials,
    profiles: [
      {
        id: 101,
        login: "ada",
        usual_full_name: "Ada Lovelace",
        email: "ada@student.42.fr",
        image: { link: "https://cdn.intra.42.fr/users/ada.jpg" },
      },
      { id: 102, login: "bob", usual_full_name: "Bob", email: "bob@42.fr", image: { link: null } },
    ],
  },
  {
    id: "atlassian",
    options: credentials,
    profiles: [
      {
        account_id: "5b10ac8d82e05b22cc7d4ef5",
        name: "Ada Lovelace",
        email: "ada@example.com",
        picture: "https://avatar-management.services.atlassian.com/a.png",
      },
    ],
  },
  {
    id: "azure-devops",
    options: credentials,
    profiles: [
      {
        id: "e3a6a4cc-0e8f-6d6b-9b0f-2b8d1d0c0e5a",
        displayName: "Ada Lovelace",
        emailAddress: "ada@example.com",
        coreAttributes: { Avatar: { value: { value: "iVBORw0KGgo=" } } },
      },
    ],
  },
  {
    id: "bitbucket",
    options: credentials,
    profiles: [
      {
        account_id: "557058:1b2c",
        username: "ada",
        display_name: "Ada Lovelace",
        links: { avatar: { href: "https://avatar-management.atl-paas.net/a.png" } },
      },
      { account_id: "557058:1b2c", username: "ada", display_name: null, links: { avatar: null } },
    ],
  },
  {
    id: "box",
    options: credentials,
    profiles: [
      {
        type: "user",
        id: "11446498",
        name: "Aaron Levie",
        login: "ceo@example.com",
        avatar_url: "https://www.box.com/api/avatar/large/181216415",
      },
    ],
  },
  {
    id: "boxyhq-saml",
    options: withIssuer,
    profiles: [
      { id: "jackson-1", email: "ada@acme.com", firstName: "Ada", lastName: "Lovelace" },
      { id: "jackson-2", email: "bob@acme.com" },
    ],
  },
  {
    id: "bungie",
    options: credentials,
    profiles: [
      {
        Response: {
          bungieNetUser: {
            membershipId: "4611686018467284386",
            displayName: "Ada",
            profilePicturePath: "/img/profile/avatars/default_avatar.gif",
          },
        },
      },
      {
        Response: {
          bungieNetUser: {
            membershipId: "4611686018467284386",
            displayName: "Ada",
            profilePicturePath: "img/profile/avatars/cc08.jpg",
          },
        },
      },
    ],
  },
  {
    id: "click-up",
    options: credentials,
    profiles: [
      {
        user: {
          id: 123,
          username: "Ada",
          email: "ada@example.com",
          color: "#40BC86",
          profilePicture: "https://attachments.clickup.com/profilePictures/123.jpg",
        },
      },
    ],
  },
  {
    id: "coinbase",
    options: credentials,
    profiles: [
      {
        data: {
          id: "9da7a204-544e-5fd1-9a12-61176c5d4cd8",
          name: "User One",
          email: "user1@example.com",
          avatar_url: "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY",
        },
      },
    ],
  },
  {
    id: "concept2",
    options: credentials,
    profiles: [
      {
        data: {
          id: 1,
          username: "david",
          email: "david@example.com",
          profile_image: "https://log.concept2.com/images/profile.png",
        },
      },
    ],
  },
  {
    id: "dribbble",
    options: credentials,
    profiles: [
      {
        id: 1,
        name: "Dan Cederholm",
        email: "dan@example.com",
        avatar_url: "https://cdn.dribbble.com/users/1/avatar.png",
      },
    ],
  },
  {
    id: "dropbox",
    options: credentials,
    profiles: [
      {
        account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
        name: { display_name: "Franz Ferdinand (Personal)" },
        email: "franz@dropbox.com",
        email_verified: true,
        profile_photo_url:
          "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA",
      },
    ],
  },
  // OAuth 2 providers of the catalogue, part 2 (#16).
  {
    id: "figma",
    options: credentials,
    profiles: [
      {
        id: "1234567890",
        email: "ada@example.com",
        handle: "ada.designs",
        img_url: "https://s3-alpha.figma.com/profile/ada",
      },
    ],
  },
  {
    id: "freshbooks",
    options: credentials,
    profiles: [
      {
        response: {
          id: 2192788,
          first_name: "Bruce",
          last_name: "Wayne",
          email: "bruce@example.com",
        },
      },
    ],
  },
  {
    id: "medium",
    options: credentials,
    profiles: [
      {
        data: {
          id: "5303d74c64f66366f00cb9b2a94f3251bf5",
          name: "Jamie Talbot",
          imageUrl: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png",
        },
      },
    ],
  },
  {
    id: "netlify",
    options: credentials,
    profiles: [
      {
        id: "5f2b1c0e9d",
        full_name: "Grace Hopper",
        email: "grace@example.com",
        avatar_url: "https://avatars.netlify.com/grace.png",
      },
    ],
  },
  // OpenID Connect providers of the catalogue (#15).
  ...[
    "asgardeo",
    "authentik",
    "cognito",
    "duende-identity-server6",
    "identity-server4",
    "kinde",
    "onelogin",
    "passage",
    "ping-id",
    "zitadel",
  ].map((id) => ({ id, options: withIssuer, profiles: [OIDC_CLAIMS] })),
  { id: "hydra", module: "ory-hydra", options: withIssuer, profiles: [OIDC_CLAIMS] },
  {
    id: "azure-ad",
    options: credentials,
    profiles: [
      { sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", name: "Jane", email: "j@contoso.com" },
    ],
  },
  {
    id: "azure-ad-b2c",
    options: withIssuer,
    profiles: [
      { sub: "b2c-1", name: "Jane Doe", emails: ["jane@example.com", "j@example.org"] },
      { sub: "b2c-1", preferred_username: "jane", emails: [] },
    ],
  },
  {
    id: "bankid-no",
    options: credentials,
    profiles: [
      { sub: "9578-6000-4-365161", name: "Jane Doe", email: "jane@example.no" },
      { sub: "9578-6000-4-365161", name: "Jane Doe" },
    ],
  },
  {
    id: "battlenet",
    options: () => ({ ...credentials(), issuer: "https://eu.battle.net/oauth" }),
    profiles: [{ sub: "123456789", battle_tag: "Jane#1234" }],
  },
  {
    id: "beyondidentity",
    options: withIssuer,
    profiles: [OIDC_CLAIMS, { sub: "bi-1", email: "jane@example.com" }],
  },
  { id: "descope", options: credentials, profiles: [OIDC_CLAIMS] },
  { id: "frontegg", options: withIssuer, profiles: [OIDC_CLAIMS] },
  {
    id: "fusionauth",
    options: withIssuer,
    profiles: [
      OIDC_CLAIMS,
      { sub: "fa-1", preferred_username: "jdoe", email: "jane@example.com" },
      { sub: "fa-1", given_name: "Jane", middle_name: "Q", family_name: "Doe" },
      { sub: "fa-1", given_name: "Jane", family_name: "Doe" },
    ],
  },
  {
    id: "huggingface",
    options: credentials,
    profiles: [{ ...OIDC_CLAIMS, profile: "https://huggingface.co/jdoe", isPro: false }],
  },
  { id: "line", options: credentials, profiles: [{ ...OIDC_CLAIMS, amr: ["linesso"] }] },
  {
    id: "logto",
    options: withIssuer,
    profiles: [OIDC_CLAIMS, { sub: "lg-1", username: "jdoe", name: null, email: null }],
  },
  {
    id: "roblox",
    options: credentials,
    profiles: [
      { sub: "1516563360", nickname: "Jane", preferred_username: "jane_r", picture: null },
      { sub: "1516563360", name: "Jane D", preferred_username: "jane_r" },
    ],
  },
  {
    id: "salesforce",
    options: credentials,
    profiles: [{ ...OIDC_CLAIMS, sub: "https://login.salesforce.com/id/00Dx/005x" }],
  },
  {
    id: "simplelogin",
    options: credentials,
    profiles: [
      { sub: "sl-1", name: "Jane", email: "alias@simplelogin.com", avatar_url: "https://sl/a.png" },
      { sub: "sl-1", email: "alias@simplelogin.com", avatar_url: null },
    ],
  },
  {
    id: "united-effects",
    options: withIssuer,
    profiles: [{ sub: "ue-1", email: "jane@example.com" }],
  },
  { id: "vipps", options: credentials, profiles: [{ ...OIDC_CLAIMS, phone_number: "4712345678" }] },
];
const PAIRS: Pair[] = [...BASE_PAIRS, ...GROUPS.flatMap((group) => group.pairs)];

/** A provider factory of either library, called with options. */
type Factory = (options: Record<string, unknown>) => object;

/** Both libraries' factories for a pair, loaded by module name. */
async function factoriesOf(pair: Pair): Promise<{ authjs: Factory; tessera: Factory }> {
  const module = pair.module ?? pair.id;
  const [authjs, tessera] = await Promise.all([
    import(`@auth/core/providers/${module}`),
    import(`@tessera/core/providers/${module}`),
  ]);
  return { authjs: authjs.default, tessera: tessera.default };
}

const FACTORIES = new Map(
  await Promise.all(PAIRS.map(async (pair) => [pair.id, await factoriesOf(pair)] as const)),
);

function factories(pair: Pair) {
  const found = FACTORIES.get(pair.id);
  if (!found) throw new Error(`No factories for "${pair.id}".`);
  return found;
}

/** The Tessera provider of a pair, as configured by a user. */
function tesseraProvider(pair: Pair): Provider {
  return factories(pair).tessera(pair.options()) as Provider;
}

/** The Auth.js provider of a pair, its user options merged over its defaults as Auth.js does. */
function authjsProvider(pair: Pair): Record<string, unknown> {
  const { options, ...defaults } = factories(pair).authjs(pair.options()) as Record<
    string,
    unknown
  >;
  return deepMerge(defaults, options as Record<string, unknown> | undefined);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function deepMerge(target: Record<string, unknown>, source?: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(source ?? {})) {
    if (value === undefined) continue;
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

/** Auth.js's default when a provider names no checks. */
const AUTHJS_DEFAULT_CHECKS = ["pkce"];
/** The scope Auth.js's provider parser adds where a provider names none. */
const AUTHJS_DEFAULT_SCOPE = "openid profile email";

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

/**
 * An endpoint as sent: URL without query, and every parameter (query and `params`) as text;
 * `undefinedAsText` keeps undefined parameters as Auth.js sends them.
 */
interface EndpointShape {
  url: string | null;
  params: Record<string, string>;
}

function endpointShape(value: unknown, undefinedAsText = false): EndpointShape | undefined {
  if (value === undefined || value === null) return undefined;
  const handler = typeof value === "string" || value instanceof URL ? { url: value } : value;
  const url = field(handler, "url");
  const params: Record<string, string> = {};
  let base: string | null = null;
  if (url !== undefined && url !== null) {
    const parsed = new URL(String(url));
    for (const [key, v] of parsed.searchParams) params[key] = v;
    base = `${parsed.origin}${parsed.pathname}`;
  }
  const extra = field(handler, "params");
  for (const [key, v] of Object.entries(isPlainObject(extra) ? extra : {}))
    if ((v !== undefined || undefinedAsText) && v !== null)
      params[key] = typeof v === "object" ? JSON.stringify(v) : String(v);
  if (base === null && Object.keys(params).length === 0) return undefined;
  return { url: base, params };
}

type Shape = Record<Field, unknown>;

function withScope(endpoint: EndpointShape | undefined, scope: string): EndpointShape {
  const shape = endpoint ?? { url: null, params: {} };
  return { ...shape, params: { scope, ...shape.params } };
}

/** What Auth.js would use: its declared configuration with its parser's defaults. */
function authjsShape(pair: Pair): Shape {
  const provider = authjsProvider(pair);
  // Auth.js's parser writes every parameter as text, an undefined one as "undefined".
  let authorization = endpointShape(provider.authorization, true);
  // Auth.js's parser: OIDC providers, and any provider with an authorization endpoint (or without
  // an issuer to discover one from), ask for `openid profile email` when they name no scope.
  if (
    !authorization?.params.scope &&
    (provider.type === "oidc" || provider.authorization !== undefined || !provider.issuer)
  )
    authorization = withScope(authorization, AUTHJS_DEFAULT_SCOPE);
  const checks = Array.isArray(provider.checks) ? provider.checks : AUTHJS_DEFAULT_CHECKS;
  return {
    issuer: provider.issuer,
    wellKnown: provider.wellKnown,
    authorization,
    token: endpointShape(provider.token),
    userinfo: endpointShape(provider.userinfo),
    checks: [...checks].sort(),
    client: provider.client ?? {},
    idToken: provider.idToken ?? provider.type === "oidc",
  };
}

/** What Tessera uses: the resolved provider. */
function tesseraShape(pair: Pair): Shape {
  const provider = resolved(tesseraProvider(pair));
  const { privateKey: _key, ...client } = provider.client ?? {};
  return {
    issuer: provider.issuer,
    wellKnown: provider.wellKnown,
    authorization: endpointShape(provider.authorization),
    token: endpointShape(provider.token),
    userinfo: endpointShape(provider.userinfo),
    checks: [...provider.checks].sort(),
    client,
    idToken: provider.idToken,
  };
}

/**
 * Deliberate differences from Auth.js's declared provider, each with its reason. Every entry must
 * be a real difference (its test fails otherwise) and be noted in docs/providers.md, which takes
 * the notes from each provider's "Deliberate difference from Auth.js:" doc paragraph.
 */
const DIFFERENCES: Difference[] = [
  {
    id: "discord",
    field: "authorization",
    reason:
      "discord.com/oauth2/authorize is the URL Discord documents; /api/oauth2/authorize is a legacy alias",
  },
  ...(["authorization", "token", "userinfo"] as const).map((name) => ({
    id: "facebook",
    field: name,
    reason:
      "every Graph request names API v21.0; Auth.js mixes v19.0 with unversioned URLs, which follow the app's default version",
  })),
  {
    id: "facebook",
    field: "client",
    reason: "Facebook documents client_id and client_secret as token request parameters",
  },
  {
    id: "slack",
    field: "checks",
    reason:
      "state as well as nonce: Slack's error page and the RFC 6749 login CSRF defence expect it",
  },
  {
    id: "tiktok",
    field: "authorization",
    reason: "TikTok documents the authorization URL with its trailing slash (/v2/auth/authorize/)",
  },
  {
    id: "tiktok",
    field: "token",
    reason:
      "client_key as a token parameter, which TikTok requires; Auth.js adds it in a custom token request instead",
  },
  {
    id: "tiktok",
    field: "checks",
    reason: "TikTok requires state on the authorization request (CSRF)",
  },
  {
    id: "twitch",
    field: "authorization",
    reason:
      "the email_verified claim is requested too, so that an unverified address is known as such",
  },
  ...(["authorization", "token", "userinfo"] as const).map((name) => ({
    id: "vk",
    field: name,
    reason: "VK API version 5.126 by default; Auth.js sends 5.131. Set `apiVersion` to change it",
  })),
  ...["box", "boxyhq-saml", "bungie", "click-up"].map((id) => ({
    id,
    field: "authorization" as const,
    reason:
      "no scope is sent: Auth.js's parser adds `openid profile email` to an OAuth 2 provider naming none, scopes Box, Bungie and ClickUp do not define and that turn Jackson into an OpenID Provider",
  })),
  {
    id: "freshbooks",
    field: "authorization",
    reason:
      "no scope is sent: Auth.js's parser adds `openid profile email` to an OAuth 2 provider naming none, scopes FreshBooks does not define; it grants the scopes set in the app's settings",
  },
  {
    id: "dribbble",
    field: "authorization",
    reason:
      "the scope defaults to `public`, as Auth.js documents; Auth.js itself sends the text `undefined` without a `scope` option",
  },
  {
    id: "azure-devops",
    field: "token",
    reason:
      "the code is exchanged at /oauth2/token, the endpoint Microsoft documents; Auth.js posts to the authorization endpoint's URL",
  },
  ...["asgardeo", "onelogin"].map((id) => ({
    id,
    field: "wellKnown" as const,
    reason:
      "Auth.js declares a wellKnown it never reads (it discovers from the issuer); Tessera reads what is declared, so it declares none and discovers from the issuer",
  })),
  ...GROUPS.flatMap((group) => group.differences),
];

function differenceOf(id: string, name: Field) {
  return DIFFERENCES.find((entry) => entry.id === id && entry.field === name);
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
  return comparable(
    await resolved(tesseraProvider(pair)).profile(structuredClone(profile), TOKENS),
  );
}

/**
 * The user Auth.js maps `profile` to; `undefined` when its provider has no `profile()` (it then
 * uses its default OIDC mapping).
 */
async function authjsUser(pair: Pair, profile: Record<string, unknown>) {
  const map = authjsProvider(pair).profile;
  if (typeof map !== "function") return undefined;
  // Auth.js's mappings may write into the profile (Discord's avatar URL): give each a copy.
  return comparable(await map(structuredClone(profile), TOKENS));
}

/**
 * The mapping Auth.js applies without `profile()`: the OIDC claims (sub, name, email, picture),
 * with `id` where there is no `sub` (Mail.ru's OAuth 2 profile).
 */
function oidcDefault(profile: object) {
  return comparable({
    id: field(profile, "sub") ?? field(profile, "id"),
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
    const tessera = resolved(tesseraProvider(pair));
    const authjs = authjsProvider(pair);
    expect(tessera.id).toBe(authjs.id);
    expect(tessera.name).toBe(authjs.name);
    expect(tessera.type).toBe(authjs.type);
  });

  it("sends every check Auth.js sends (a provider that requires state refuses a request without one)", () => {
    const authjsChecks = authjsShape(pair).checks as string[];
    expect(tesseraShape(pair).checks).toEqual(expect.arrayContaining(authjsChecks));
  });

  it.each(FIELDS)("has the same %s (or a listed deliberate difference)", (name) => {
    const tessera = tesseraShape(pair)[name];
    const authjs = authjsShape(pair)[name];
    if (differenceOf(pair.id, name)) expect(tessera).not.toEqual(authjs);
    else expect(tessera).toEqual(authjs);
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

describe("the conformance table", () => {
  it("covers every OAuth and OIDC provider Tessera ships", async () => {
    const modules = await readdir(new URL("../../src/providers/", import.meta.url));
    const oauth: string[] = [];
    // index.ts and oauth.ts hold types, not a provider.
    const typeModules = new Set(["index.ts", "oauth.ts"]);
    for (const file of modules.filter((name) => name.endsWith(".ts") && !typeModules.has(name))) {
      const module = file.slice(0, -3);
      const { default: factory } = await import(`@tessera/core/providers/${module}`);
      const type = field(factory(), "type");
      if (type === "oauth" || type === "oidc") oauth.push(module);
    }

    expect(PAIRS.map((pair) => pair.module ?? pair.id).sort()).toEqual(oauth.sort());
  });

  it("notes each deliberate difference in docs/providers.md, with its reason here", async () => {
    const catalogue = await readFile(
      new URL("../../../../docs/providers.md", import.meta.url),
      "utf8",
    );
    for (const { id, reason } of DIFFERENCES) {
      expect(reason.length).toBeGreaterThan(20);
      const row = catalogue.split("\n").find((line) => line.includes(`| \`${id}\` |`));
      expect(row, `docs/providers.md row of ${id}`).toBeDefined();
      expect(row?.endsWith("| — |"), `docs/providers.md notes of ${id}`).toBe(false);
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

  it("Discord: an address Discord reports as unverified stays the user's e-mail, but Tessera knows it is unverified (no sign-in or linking through it)", async () => {
    const unverified = { ...DISCORD_USER, verified: false };
    expect(await tesseraUser(discord, unverified)).toEqual(await authjsUser(discord, unverified));
    expect(resolved(tesseraProvider(discord)).emailVerified?.(unverified)).toBe(false);
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

/** The endpoints whose declared form code may read (`provider.authorization` …). */
const ENDPOINTS = ["authorization", "token", "userinfo"] as const;
type Endpoint = (typeof ENDPOINTS)[number];

/** How a provider object declares an endpoint: a URL string, an object, or not at all. */
function declaredForm(provider: object, name: Endpoint): "string" | "object" | "absent" {
  const value = field(provider, name);
  if (value === undefined) return "absent";
  return typeof value === "string" ? "string" : "object";
}

/** A provider as its factory declares it, without the user options it keeps aside. */
function declared(factory: Factory, pair: Pair): object {
  const { options: _options, ...provider } = factory(pair.options()) as Record<string, unknown>;
  return provider;
}

/**
 * Endpoints Tessera declares as an object where Auth.js declares a URL string (or the other way
 * round), with the reason: the object carries a `request` or `conform` handler for a provider
 * whose answers are not standard OAuth, which a string cannot.
 */
const DECLARED_FORM_DIFFERENCES: { id: string; endpoint: Endpoint; reason: string }[] = [
  {
    id: "tiktok",
    endpoint: "token",
    reason:
      "carries TikTok's `client_key` as a token request parameter, which TikTok requires in place of `client_id`",
  },
  {
    id: "tiktok",
    endpoint: "userinfo",
    reason:
      "carries `request`, since the provider's profile is not a plain bearer GET (another header, a second call, or parameters the URL must carry)",
  },
  {
    id: "vk",
    endpoint: "token",
    reason:
      "carries `conform`, which repairs the provider's non-standard token response (no `token_type`, or an error answered with HTTP 200)",
  },
  {
    id: "yandex",
    endpoint: "userinfo",
    reason:
      "carries `request`, since the provider's profile is not a plain bearer GET (another header, a second call, or parameters the URL must carry)",
  },
  {
    id: "bungie",
    endpoint: "userinfo",
    reason:
      "carries `request`, since the provider's profile is not a plain bearer GET (another header, a second call, or parameters the URL must carry)",
  },
  {
    id: "click-up",
    endpoint: "token",
    reason:
      "carries `conform`, which repairs the provider's non-standard token response (no `token_type`, or an error answered with HTTP 200)",
  },
  {
    id: "foursquare",
    endpoint: "token",
    reason:
      "carries `conform`, which repairs the provider's non-standard token response (no `token_type`, or an error answered with HTTP 200)",
  },
  {
    id: "instagram",
    endpoint: "token",
    reason:
      "carries `conform`, which repairs the provider's non-standard token response (no `token_type`, or an error answered with HTTP 200)",
  },
  {
    id: "mailchimp",
    endpoint: "token",
    reason:
      "carries `conform`, which repairs the provider's non-standard token response (no `token_type`, or an error answered with HTTP 200)",
  },
  {
    id: "mailchimp",
    endpoint: "userinfo",
    reason:
      "carries `request`, since the provider's profile is not a plain bearer GET (another header, a second call, or parameters the URL must carry)",
  },
  {
    id: "mailru",
    endpoint: "userinfo",
    reason:
      "carries `request`, since the provider's profile is not a plain bearer GET (another header, a second call, or parameters the URL must carry)",
  },
  {
    id: "reddit",
    endpoint: "userinfo",
    reason:
      "carries `request`, since the provider's profile is not a plain bearer GET (another header, a second call, or parameters the URL must carry)",
  },
  {
    id: "threads",
    endpoint: "token",
    reason:
      "carries `conform`, which repairs the provider's non-standard token response (no `token_type`, or an error answered with HTTP 200)",
  },
  {
    id: "threads",
    endpoint: "userinfo",
    reason:
      "carries `request`, since the provider's profile is not a plain bearer GET (another header, a second call, or parameters the URL must carry)",
  },
  {
    id: "workos",
    endpoint: "authorization",
    reason:
      "adds `connection` and `organization` only when given, where Auth.js's string sends an empty `connection=`",
  },
  {
    id: "workos",
    endpoint: "token",
    reason:
      "carries `conform`, which repairs the provider's non-standard token response (no `token_type`, or an error answered with HTTP 200)",
  },
  {
    id: "workos",
    endpoint: "userinfo",
    reason:
      "carries `request`, since the provider's profile is not a plain bearer GET (another header, a second call, or parameters the URL must carry)",
  },
  {
    id: "facebook",
    endpoint: "userinfo",
    reason:
      "is a URL string: the fields Tessera asks for are in its query, so no `request` handler is needed",
  },
  {
    id: "todoist",
    endpoint: "userinfo",
    reason:
      "is a URL string: Todoist's v1 user endpoint answers a plain bearer GET, so no `request` handler is needed",
  },
];

describe("provider objects declare their endpoints as Auth.js's do", () => {
  it.each(PAIRS)("$id: a URL string where Auth.js has one, an object where it has one", (pair) => {
    const { authjs, tessera } = factories(pair);
    for (const endpoint of ENDPOINTS) {
      const listed = DECLARED_FORM_DIFFERENCES.some(
        (entry) => entry.id === pair.id && entry.endpoint === endpoint,
      );
      const theirs = declaredForm(declared(authjs, pair), endpoint);
      const ours = declaredForm(declared(tessera, pair), endpoint);
      if (listed) expect(ours, endpoint).not.toBe(theirs);
      else expect(ours, endpoint).toBe(theirs);
    }
  });

  it("GitLab: the authorization endpoint is Auth.js's string, scope included, for a self-hosted server too", () => {
    const gitlab = pairOf("gitlab");
    const options = { ...gitlab.options(), baseUrl: "https://gitlab.example.com" };
    const { authjs, tessera } = factories(gitlab);
    const ours = tessera(options);
    expect(field(ours, "authorization")).toBe(
      "https://gitlab.example.com/oauth/authorize?scope=read_user",
    );
    for (const endpoint of ENDPOINTS)
      expect(field(ours, endpoint)).toEqual(field(authjs(options), endpoint));
    // Same request as before: the scope reaches the authorization URL's parameters.
    const sent = resolved(ours as Provider).authorization;
    expect(sent?.url?.href).toBe("https://gitlab.example.com/oauth/authorize");
    expect(sent?.params).toMatchObject({ scope: "read_user" });
  });
});
