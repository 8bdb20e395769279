"use client";

import { signIn, signOut, useSession } from "@tessera/next/react";
import { type FormEvent, useState } from "react";

export function SessionPanel() {
  const { data: session, status, update } = useSession();
  const [message, setMessage] = useState("");

  async function onSignIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await signIn("credentials", {
      email: String(form.get("email")),
      password: String(form.get("password")),
      redirect: false,
    });
    setMessage(result?.error ? `Refused: ${result.error}` : "Welcome!");
  }

  async function onRename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await update({ user: { name: String(new FormData(event.currentTarget).get("name")) } });
  }

  return (
    <main>
      <p data-testid="client-status">{status}</p>
      <p data-testid="client-user">{session?.user?.name ?? ""}</p>
      <p data-testid="client-message">{message}</p>
      {session ? (
        <>
          <form onSubmit={onRename}>
            <input name="name" aria-label="New name" required />
            <button type="submit">Update name</button>
          </form>
          <button type="button" onClick={() => signOut({ redirect: false })}>
            Sign out here
          </button>
        </>
      ) : (
        <form onSubmit={onSignIn}>
          <input name="email" type="email" aria-label="E-mail" required />
          <input name="password" type="password" aria-label="Password" required />
          <button type="submit">Sign in here</button>
        </form>
      )}
    </main>
  );
}
