/**
 * Mail.ru sign-in (OAuth Mail.ru, OAuth 2). The scope `userinfo` is asked for on
 * `https://oauth.mail.ru/login`. The profile is `GET https://oauth.mail.ru/userinfo`, called
 * with the access token as the `access_token` query parameter, as Mail.ru documents. The user is
 * mapped as Auth.js maps a profile without a `profile()` of its provider: the id, the `name`
 * (else `nickname`) and the e-mail; Mail.ru's avatar is the profile's `image` field, which a
 * custom `profile()` can use.
 *
 * Deliberate difference from Auth.js: the access token is sent as the `access_token` query
 * parameter of the userinfo request, as Mail.ru documents it, rather than in an
 * `Authorization: Bearer` header.
 *
 * Callback URL to register (the app's redirect URI at o2.mail.ru/app, matched exactly, trailing
 * slash included): `<origin>/auth/callback/mailru`. Credentials from `AUTH_MAILRU_ID` and
 * `AUTH_MAILRU_SECRET`.
 *
 * @example
 * ```ts
 * import Mailru from "@tessera/core/providers/mailru"
 * const config = { providers: [Mailru] }
 * ```
 */
import { providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://oauth.mail.ru/userinfo`. */
export interface MailruProfile {
  id: string;
  client_id?: string;
  name?: string;
  nickname?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  /** The avatar's URL. */
  image?: string;
  gender?: "m" | "f";
  birthday?: string;
  locale?: string;
  [field: string]: unknown;
}

const USERINFO_URL = "https://oauth.mail.ru/userinfo";

/**
 * Mail.ru provider.
 *
 * @example
 * ```ts
 * Mailru({ profile: (p) => ({ id: p.id, name: p.name, email: p.email, image: p.image }) })
 * ```
 */
export default function Mailru<P extends MailruProfile = MailruProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "mailru",
    name: "Mail.ru",
    type: "oauth",
    authorization: "https://oauth.mail.ru/login?scope=userinfo",
    token: "https://oauth.mail.ru/token",
    userinfo: {
      url: USERINFO_URL,
      async request({ tokens, provider }) {
        const url = new URL(provider.userinfo?.url ?? USERINFO_URL);
        url.searchParams.set("access_token", String(tokens.access_token));
        return (await providerJson(provider, url)) as Record<string, unknown>;
      },
    },
    style: { brandColor: "#005ff9" },
    options,
  };
}
