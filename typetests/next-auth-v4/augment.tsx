// A next-auth v4 app's types, with the imports changed to @tessera/next-auth: the module
// augmentation of the next-auth guide (Session, User, JWT) under the new names, v4 callback
// signatures, getServerSession's three shapes, getToken, withAuth and the React client.
import type { IncomingMessage, ServerResponse } from "node:http";
import NextAuth, {
  type DefaultSession,
  getServerSession,
  type NextAuthOptions,
} from "@tessera/next-auth";
import { getToken, type JWT } from "@tessera/next-auth/jwt";
import { withAuth } from "@tessera/next-auth/middleware";
import { getServerSession as getServerSessionFromNext } from "@tessera/next-auth/next";
import CredentialsProvider from "@tessera/next-auth/providers/credentials";
import GitHubProvider from "@tessera/next-auth/providers/github";
import { signIn, useSession } from "@tessera/next-auth/react";

declare module "@tessera/next-auth" {
  interface Session {
    user: { id: string; role: "admin" | "user" } & DefaultSession["user"];
  }
  interface User {
    role?: "admin" | "user";
  }
}

declare module "@tessera/next-auth/jwt" {
  interface JWT {
    role?: "admin" | "user";
  }
}

export const authOptions: NextAuthOptions = {
  providers: [
    GitHubProvider({ clientId: "id", clientSecret: "secret" }),
    CredentialsProvider({
      name: "Password",
      credentials: { username: { label: "User name" }, password: { type: "password" } },
      async authorize(credentials, req) {
        const method: string | undefined = req.method;
        if (!credentials?.username || method !== "POST") return null;
        return { id: "1", name: credentials.username, role: "admin" };
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user, account, trigger, isNewUser }) {
      if (user) token.role = user.role ?? "user";
      if (account?.provider === "github" && trigger === "signIn" && isNewUser) token.role = "user";
      return token;
    },
    async session({ session, token }) {
      session.user.id = token.sub ?? "";
      session.user.role = token.role ?? "user";
      return session;
    },
    async redirect({ url, baseUrl }) {
      return url.startsWith(baseUrl) ? url : baseUrl;
    },
    async signIn({ user }) {
      return user.role !== undefined;
    },
  },
  pages: { signIn: "/login" },
  session: { strategy: "jwt", maxAge: 3600 },
};

export default NextAuth(authOptions);

// getServerSideProps / API routes: (req, res, options).
export async function pagesRouter(req: IncomingMessage, res: ServerResponse) {
  const session = await getServerSession(req, res, authOptions);
  const role: "admin" | "user" | undefined = session?.user.role;
  const token: JWT | null = await getToken({ req });
  const raw: string | null = await getToken({ req, raw: true });
  // @ts-expect-error the role is a union, not any string
  const wrong: "superuser" | undefined = session?.user.role;
  return { role, token, raw, wrong };
}

// Server components and route handlers: (options).
export async function ServerPage() {
  const session = await getServerSessionFromNext(authOptions);
  return <p>{session?.user.role}</p>;
}

export function ClientRole() {
  const { data, status } = useSession({ required: true, onUnauthenticated: () => {} });
  const role: "admin" | "user" | undefined = data?.user.role;
  return (
    <button type="button" onClick={() => signIn("github", { callbackUrl: "/" })}>
      {status} {role}
    </button>
  );
}

export const middleware = withAuth({
  callbacks: { authorized: ({ token }) => token?.role === "admin" },
  pages: { signIn: "/login" },
});
