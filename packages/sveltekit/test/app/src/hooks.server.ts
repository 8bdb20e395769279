import { type Handle, redirect } from "@sveltejs/kit";
import { sequence } from "@sveltejs/kit/hooks";
import { handle as authentication } from "./auth.js";

const PROTECTED_PREFIXES = ["/protected"];

/** Sends signed-out visitors of protected paths to the sign-in page, then back. */
const authorization: Handle = async ({ event, resolve }) => {
  const { pathname, search } = event.url;
  if (PROTECTED_PREFIXES.some((prefix) => pathname.startsWith(prefix))) {
    const session = await event.locals.auth();
    if (!session)
      redirect(303, `/signin?${new URLSearchParams({ redirectTo: `${pathname}${search}` })}`);
  }
  return resolve(event);
};

export const handle = sequence(authentication, authorization);
