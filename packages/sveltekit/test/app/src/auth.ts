// One place for the auth setup; hooks.server.ts uses `handle`, form actions `signIn`/`signOut`.
// Nothing is read from process.env here: SvelteKitAuth takes AUTH_SECRET, AUTH_TRUST_HOST and
// the OpenID Provider's AUTH_FIXTURE_OP_ISSUER/_ID/_SECRET from `$env/dynamic/private` (a `.env`
// file under `vite dev`, the process environment under adapter-node).
import { type Action, fail } from "@sveltejs/kit";
import type { OIDCConfig } from "@tessera/core/providers";
import Credentials from "@tessera/core/providers/credentials";
import { CredentialsSignin, SvelteKitAuth } from "@tessera/sveltekit";

/** The one user of this example. Real apps look users up and compare password hashes. */
const ADA = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };

/** The test OpenID Provider (packages/core/test/fixtures/oidc-provider.ts). */
const fixtureOp = {
  id: "fixture-op",
  name: "Test OP",
  type: "oidc",
  checks: ["pkce", "state", "nonce"],
} as OIDCConfig;

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [
    Credentials({
      credentials: { username: { label: "User name" }, password: { type: "password" } },
      authorize: ({ username, password }) =>
        username === "ada" && password === "lovelace" ? ADA : null,
    }),
    fixtureOp,
  ],
});

/**
 * `signIn` for a page's form action: a refused credentials sign-in comes to the action as
 * `CredentialsSignin`, which it answers in the page (`fail(400)`) instead of an error page.
 */
export const signInOrFail: Action = async (event) => {
  try {
    return await signIn(event);
  } catch (error) {
    if (error instanceof CredentialsSignin) return fail(400, { error: error.code });
    throw error;
  }
};
