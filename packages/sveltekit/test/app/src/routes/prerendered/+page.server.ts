import type { ServerLoad } from "@sveltejs/kit";

// Rendered once by `vite build`, where there is no user, no cookie and no AUTH_SECRET: the
// auth handle must not do any auth work (locals.auth() is null, nothing is read or set).
export const prerender = true;

export const load: ServerLoad = async ({ locals }) => ({
  prerenderedSession: await locals.auth(),
  getSessionIsAuth: locals.getSession === locals.auth,
});
