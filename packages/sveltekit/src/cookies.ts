/** Core cookies (as data) → SvelteKit's `event.cookies`, which adds them to the response. */
import type { Cookies } from "@sveltejs/kit";
import type { Cookie } from "@tessera/core";

type KitCookieOptions = Parameters<Cookies["set"]>[2];

/** Sets every cookie through `cookies.set`, keeping the core's flags (path `/` when unset). */
export function setCookies(cookies: Cookies, list: readonly Cookie[] | undefined): void {
  if (!list) return;
  for (const { name, value, options } of list) {
    cookies.set(name, value, { ...options, path: options.path ?? "/" } as KitCookieOptions);
  }
}
