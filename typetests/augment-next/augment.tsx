// Augmenting @tessera/next as the next-auth guide augments "next-auth": auth() in a server
// component and useSession() in a client component see the new field.
import NextAuth, { type DefaultSession } from "@tessera/next";
import { useSession } from "@tessera/next/react";

declare module "@tessera/next" {
  interface Session {
    user: { plan: "free" | "pro" } & DefaultSession["user"];
  }
}

export const { auth, handlers } = NextAuth({
  providers: [],
  callbacks: {
    session({ session }) {
      session.user.plan = "free";
      return session;
    },
  },
});

export async function Plan() {
  const session = await auth();
  return <p>{session?.user.plan}</p>;
}

export function ClientPlan() {
  const { data } = useSession();
  const plan: "free" | "pro" | undefined = data?.user.plan;
  return <p>{plan}</p>;
}
