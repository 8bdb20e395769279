import { createFileRoute, Link } from "@tanstack/react-router";
import { signOut } from "@tessera/core/client";
import { useEffect, useState } from "react";
import { authEndpoint } from "../endpoint";
import { fetchUser } from "../session";

export const Route = createFileRoute("/")({
  loader: () => fetchUser(),
  component: Home,
});

function Home() {
  const user = Route.useLoaderData();
  // Marks the page interactive: before hydration, links load a whole page.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return (
    <main data-ready={ready ? "" : undefined}>
      <h1>Tessera × TanStack Start</h1>
      {user ? (
        <>
          <p data-testid="status">
            Signed in as {user.name} ({user.email})
          </p>
          <button type="button" onClick={() => signOut(authEndpoint, { redirectTo: "/" })}>
            Sign out
          </button>
        </>
      ) : (
        <>
          <p data-testid="status">Not signed in</p>
          <Link to="/signin">Sign in</Link>
        </>
      )}
      <Link to="/protected">Protected page</Link>
    </main>
  );
}
