import { signIn, signOut, useSession } from "@tessera/next-auth/react";
import { useState } from "react";

export default function Home() {
  const { data: session, status } = useSession();
  const [error, setError] = useState("");
  if (status === "loading") return <p data-testid="status">Loading…</p>;
  if (session)
    return (
      <main>
        <p data-testid="status">Signed in as {session.user?.name}</p>
        <p data-testid="role">{session.user?.role}</p>
        <button type="button" onClick={() => signOut({ callbackUrl: "/" })}>
          Sign out
        </button>
      </main>
    );
  return (
    <main>
      <p data-testid="status">Not signed in</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const result = await signIn("credentials", {
            username: String(form.get("username")),
            password: String(form.get("password")),
            redirect: false,
          });
          if (result?.error) setError(result.error);
        }}
      >
        <label>
          User name <input name="username" />
        </label>
        <label>
          Password <input name="password" type="password" />
        </label>
        <button type="submit">Sign in</button>
      </form>
      {error && <p data-testid="error">{error}</p>}
      <button type="button" onClick={() => signIn("op")}>
        Sign in with Local OP
      </button>
    </main>
  );
}
