// One place for the auth setup; hooks.server.ts uses `handle`, form actions `signIn`/`signOut`.
// AUTH_SECRET and AUTH_TRUST_HOST come from the environment.
import Credentials from "@tessera/core/providers/credentials";
import { SvelteKitAuth } from "@tessera/sveltekit";

/** The one user of this example. Real apps look users up and compare password hashes. */
const ADA = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [
    Credentials({
      credentials: { username: { label: "User name" }, password: { type: "password" } },
      authorize: ({ username, password }) =>
        username === "ada" && password === "lovelace" ? ADA : null,
    }),
  ],
});
