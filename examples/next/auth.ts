/**
 * Tessera for this app: one credentials user, sessions in an encrypted cookie (JWT).
 * AUTH_SECRET comes from the environment (`npx @tessera/core secret` or `openssl rand -base64 33`).
 */
import NextAuth from "@tessera/next";
import Credentials from "@tessera/next/providers/credentials";

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

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth({
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
  ],
  callbacks: {
    // Runs in proxy.ts and in auth(handler) routes: true lets the request in, false sends the
    // visitor to the sign-in page, a Response is sent as it is.
    authorized({ auth: session, request }) {
      const { pathname } = request.nextUrl;
      if (pathname.startsWith("/api/me"))
        return session ? true : Response.json({ message: "Sign in first." }, { status: 401 });
      if (pathname.startsWith("/protected")) return Boolean(session);
      return true;
    },
    // `unstable_update` and `useSession().update` send data from the user: accept a bounded name only.
    jwt({ token, trigger, session }) {
      const name = (session as { user?: { name?: unknown } } | undefined)?.user?.name;
      if (trigger === "update" && typeof name === "string" && name.trim())
        token.name = name.trim().slice(0, 64);
      return token;
    },
  },
});
