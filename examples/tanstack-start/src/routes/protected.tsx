import { createFileRoute, redirect } from "@tanstack/react-router";
import { fetchUser } from "../session";

export const Route = createFileRoute("/protected")({
  // Runs on the server for the first request (a real redirect response) and before every
  // client-side navigation here.
  beforeLoad: async ({ location }) => {
    const user = await fetchUser();
    // `location.href` comes back as the sign-in's callbackUrl, which the core's redirect
    // callback keeps on this site (open redirect).
    if (!user) throw redirect({ to: "/signin", search: { callbackUrl: location.href } });
    return { user };
  },
  component: Protected,
});

function Protected() {
  const { user } = Route.useRouteContext();
  return (
    <main>
      <h1>Protected</h1>
      <p data-testid="protected-user">{user.name}</p>
    </main>
  );
}
