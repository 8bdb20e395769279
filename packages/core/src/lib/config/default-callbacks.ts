/**
 * The callbacks a configuration gets where it sets none (Auth.js's defaults): allow every
 * sign-in, redirect within the site, expose a minimal session, keep the token as it is. A module
 * of its own so that readers (the session action compares against the default `jwt`) need not
 * import config resolution.
 */
import type { CallbacksOptions } from "../../types.js";
import { defaultRedirect } from "../http/callback-url.js";

function toIsoString(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * The default callbacks: allow sign-in, same-origin redirects, minimal session, token as is.
 * Integrations that wrap a callback call the default where the app sets none.
 *
 * @example
 * ```ts
 * const session = config.callbacks?.session ?? defaultCallbacks.session
 * ```
 */
export const defaultCallbacks: CallbacksOptions = {
  signIn: () => true,
  redirect: defaultRedirect,
  session: ({ session }) => ({
    user: { name: session.user?.name, email: session.user?.email, image: session.user?.image },
    expires: toIsoString(session.expires as string | Date),
  }),
  jwt: ({ token }) => token,
};
