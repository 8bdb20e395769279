/**
 * The auth configuration: one credentials user and an OpenID Connect provider, sessions in an
 * encrypted cookie (JWT). AUTH_SECRET comes from the environment (`npx @tessera/core secret`).
 */
import { defineConfig } from "@tessera/astro";
import Credentials from "@tessera/core/providers/credentials";

/** The one user of this example. A real app looks users up and compares password hashes. */
const ADA = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };

export default defineConfig({
  providers: [
    Credentials({
      credentials: { username: { label: "User name" }, password: { type: "password" } },
      authorize: ({ username, password }) =>
        username === "ada" && password === "lovelace" ? ADA : null,
    }),
    {
      // Any OpenID Provider; the tests run a real one on 127.0.0.1. Tessera fills unset values
      // from AUTH_FIXTURE_OP_ISSUER/_ID/_SECRET itself (also from .env under `astro dev`); they
      // are read here too so that the same file runs with auth-astro, which does not.
      id: "fixture-op",
      name: "Test OP",
      type: "oidc",
      issuer: process.env.AUTH_FIXTURE_OP_ISSUER,
      clientId: process.env.AUTH_FIXTURE_OP_ID,
      clientSecret: process.env.AUTH_FIXTURE_OP_SECRET,
      checks: ["pkce", "state", "nonce"],
    },
  ],
});
