// A next-auth v4 route, moved to Tessera by changing the imports (`next-auth` → `@tessera/next-auth`).
import NextAuth, { type NextAuthOptions } from "@tessera/next-auth";
import CredentialsProvider from "@tessera/next-auth/providers/credentials";

export const authOptions: NextAuthOptions = {
  providers: [
    CredentialsProvider({
      name: "Password",
      credentials: {
        username: { label: "User name", type: "text" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials) {
        if (credentials?.username === "ada" && credentials.password === process.env.DEMO_PASSWORD)
          return { id: "ada", name: "Ada Lovelace", email: "ada@example.com" };
        return null;
      },
    }),
    {
      // A custom OpenID Connect provider, written the v4 way (`wellKnown`, `idToken`).
      id: "op",
      name: "Local OP",
      type: "oauth",
      wellKnown: `${process.env.OIDC_ISSUER}/.well-known/openid-configuration`,
      idToken: true,
      checks: ["pkce", "state"],
      clientId: process.env.OIDC_CLIENT_ID,
      clientSecret: process.env.OIDC_CLIENT_SECRET,
      authorization: { params: { scope: "openid email profile" } },
      profile(profile) {
        return { id: String(profile.sub), name: profile.name, email: profile.email };
      },
    },
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) token.role = user.email === "ada@example.com" ? "admin" : "user";
      return token;
    },
    async session({ session, token }) {
      return { ...session, user: { ...session.user, role: token.role } };
    },
  },
};

export default NextAuth(authOptions);
