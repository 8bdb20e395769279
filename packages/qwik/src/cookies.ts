/** Core cookies (as data) → Qwik's `event.cookie`, which adds them to the response. */
import type { CookieOptions, Cookie as QwikCookie } from "@builder.io/qwik-city";
import type { Cookie } from "@tessera/core";

type SameSite = CookieOptions["sameSite"];

/** Sets every cookie through `cookie.set`, keeping the core's flags (path `/` when unset). */
export function setCookies(target: QwikCookie, list: readonly Cookie[] | undefined): void {
  if (!list) return;
  for (const { name, value, options } of list) {
    const flags: CookieOptions = { path: options.path ?? "/" };
    if (options.domain !== undefined) flags.domain = options.domain;
    if (options.maxAge !== undefined) flags.maxAge = options.maxAge;
    if (options.expires !== undefined) flags.expires = options.expires;
    if (options.httpOnly !== undefined) flags.httpOnly = options.httpOnly;
    if (options.secure !== undefined) flags.secure = options.secure;
    if (options.sameSite !== undefined) flags.sameSite = options.sameSite as SameSite;
    target.set(name, value, flags);
  }
}
