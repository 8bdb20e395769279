// The React page: the session from useSession, signIn/signOut from @tessera/hono/react, exactly
// as with @hono/auth-js/react.
import { SessionProvider, signIn, signOut, useSession } from "@tessera/hono/react";
import { type FormEvent, useState } from "react";
import { createRoot } from "react-dom/client";

function Account() {
  const { data: session, status } = useSession();
  const [error, setError] = useState("");

  async function signInWithPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await signIn("credentials", {
      username: String(form.get("username")),
      password: String(form.get("password")),
      redirect: false,
    });
    setError(result?.error ? `Sign-in failed: ${result.error}` : "");
  }

  if (status === "loading") return <p id="status">Loading</p>;
  if (session)
    return (
      <>
        <p id="status">
          Signed in as {session.user?.name} ({session.user?.email})
        </p>
        <button id="signout" type="button" onClick={() => signOut({ callbackUrl: "/" })}>
          Sign out
        </button>
      </>
    );
  return (
    <>
      <p id="status">Not signed in</p>
      <form onSubmit={signInWithPassword}>
        <input name="username" placeholder="User name" />
        <input name="password" type="password" placeholder="Password" />
        <button id="signin" type="submit">
          Sign in
        </button>
      </form>
      {error && <p id="error">{error}</p>}
      <button
        id="op"
        type="button"
        onClick={() => signIn("fixture-op", { callbackUrl: "/client" })}
      >
        Sign in with the Test OP
      </button>
    </>
  );
}

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <SessionProvider refetchOnWindowFocus={false}>
      <Account />
    </SessionProvider>,
  );
