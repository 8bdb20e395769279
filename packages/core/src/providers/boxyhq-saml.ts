/**
 * SAML single sign-on through BoxyHQ SAML Jackson (Ory Polis), which speaks OAuth 2 to the app
 * and SAML to the identity provider. `issuer` is the Jackson service's URL, e.g.
 * `https://jackson.example.com` (or `AUTH_BOXYHQ_SAML_ISSUER`); the endpoints are under its
 * `/api/oauth/`. The client id names the connection, e.g. `tenant=acme.com&product=my-app`
 * (with the secret `dummy`), or is the connection's own client id; `provider: "saml"` is sent
 * with the authorization request.
 *
 * Deliberate difference from Auth.js: no `scope` parameter is sent. Auth.js's provider parser
 * adds `openid profile email`, which makes Jackson answer as an OpenID Provider, so Auth.js
 * apps must pass `authorization: { params: { scope: "" } }`; Tessera needs no such override.
 *
 * Callback URL to register (the connection's redirect URL / allowed redirect URLs):
 * `<origin>/auth/callback/boxyhq-saml`. Credentials from `AUTH_BOXYHQ_SAML_ID` and
 * `AUTH_BOXYHQ_SAML_SECRET`.
 *
 * @example
 * ```ts
 * import BoxyHQSAML from "@tessera/core/providers/boxyhq-saml"
 * const config = {
 *   providers: [BoxyHQSAML({ issuer: "https://jackson.example.com", clientId: "tenant=acme.com&product=my-app", clientSecret: "dummy" })],
 * }
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The user of Jackson's `GET /api/oauth/userinfo` (from the SAML assertion). */
export interface BoxyHQSAMLProfile {
  id: string;
  email: string;
  firstName?: string;
  lastName?: string;
  requested?: Record<string, unknown>;
  raw?: Record<string, unknown>;
  [field: string]: unknown;
}

/**
 * BoxyHQ SAML provider.
 *
 * @example
 * ```ts
 * BoxyHQSAML({ issuer: process.env.JACKSON_URL, clientId: "dummy", clientSecret: "dummy" })
 * // signIn("boxyhq-saml", {}, { tenant: "acme.com", product: "my-app" })
 * ```
 */
export default function BoxyHQSAML<P extends BoxyHQSAMLProfile = BoxyHQSAMLProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  // The endpoints follow from the issuer, so it is needed here (options, then env).
  const issuer = (options.issuer ?? processEnv().AUTH_BOXYHQ_SAML_ISSUER)?.replace(/\/+$/, "");
  return {
    id: "boxyhq-saml",
    name: "BoxyHQ SAML",
    type: "oauth",
    authorization: {
      ...(issuer && { url: `${issuer}/api/oauth/authorize` }),
      params: { provider: "saml" },
    },
    ...(issuer && {
      token: `${issuer}/api/oauth/token`,
      userinfo: `${issuer}/api/oauth/userinfo`,
    }),
    profile(profile) {
      return {
        id: profile.id,
        email: profile.email,
        name: [profile.firstName, profile.lastName].filter(Boolean).join(" "),
        image: null,
      };
    },
    style: { brandColor: "#25c2a0" },
    options,
  };
}
