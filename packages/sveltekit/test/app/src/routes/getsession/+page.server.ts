import type { ServerLoad } from "@sveltejs/kit";

// `locals.getSession()`, the name older @auth/sveltekit apps use for `locals.auth()`.
export const load: ServerLoad = async ({ locals }) => ({
  viaGetSession: await locals.getSession(),
});
