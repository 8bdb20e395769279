/**
 * Reads the session once per server render, so that `useSession()` has it in every component
 * and the payload carries it to the browser (no request of its own on hydration). In a page
 * rendered only in the browser, the first read happens there.
 */
import { defineNuxtPlugin } from "nuxt/app";
import { useSession } from "./composables.js";

export default defineNuxtPlugin({
  name: "tessera:session",
  async setup() {
    const { data, refresh } = useSession();
    if (import.meta.server || data.value === undefined) await refresh();
  },
});
