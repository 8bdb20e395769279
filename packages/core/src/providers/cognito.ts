/**
 * Amazon Cognito sign-in (OpenID Connect, user pools). `issuer` is the user pool's URL,
 * `https://cognito-idp.<region>.amazonaws.com/<user pool id>` (or `AUTH_COGNITO_ISSUER`); the
 * pool's discovery document names the hosted UI's endpoints.
 *
 * Callback URL to register (the app client's allowed callback URLs):
 * `<origin>/auth/callback/cognito`. Credentials from `AUTH_COGNITO_ID` and
 * `AUTH_COGNITO_SECRET` (an app client with a secret).
 *
 * @example
 * ```ts
 * import Cognito from "@tessera/core/providers/cognito"
 * const config = { providers: [Cognito({ issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf" })] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Cognito ID token. */
export interface CognitoProfile {
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  "cognito:username"?: string;
  "cognito:groups"?: string[];
  [claim: string]: unknown;
}

/**
 * Cognito provider.
 *
 * @example
 * ```ts
 * Cognito({ authorization: { params: { identity_provider: "Google" } } })
 * ```
 */
export default function Cognito<P extends CognitoProfile = CognitoProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "cognito",
    name: "Cognito",
    type: "oidc",
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#C17B9E" },
    options,
  };
}
