// The auth setup of the app: a Qwik City plugin, so `onRequest` runs for every route (it answers
// /auth/* and puts the session into `sharedMap`), and the hooks are shared by every page.
// AUTH_SECRET, AUTH_URL and the OpenID Provider's AUTH_FIXTURE_OP_ISSUER/_ID/_SECRET come from
// the environment (`event.env`).
import type { OIDCConfig } from "@tessera/core/providers";
import Credentials from "@tessera/core/providers/credentials";
import { QwikAuth$ } from "@tessera/qwik";

/** The one user of this example. Real apps look users up and compare password hashes. */
const ADA = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };

/** An OpenID Connect provider; `issuer`, `clientId` and `clientSecret` come from AUTH_FIXTURE_OP_*. */
const fixtureOp = {
  id: "fixture-op",
  name: "Test OP",
  type: "oidc",
  checks: ["pkce", "state", "nonce"],
} as OIDCConfig<Record<string, unknown>>;

export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => ({
  providers: [
    Credentials({
      credentials: { email: { label: "E-mail" }, password: { type: "password" } },
      authorize: ({ email, password }) =>
        email === ADA.email && password === "correct horse battery staple" ? ADA : null,
    }),
    fixtureOp,
  ],
  pages: { signIn: "/signin/" },
}));
