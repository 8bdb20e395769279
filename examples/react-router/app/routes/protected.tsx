import { data } from "react-router";
import { requireSession } from "../auth.server";
import type { Route } from "./+types/protected";

export async function loader({ request }: Route.LoaderArgs) {
  // Signed out: a redirect to /signin?callbackUrl=/protected is thrown.
  const headers = new Headers();
  const session = await requireSession(request, { headers });
  return data({ name: session.user?.name ?? "" }, { headers });
}

export default function Protected({ loaderData }: Route.ComponentProps) {
  return (
    <main>
      <h1>Protected</h1>
      <p>
        Only signed-in users see this: <span data-testid="protected-user">{loaderData.name}</span>
      </p>
      <a href="/">Home</a>
    </main>
  );
}
