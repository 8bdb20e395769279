import { component$ } from "@builder.io/qwik";
import { Form, Link } from "@builder.io/qwik-city";
import { useSession, useSignOut } from "./plugin@auth";

export default component$(() => {
  const session = useSession();
  const signOut = useSignOut();
  const user = session.value?.user;
  return (
    <main>
      <h1>Tessera + Qwik</h1>
      <p data-testid="status">
        {user ? `Signed in as ${user.name} (${user.email})` : "Not signed in"}
      </p>
      <p>
        <Link href="/protected/">Protected page</Link> · <Link href="/signin/">Sign in</Link>
      </p>
      {user && (
        <Form action={signOut}>
          <input type="hidden" name="redirectTo" value="/" />
          <button type="submit">Sign out</button>
        </Form>
      )}
    </main>
  );
});
