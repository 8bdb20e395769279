import { createServerFn } from "@tanstack/react-start";
import { getSession } from "./auth";

/** The signed-in user, read on the server from the session cookie; `null` when signed out. */
export const fetchUser = createServerFn({ method: "GET" }).handler(async () => {
  const session = await getSession();
  if (!session?.user) return null;
  return { name: session.user.name ?? null, email: session.user.email ?? null };
});
