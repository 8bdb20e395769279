// Providers configured as the Auth.js provider pages show, a custom OIDC provider typed with
// @tessera/core/providers/oauth, and credentials with typed fields.
import type { AuthConfig } from "@tessera/core";
import { CredentialsSignin } from "@tessera/core/errors";
import Credentials from "@tessera/core/providers/credentials";
import GitHub from "@tessera/core/providers/github";
import Google from "@tessera/core/providers/google";
import Nodemailer from "@tessera/core/providers/nodemailer";
import type { OAuthUserConfig, OIDCConfig } from "@tessera/core/providers/oauth";
import Okta from "@tessera/core/providers/okta";
import Resend from "@tessera/core/providers/resend";
import type { Profile } from "@tessera/core/types";

interface AcmeProfile extends Profile {
  sub: string;
  nickname: string;
}

export function Acme(options: OAuthUserConfig<AcmeProfile>): OIDCConfig<AcmeProfile> {
  return {
    id: "acme",
    name: "Acme",
    type: "oidc",
    issuer: "https://id.acme.test",
    profile: (profile) => ({ id: profile.sub, name: profile.nickname }),
    options,
  };
}

class InvalidLoginError extends CredentialsSignin {
  override code = "invalid_credentials";
}

export const config: AuthConfig = {
  providers: [
    GitHub({ clientId: "id", clientSecret: "secret" }),
    Google({ authorization: { params: { prompt: "consent", access_type: "offline" } } }),
    Okta({ issuer: "https://acme.okta.com/oauth2/default" }),
    Acme({ clientId: "id", clientSecret: "secret" }),
    Credentials({
      credentials: { email: { label: "E-mail" }, password: { type: "password" } },
      async authorize(credentials, request) {
        void request.headers;
        if (credentials.password !== "right") throw new InvalidLoginError();
        return { id: "1", email: String(credentials.email) };
      },
    }),
    Nodemailer({ server: "smtp://localhost:2525", from: "no-reply@acme.test" }),
    Resend({ from: "no-reply@acme.test" }),
  ],
};

// @ts-expect-error a custom OIDC provider needs its issuer typed as a string
export const wrong: OIDCConfig<AcmeProfile> = { id: "x", name: "X", type: "oidc", issuer: 42 };
