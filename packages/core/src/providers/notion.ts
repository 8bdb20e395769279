/**
 * Notion sign-in (a public integration's OAuth 2). The authorization asks for `owner=user`, so
 * that the integration is installed for the signing-in user. The code is exchanged with HTTP
 * Basic client authentication (the default `client_secret_basic`), which Notion requires. The
 * profile is the integration's bot user, `GET https://api.notion.com/v1/users/me` (sent with the
 * `Notion-Version: 2022-06-28` header Notion's API requires), whose owner — `bot.owner.user` —
 * is the signed-in person: identified by Notion's user id, with the `name`, `avatar_url` and
 * `person.email` (when the integration's capabilities include user information with e-mail).
 *
 * Select "Public integration" in Notion's integration settings: internal integrations have no
 * OAuth client id and secret.
 *
 * Deliberate difference from Auth.js: the authorization request carries no `redirect_uri` of its
 * own and no `scope`. The callback URL is sent, as for every provider; Auth.js sends its
 * `redirectUri` option instead (the text `undefined` without it), so Tessera accepts and ignores
 * that option. Notion has no scopes, where Auth.js's provider parser adds `openid profile email`.
 *
 * Deliberate difference from Auth.js: the declared userinfo URL is the one requested,
 * `/v1/users/me` (Auth.js declares `/v1/users` and requests `/v1/users/me` whatever is
 * configured); and a bot owned by a workspace rather than a user fails the sign-in with an
 * error naming that, where Auth.js throws a `TypeError`.
 *
 * Callback URL to register (the integration's redirect URIs): `<origin>/auth/callback/notion`.
 * Credentials from `AUTH_NOTION_ID` (the OAuth client ID) and `AUTH_NOTION_SECRET`.
 *
 * @example
 * ```ts
 * import Notion from "@tessera/core/providers/notion"
 * const config = { providers: [Notion] }
 * ```
 */
import { OAuthCallbackError } from "../errors.js";
import { bearer, providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** A person's details on a Notion user. */
export interface NotionPerson {
  email?: string;
  [field: string]: unknown;
}

/** A Notion user: the owner of the integration's bot (`bot.owner.user` of `/v1/users/me`). */
export interface NotionProfile {
  object: "user";
  id: string;
  type?: "person" | "bot";
  name: string | null;
  avatar_url: string | null;
  person?: NotionPerson;
  [field: string]: unknown;
}

/** The owner of a public integration installed by a user (`bot.owner` of `/v1/users/me`). */
export interface Owner {
  type: "user";
  user: NotionProfile;
}

/** Auth.js's names for a person's details and for a Notion user. */
export type Person = NotionPerson;
export type User = NotionProfile;

/** The bot user `GET /v1/users/me` returns. */
interface NotionBotUser {
  bot?: { owner?: { type?: string; user?: unknown } };
}

/** Options of {@link Notion}: provider overrides, plus the option Auth.js required. */
export interface NotionOptions<P extends NotionProfile = NotionProfile> extends OAuthUserConfig<P> {
  /**
   * Accepted for Auth.js configurations and not used: the callback URL
   * (`<origin>/auth/callback/notion`) is the redirect URI sent.
   */
  redirectUri?: string;
}

const NOTION_API = "https://api.notion.com";
/** The version of Notion's API the profile request names (Notion requires one). */
const NOTION_VERSION = "2022-06-28";

/**
 * Notion provider.
 *
 * @example
 * ```ts
 * Notion({ clientId: process.env.NOTION_CLIENT_ID, clientSecret: process.env.NOTION_CLIENT_SECRET })
 * ```
 */
export default function Notion<P extends NotionProfile = NotionProfile>(
  options: NotionOptions<P> = {},
): OAuthConfig<P> {
  const { redirectUri: _redirectUri, ...rest } = options;
  return {
    id: "notion",
    name: "Notion",
    type: "oauth",
    authorization: {
      url: `${NOTION_API}/v1/oauth/authorize`,
      params: { owner: "user", response_type: "code" },
    },
    token: { url: `${NOTION_API}/v1/oauth/token` },
    userinfo: {
      url: `${NOTION_API}/v1/users/me`,
      async request({ tokens, provider }) {
        const url = provider.userinfo?.url ?? `${NOTION_API}/v1/users/me`;
        const headers = { ...bearer(tokens.access_token), "notion-version": NOTION_VERSION };
        const bot = (await providerJson(provider, url, { headers })) as NotionBotUser;
        const owner = bot?.bot?.owner;
        if (owner?.type !== "user" || owner.user === null || typeof owner.user !== "object")
          throw new OAuthCallbackError(
            'Provider "notion": the integration is owned by a workspace, not a user. Sign-in needs a public integration installed by the user (owner=user).',
          );
        return owner.user as Record<string, unknown>;
      },
    },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.name,
        email: profile.person?.email,
        image: profile.avatar_url,
      };
    },
    style: { brandColor: "#000000" },
    options: rest,
  };
}
