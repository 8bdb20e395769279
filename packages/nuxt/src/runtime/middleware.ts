/**
 * The `auth` route middleware (`definePageMeta({ middleware: "auth" })`): a signed-out visitor
 * goes to the sign-in page with `callbackUrl` the page asked for; on the server the answer is a
 * 302, so a protected page's HTML is never rendered for them.
 */
import { defineNuxtRouteMiddleware, navigateTo, useRuntimeConfig } from "nuxt/app";
import { useSession } from "./composables.js";

export default defineNuxtRouteMiddleware(async (to) => {
  const { data, refresh } = useSession();
  const session = data.value === undefined ? await refresh() : data.value;
  if (session) return;
  const { tessera } = useRuntimeConfig().public as {
    tessera: { basePath: string; signInPage: string };
  };
  const target = `${tessera.signInPage}?${new URLSearchParams({ callbackUrl: to.fullPath })}`;
  // The built-in sign-in page is a server route, not a page of the Vue router.
  const external = tessera.signInPage.startsWith(`${tessera.basePath}/`);
  return navigateTo(target, { external });
});
