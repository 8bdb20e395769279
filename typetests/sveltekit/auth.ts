// src/auth.ts and src/hooks.server.ts of the @auth/sveltekit guide, with Tessera's imports.

import type { Handle, RequestEvent } from "@sveltejs/kit";
import GitHub from "@tessera/core/providers/github";
import { SvelteKitAuth } from "@tessera/sveltekit";

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [GitHub],
  trustHost: true,
});

export const lazyHandle: Handle = SvelteKitAuth(async (event) => {
  void event.platform;
  return { providers: [GitHub], secret: "secret" };
}).handle;

/** A +page.server.ts load function and form actions. */
export async function load(event: RequestEvent) {
  const session = await event.locals.auth();
  const same = await event.locals.getSession();
  return { session, same };
}

export const actions = { default: signIn, signout: signOut };
