// auth-astro's server side: the route handlers, getSession in pages and endpoints, auth:config.

import authConfig from "auth:config";
import type { Session } from "@tessera/astro";
import { AstroAuth, getSession } from "@tessera/astro/server";
import type { APIRoute } from "astro";

export const prerender = false;
export const { GET, POST } = AstroAuth();
const custom = AstroAuth({ ...authConfig, prefix: "/auth", basePath: "/auth" });
export const handlers: { GET: APIRoute; POST: APIRoute } = custom;

export const me: APIRoute = async ({ request, redirect }) => {
  const session: Session | null = await getSession(request);
  if (!session) return redirect("/signin");
  const other = await getSession(request, authConfig);
  return Response.json({
    name: session.user?.name,
    expires: session.expires,
    same: other === null,
  });
};

// @ts-expect-error getSession needs the request
getSession();
