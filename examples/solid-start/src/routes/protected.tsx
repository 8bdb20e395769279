import { createAsync, type RouteDefinition } from "@solidjs/router";
import { requireUser } from "~/lib/session";

export const route = { preload: () => requireUser("/protected") } satisfies RouteDefinition;

export default function Protected() {
  // deferStream: the server waits for the query, so a signed-out visitor gets a 302, not a page.
  const user = createAsync(() => requireUser("/protected"), { deferStream: true });
  return (
    <main>
      <h1>Protected</h1>
      <p data-testid="protected-user">{user()?.name}</p>
    </main>
  );
}
