import { auth } from "@/auth";
import { signInWithOidc, signOutAndGoHome } from "./actions";

export default async function Home() {
  const session = await auth();
  if (session?.user)
    return (
      <main>
        <p data-testid="status">Signed in as {session.user.name}</p>
        <form action={signOutAndGoHome}>
          <button type="submit">Sign out</button>
        </form>
      </main>
    );
  return (
    <main>
      <p data-testid="status">Not signed in</p>
      <form action={signInWithOidc}>
        <button type="submit">Sign in with OpenID</button>
      </form>
    </main>
  );
}
