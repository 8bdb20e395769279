/**
 * Tessera for this app: one credentials user and, when AUTH_OP_ISSUER is set, an OpenID Connect
 * provider; sessions in an encrypted cookie (JWT). AUTH_SECRET comes from the environment
 * (`npx @tessera/core secret`). Server-only: the auth route and the server functions import it.
 */
import Credentials from "@tessera/core/providers/credentials";
import { TanStackAuth } from "@tessera/tanstack-start";

// A demo user. A real app looks the user up in its database and verifies a password hash.
const DEMO_USER = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };
const DEMO_PASSWORD = "correct horse battery staple";

/**
 * Compares two strings in constant time (timing attack): both are hashed to equal lengths and
 * every byte is compared, whatever the first difference.
 */
async function sameSecret(given: unknown, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all(
    [String(given ?? ""), expected].map((value) =>
      crypto.subtle.digest("SHA-256", encoder.encode(value)),
    ),
  );
  const left = new Uint8Array(a as ArrayBuffer);
  const right = new Uint8Array(b as ArrayBuffer);
  let difference = 0;
  for (let i = 0; i < left.length; i++) difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return difference === 0;
}

export const { handlers, getSession } = TanStackAuth({
  providers: [
    Credentials({
      credentials: {
        email: { label: "E-mail", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize({ email, password }) {
        // Both checks always run, so the answer time does not tell which one failed.
        const [emailOk, passwordOk] = await Promise.all([
          sameSecret(email, DEMO_USER.email),
          sameSecret(password, DEMO_PASSWORD),
        ]);
        return emailOk && passwordOk ? DEMO_USER : null;
      },
    }),
    // Any OpenID Provider: its issuer, client id and secret come from AUTH_OP_ISSUER,
    // AUTH_OP_ID and AUTH_OP_SECRET (the core fills them in by the provider id "op").
    ...(process.env.AUTH_OP_ISSUER
      ? [{ id: "op", name: "OpenID Provider", type: "oidc" as const }]
      : []),
  ],
});
