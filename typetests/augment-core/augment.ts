// Module augmentation as the Auth.js TypeScript guide shows it, with Tessera's module names:
// fields added to Session, User and JWT appear in callbacks and in what the API returns.
import type { AuthConfig, Session as SessionFromRoot } from "@tessera/core";
import { getToken } from "@tessera/core/jwt";
import type { DefaultSession } from "@tessera/core/types";

declare module "@tessera/core/types" {
  interface Session {
    user: { address: string } & DefaultSession["user"];
  }
  interface User {
    role?: "admin" | "member";
  }
}

declare module "@tessera/core/jwt" {
  interface JWT {
    idToken?: string;
    role?: "admin" | "member";
  }
}

export const config: AuthConfig = {
  providers: [],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.role = user.role;
      return token;
    },
    session({ session, token }) {
      session.user.address = `${token.role ?? "member"}@acme.test`;
      return session;
    },
  },
};

export async function roleOf(request: Request): Promise<string | undefined> {
  const token = await getToken({ req: request, secret: "secret" });
  return token?.role;
}

export function addressOf(session: SessionFromRoot): string {
  return session.user.address;
}

export function wrongRole(session: SessionFromRoot) {
  // @ts-expect-error the augmented address is a string
  const n: number = session.user.address;
  return n;
}
