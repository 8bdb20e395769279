import { query, redirect } from "@solidjs/router";
import { getSession } from "@tessera/solid-start";
import { getRequestEvent } from "solid-js/web";
import { authOptions } from "~/auth";

/** The signed-in user, read on the server from the session cookie; `null` when signed out. */
export const getUser = query(async () => {
  "use server";
  const session = await getSession(getRequestEvent()!.request, authOptions);
  return session?.user ?? null;
}, "user");

/**
 * SolidStart's protected-route pattern: a server query that throws a redirect when signed out.
 * `from` is the page's path, to come back to after signing in. Read with
 * `createAsync(…, { deferStream: true })`, the redirect is a real HTTP 302 on the
 * first request; on client navigation the router follows it.
 */
export const requireUser = query(async (from: string) => {
  "use server";
  const session = await getSession(getRequestEvent()!.request, authOptions);
  // `from` comes back as the sign-in's callbackUrl, which the core's redirect callback keeps on
  // this site (open redirect).
  if (!session?.user) throw redirect(`/signin?callbackUrl=${encodeURIComponent(from)}`);
  return session.user;
}, "required-user");
