// The next-auth v5 "auth.ts" file and the places the docs use its exports.
import NextAuth, { AuthError, CredentialsSignin } from "@tessera/next";
import Credentials from "@tessera/next/providers/credentials";
import GitHub from "@tessera/next/providers/github";

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth({
  providers: [
    GitHub,
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: async (credentials) =>
        credentials.password === "right" ? { id: "1", name: String(credentials.username) } : null,
    }),
  ],
  pages: { signIn: "/login" },
  callbacks: {
    authorized: async ({ auth: session }) => Boolean(session),
  },
});

export const lazy = NextAuth((request) => {
  void request?.headers;
  return { providers: [GitHub] };
});

export { AuthError, CredentialsSignin };
