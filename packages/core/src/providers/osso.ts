/**
 * SAML single sign-on through Osso, which speaks OAuth 2 to the app and SAML to each customer's
 * identity provider. `issuer` is the Osso instance's URL, e.g. `https://demo.ossoapp.com/` (or
 * `AUTH_OSSO_ISSUER`); the endpoints are under its `/oauth/`. Osso picks the customer's identity
 * provider from a `domain` (or `email`) authorization parameter, else asks for the e-mail
 * address on its own page. The profile is `GET <issuer>/oauth/me`: the user is identified by
 * Osso's `id`, with the `email` the identity provider asserted; Osso gives no name or picture.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent. Osso has no scopes; Auth.js's
 * provider parser adds `openid profile email`.
 *
 * Deliberate difference from Auth.js: the issuer may be given with or without its trailing
 * slash. Auth.js appends `oauth/authorize` to it as given, so an issuer without the slash gives
 * endpoint URLs on the wrong host.
 *
 * Callback URL to register (the OAuth client's redirect URIs in Osso's admin UI):
 * `<origin>/auth/callback/osso`. Credentials from `AUTH_OSSO_ID` and `AUTH_OSSO_SECRET`.
 *
 * @example
 * ```ts
 * import Osso from "@tessera/core/providers/osso"
 * const config = { providers: [Osso({ issuer: "https://demo.ossoapp.com/" })] }
 * // signIn("osso", {}, { domain: "example.com" })
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET <issuer>/oauth/me`. */
export interface OssoProfile {
  id: string;
  email: string;
  /** The identity provider the user signed in with, e.g. `OKTA`. */
  idp?: string;
  /** The parameters of the authorization request (`domain`, `redirect_uri`, …). */
  requested?: Record<string, unknown>;
  [field: string]: unknown;
}

/**
 * Osso provider.
 *
 * @example
 * ```ts
 * Osso({ issuer: process.env.OSSO_URL, clientId: process.env.OSSO_ID, clientSecret: process.env.OSSO_SECRET })
 * ```
 */
export default function Osso<P extends OssoProfile = OssoProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  // The endpoints follow from the issuer, so it is needed here (options, then env).
  const issuer = (options.issuer ?? processEnv().AUTH_OSSO_ISSUER)?.replace(/\/+$/, "");
  return {
    id: "osso",
    name: "Osso",
    type: "oauth",
    ...(issuer && {
      authorization: `${issuer}/oauth/authorize`,
      token: `${issuer}/oauth/token`,
      userinfo: `${issuer}/oauth/me`,
    }),
    profile(profile) {
      return { id: profile.id, name: null, email: profile.email, image: null };
    },
    style: { brandColor: "#000000" },
    options,
  };
}
