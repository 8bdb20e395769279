import { redirect } from "next/navigation";
import { Suspense } from "react";
import { auth } from "@/auth";
import { rename } from "../actions";

export default function Protected() {
  return (
    <main>
      <h1>Protected</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <Profile />
      </Suspense>
    </main>
  );
}

async function Profile() {
  const session = await auth();
  // proxy.ts already sent visitors to sign in; the page checks again (defence in depth).
  if (!session?.user) redirect("/?error=SessionRequired");
  return (
    <>
      <p data-testid="protected-user">{session.user.name}</p>
      <form action={rename}>
        <label>
          Display name <input name="name" required maxLength={64} />
        </label>
        <button type="submit">Rename</button>
      </form>
    </>
  );
}
