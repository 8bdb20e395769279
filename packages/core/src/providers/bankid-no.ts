/**
 * BankID Norway sign-in (BankID OIDC, issuer `https://auth.bankid.no/auth/realms/prod`; for
 * the pre-production environment set `issuer: "https://auth.current.bankid.no/auth/realms/current"`).
 * The profile is read from the userinfo endpoint, which BankID answers with a JWT signed with
 * RS256 (`application/jwt`, checked against BankID's keys); the ID token is verified too and must
 * name the same user. The client authenticates with its secret in the token request body. PKCE,
 * `state` and `nonce` are all sent; the login page is in Norwegian (`ui_locales: "no"`) and
 * offers the BankID app and code device (`login_hint: "BIS"`). BankID gives no picture, and an
 * e-mail only with the `email` scope.
 *
 * Callback URL to register (with BankID's partner support): `<origin>/auth/callback/bankid-no`.
 * Credentials from `AUTH_BANKID_NO_ID` and `AUTH_BANKID_NO_SECRET`.
 *
 * @example
 * ```ts
 * import BankIDNorway from "@tessera/core/providers/bankid-no"
 * const config = { providers: [BankIDNorway] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** The BankID userinfo claims. */
export interface BankIDNorwayProfile {
  sub: string;
  iss: string;
  name: string;
  given_name?: string;
  family_name?: string;
  birthdate?: string;
  email?: string;
  email_verified?: boolean;
  phone_number?: string;
  nnin_altsub?: string;
  amr?: string;
  bankid_altsub?: string;
  [claim: string]: unknown;
}

/**
 * BankID Norway provider.
 *
 * @example
 * ```ts
 * BankIDNorway({ authorization: { params: { scope: "openid profile email", ui_locales: "en" } } })
 * ```
 */
export default function BankIDNorway<P extends BankIDNorwayProfile = BankIDNorwayProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "bankid-no",
    name: "BankID Norge",
    type: "oidc",
    issuer: "https://auth.bankid.no/auth/realms/prod",
    client: {
      token_endpoint_auth_method: "client_secret_post",
      userinfo_signed_response_alg: "RS256",
    },
    idToken: false,
    authorization: { params: { ui_locales: "no", login_hint: "BIS" } },
    profile(profile) {
      return { id: profile.sub, name: profile.name, email: profile.email ?? null, image: null };
    },
    checks: ["pkce", "state", "nonce"],
    style: { brandColor: "#39134c" },
    options,
  };
}
