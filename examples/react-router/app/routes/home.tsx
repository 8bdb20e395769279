import { signOut } from "@tessera/react-router/client";
import { data, Link } from "react-router";
import { getSession } from "../auth.server";
import type { Route } from "./+types/home";

export function meta() {
  return [{ title: "Tessera × React Router" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  // The refreshed session cookie (rolling expiry) goes out with the page.
  const headers = new Headers();
  const session = await getSession(request, headers);
  return data({ user: session?.user ?? null }, { headers });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { user } = loaderData;
  return (
    <main>
      <h1>Tessera × React Router</h1>
      {/* Client-side navigation: the protected loader's redirect comes back as data. */}
      <Link to="/protected">Protected page</Link>
      {user ? (
        <>
          <p data-testid="status">
            Signed in as {user.name} ({user.email})
          </p>
          <button type="button" onClick={() => signOut({ redirectTo: "/" })}>
            Sign out
          </button>
        </>
      ) : (
        <>
          <p data-testid="status">Not signed in</p>
          <a href="/signin">Sign in</a>
        </>
      )}
    </main>
  );
}
