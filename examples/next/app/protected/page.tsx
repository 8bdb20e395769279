import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { rename } from "../actions";

export default async function Protected() {
  const session = await auth();
  // proxy.ts already sent visitors to sign in; the page checks again (defence in depth).
  if (!session?.user) redirect("/?error=SessionRequired");
  return (
    <main>
      <h1>Protected</h1>
      <p data-testid="protected-user">{session.user.name}</p>
      <form action={rename}>
        <label>
          Display name <input name="name" required maxLength={64} />
        </label>
        <button type="submit">Rename</button>
      </form>
    </main>
  );
}
