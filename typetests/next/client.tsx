"use client";
// The client side of next-auth v5: SessionProvider, useSession with update(), signIn/signOut.
import type { Session } from "@tessera/next";
import { SessionProvider, signIn, signOut, useSession } from "@tessera/next/react";
import type { ReactNode } from "react";

export function Providers({ children, session }: { children: ReactNode; session: Session | null }) {
  return <SessionProvider session={session}>{children}</SessionProvider>;
}

export function Account() {
  const { data: session, status, update } = useSession();
  if (status === "loading") return <p>…</p>;
  if (!session)
    return (
      <button type="button" onClick={() => signIn("github")}>
        Sign in
      </button>
    );
  return (
    <>
      <button type="button" onClick={() => update({ name: "Ada" })}>
        Rename
      </button>
      <button type="button" onClick={() => signOut({ callbackUrl: "/" })}>
        Sign out
      </button>
    </>
  );
}

export function Protected() {
  const { data } = useSession({ required: true, onUnauthenticated: () => undefined });
  // @ts-expect-error with required: true, data is a Session or null while loading, never a string
  const wrong: string = data;
  return <p>{String(wrong)}</p>;
}
