import { createAsync } from "@solidjs/router";
import { signOut } from "@tessera/solid-start/client";
import { Show } from "solid-js";
import { getUser } from "~/lib/session";

export default function Home() {
  const user = createAsync(() => getUser(), { deferStream: true });
  return (
    <main>
      <h1>Tessera × SolidStart</h1>
      <Show
        when={user()}
        fallback={
          <>
            <p data-testid="status">Not signed in</p>
            <a href="/signin">Sign in</a>
          </>
        }
      >
        {(signedIn) => (
          <>
            <p data-testid="status">
              Signed in as {signedIn().name} ({signedIn().email})
            </p>
            <a href="/protected">Protected page</a>
            <button type="button" onClick={() => signOut({ redirectTo: "/" })}>
              Sign out
            </button>
          </>
        )}
      </Show>
    </main>
  );
}
