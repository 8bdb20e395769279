/**
 * Loads the app's auth configuration (the module points `#tessera/config` at
 * `server/auth.config.ts`) when the server starts, and gives the Vue app's server render the
 * session of its request (`event.context.tesseraSession`), so that `useSession()` is filled
 * during SSR without an HTTP round trip and without the app bundle importing server code.
 */

import type { H3Event } from "h3";
import { defineNitroPlugin } from "nitropack/runtime";
import userConfig from "#tessera/config";
import { registerAuthConfig } from "./config.js";
import { getServerSession } from "./session.js";

export default defineNitroPlugin((nitroApp) => {
  registerAuthConfig(userConfig);
  nitroApp.hooks.hook("request", (event) => {
    // Nitro's h3 and the one this package resolves are the same major version (1.x), not
    // always the same copy: their events have one shape.
    event.context.tesseraSession = () => getServerSession(event as unknown as H3Event);
  });
});
