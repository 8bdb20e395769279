// Guards a whole section at once: every page under /account needs a session.

import { defineMiddleware } from "astro:middleware";
import { getSession } from "@tessera/astro/server";

export const onRequest = defineMiddleware(async (context, next) => {
  const { pathname } = context.url;
  if (pathname.startsWith("/account") && !(await getSession(context.request)))
    return context.redirect(`/signin?callbackUrl=${encodeURIComponent(pathname)}`);
  return next();
});
