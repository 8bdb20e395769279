// The auth setup of the example. AUTH_SECRET, AUTH_URL (or AUTH_TRUST_HOST) and the OpenID
// Provider's AUTH_FIXTURE_OP_ISSUER/_ID/_SECRET come from the environment.

import type { OIDCConfig } from "@tessera/core/providers";
import Credentials from "@tessera/core/providers/credentials";
import type { TesseraAuthOptions } from "@tessera/fastify";

/** The one user of this example. Real apps look users up and compare password hashes. */
const ADA = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };

/** An OpenID Provider found by discovery; its issuer, id and secret come from AUTH_FIXTURE_OP_*. */
const fixtureOp = {
  id: "fixture-op",
  name: "Test OP",
  type: "oidc",
  checks: ["pkce", "state", "nonce"],
} as OIDCConfig;

/** The plugin's options: the actions live under /auth. */
export const authOptions: TesseraAuthOptions = {
  prefix: "/auth",
  providers: [
    Credentials({
      credentials: { username: { label: "User name" }, password: { type: "password" } },
      authorize: ({ username, password }) =>
        username === "ada" && password === "lovelace" ? ADA : null,
    }),
    fixtureOp,
  ],
  callbacks: {
    session: ({ session }) => ({ ...session, greeting: `Hello, ${session.user?.name}` }),
  },
};
