import { Suspense } from "react";
import { auth } from "@/auth";
import { signInWithPassword, signOutAndGoHome } from "./actions";

type SearchParams = Promise<{ error?: string }>;

// The session is request data: with Cache Components (create-next-app's default) the part of the
// page that reads it streams in behind a Suspense boundary, and the rest is prerendered.
export default function Home({ searchParams }: { searchParams: SearchParams }) {
  return (
    <Suspense fallback={<p data-testid="loading">Loading…</p>}>
      <HomeForVisitor searchParams={searchParams} />
    </Suspense>
  );
}

async function HomeForVisitor({ searchParams }: { searchParams: SearchParams }) {
  const session = await auth();
  const { error } = await searchParams;
  if (session?.user)
    return (
      <main>
        <p data-testid="status">
          Signed in as {session.user.name} ({session.user.email})
        </p>
        <form action={signOutAndGoHome}>
          <button type="submit">Sign out</button>
        </form>
      </main>
    );
  return (
    <main>
      <p data-testid="status">Not signed in</p>
      {error && (
        <p role="alert" data-testid="error">
          {error === "CredentialsSignin" ? "Wrong e-mail or password." : "Sign-in failed."}
        </p>
      )}
      <form action={signInWithPassword}>
        <input type="hidden" name="redirectTo" value="/" />
        <label>
          E-mail <input name="email" type="email" required />
        </label>
        <label>
          Password <input name="password" type="password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
