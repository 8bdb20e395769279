// Callbacks as the Auth.js v5 guides write them (authjs.dev: "Extending the session",
// "Role based access control", "Refresh token rotation"), compiled against Tessera.
import { Auth, type AuthConfig } from "@tessera/core";
import type { JWT } from "@tessera/core/jwt";
import GitHub from "@tessera/core/providers/github";
import type { Session, User } from "@tessera/core/types";

export const config = {
  secret: "secret",
  providers: [GitHub],
  callbacks: {
    async signIn({ user, account, profile, email, credentials }) {
      if (account?.provider === "github" && profile?.email_verified === false) return false;
      if (email?.verificationRequest) return true;
      return Boolean(user.email ?? credentials);
    },
    redirect({ url, baseUrl }) {
      return url.startsWith("/") ? `${baseUrl}${url}` : baseUrl;
    },
    jwt({ token, user, account, trigger, session }) {
      if (user) token.id = user.id;
      if (account) token.accessToken = account.access_token;
      // The documented update pattern: `session` is what the client passed to update().
      if (trigger === "update" && session?.name) token.name = session.name;
      return token;
    },
    session({ session, token, user, newSession, trigger }) {
      if (trigger === "update" && newSession?.name) session.user.name = newSession.name;
      // JWT strategy: `token`; database strategy: `user`. Both are typed, as in Auth.js.
      session.user.id = (token?.sub ?? user?.id) as string;
      return session;
    },
    authorized({ auth, request }) {
      return Boolean(auth) || new URL(request.url).pathname === "/";
    },
  },
  events: {
    async signIn({ user, isNewUser }) {
      void user.id;
      void isNewUser;
    },
  },
} satisfies AuthConfig;

export async function handle(request: Request): Promise<Response> {
  return Auth(request, config);
}

export function describe(session: Session, user: User, token: JWT): string {
  return `${session.expires} ${user.name ?? ""} ${token.sub ?? ""}`;
}

export const wrongCallback: AuthConfig = {
  providers: [],
  callbacks: {
    // @ts-expect-error the redirect callback returns a URL, not a boolean
    redirect: () => true,
  },
};
