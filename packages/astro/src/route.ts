/** The `<prefix>/[...auth]` route the integration injects: every auth action, never prerendered. */
import { AstroAuth } from "./server.js";

export const prerender = false;

export const { GET, POST } = AstroAuth();
