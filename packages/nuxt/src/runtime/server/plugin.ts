/**
 * Gives the Vue app's server render the session of its request (`event.context.tesseraSession`),
 * so that `useSession()` is filled during SSR without an HTTP round trip and without the app
 * bundle importing server code.
 */
import type { H3Event } from "h3";
import { defineNitroPlugin } from "nitropack/runtime";
import { getServerSession } from "./session.js";

export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook("request", (event) => {
    // Nitro's h3 and the one this package resolves are the same major version (1.x), not
    // always the same copy: their events have one shape.
    event.context.tesseraSession = () => getServerSession(event as unknown as H3Event);
  });
});
