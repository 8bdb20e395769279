/**
 * Tessera for this app: one credentials user and, when AUTH_OP_ISSUER is set, an OpenID Connect
 * provider; sessions in an encrypted cookie (JWT). AUTH_SECRET comes from the environment
 * (`npx @tessera/core secret`). A `.server` module: React Router keeps it out of the browser bundle.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import Credentials from "@tessera/core/providers/credentials";
import { ReactRouterAuth } from "@tessera/react-router";

// A demo user. A real app looks the user up in its database and verifies a password hash.
const DEMO_USER = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };
const DEMO_PASSWORD = "correct horse battery staple";

/** Timing attack: digests of equal length, compared in constant time. */
function matches(given: unknown, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(String(given ?? "")), digest(expected));
}

export const { loader, action, getSession, requireSession, getCsrfToken } = ReactRouterAuth({
  // This app's own page (app/routes/signin.tsx): requireSession and refused sign-ins go there.
  pages: { signIn: "/signin" },
  providers: [
    Credentials({
      credentials: {
        email: { label: "E-mail", type: "email" },
        password: { label: "Password", type: "password" },
      },
      authorize({ email, password }) {
        // Both checks always run, so the answer time does not tell which one failed.
        const emailOk = matches(email, DEMO_USER.email);
        const passwordOk = matches(password, DEMO_PASSWORD);
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
