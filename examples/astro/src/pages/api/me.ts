// An endpoint reading the session on the server: 401 when signed out.
import { getSession } from "@tessera/astro/server";
import type { APIRoute } from "astro";

export const GET: APIRoute = async ({ request }) => {
  const session = await getSession(request);
  if (!session) return Response.json({ message: "Sign in first." }, { status: 401 });
  return Response.json(session);
};
