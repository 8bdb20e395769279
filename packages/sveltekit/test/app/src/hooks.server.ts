import { type Handle, redirect } from "@sveltejs/kit";
import { sequence } from "@sveltejs/kit/hooks";
import { base } from "$app/paths";
import { handle as authentication } from "./auth.js";

const PROTECTED_PREFIXES = [`${base}/protected`];

/** Sends signed-out visitors of protected paths to the sign-in page, then back. */
const authorization: Handle = async ({ event, resolve }) => {
  const { pathname } = event.url;
  if (PROTECTED_PREFIXES.some((prefix) => pathname.startsWith(prefix))) {
    const session = await event.locals.auth();
    // (`url.search` only here: prerendered pages may not read it.)
    const back = `${pathname}${event.url.search}`;
    if (!session) redirect(303, `${base}/signin?${new URLSearchParams({ redirectTo: back })}`);
  }
  return resolve(event);
};

export const handle = sequence(authentication, authorization);
