/**
 * Wikimedia sign-in (OAuth 2 of MediaWiki's OAuth extension, on Meta-Wiki), for accounts of
 * every Wikimedia project (Wikipedia, Wikidata, Wiktionary, Commons, …). An empty `scope` is
 * sent, which grants what the consumer was registered with; the profile is
 * `GET https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile`, with the user named by
 * their `username`. The `email` (and `realname`) are in the profile only when the consumer was
 * registered with "User identity verification only, with access to real name and email
 * address", and a Wikimedia account need not have an address at all: expect `email` to be
 * `null`.
 *
 * Register an OAuth 2.0 consumer at Special:OAuthConsumerRegistration/propose/oauth2 on
 * Meta-Wiki ("User identity verification only" is enough for sign-in). Until Wikimedia approves
 * it, which can take days, only the registering account can sign in with it.
 *
 * Deliberate difference from Auth.js: the profile's `confirmed_email` is read (`emailVerified`).
 * An unconfirmed address is kept as the user's `email`, as Auth.js does, but never links an
 * account, never lets an e-mail link open the user and never counts as verified, so that nobody
 * is signed in to an account through an address they have not proven to own; a confirmed one is
 * stored with `emailVerified` set.
 *
 * Callback URL to register (the consumer's "OAuth 'callback' URL"):
 * `<origin>/auth/callback/wikimedia`. Credentials from `AUTH_WIKIMEDIA_ID` (the client
 * application key) and `AUTH_WIKIMEDIA_SECRET` (the client application secret).
 *
 * @example
 * ```ts
 * import Wikimedia from "@tessera/core/providers/wikimedia"
 * const config = { providers: [Wikimedia] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** A user group of a Wikimedia wiki (`*`, `user`, `autoconfirmed`, `sysop`, …). */
export type WikimediaGroup = string;
/** A grant of an OAuth consumer (`basic`, `editpage`, `highvolume`, …). */
export type WikimediaGrant = string;
/** A user right on a Wikimedia wiki (`read`, `edit`, `createpage`, …). */
export type WikimediaRight = string;

/** The response of `GET https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile`. */
export interface WikimediaProfile {
  /** The central (global) user id. */
  sub: string | number;
  username: string;
  editcount: number;
  confirmed_email: boolean;
  blocked: boolean;
  /** `YYYYMMDDHHMMSS`, or `null` for very old accounts. */
  registered: string | null;
  groups: WikimediaGroup[];
  rights: WikimediaRight[];
  grants: WikimediaGrant[];
  realname?: string;
  email?: string;
  [field: string]: unknown;
}

/**
 * Wikimedia provider.
 *
 * @example
 * ```ts
 * Wikimedia({ clientId: process.env.WIKIMEDIA_ID, clientSecret: process.env.WIKIMEDIA_SECRET })
 * ```
 */
export default function Wikimedia<P extends WikimediaProfile = WikimediaProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "wikimedia",
    name: "Wikimedia",
    type: "oauth",
    token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
    userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
    authorization: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize?scope=",
    profile(profile) {
      return {
        id: String(profile.sub),
        name: profile.username,
        email: profile.email ?? null,
        image: null,
      };
    },
    // Only an address the wiki has confirmed proves anything.
    emailVerified: (profile) =>
      typeof profile.confirmed_email === "boolean" ? profile.confirmed_email : undefined,
    style: { brandColor: "#000000" },
    options,
  };
}
