import type { ServerLoad } from "@sveltejs/kit";

export const load: ServerLoad = async ({ locals }) => ({ session: await locals.auth() });
