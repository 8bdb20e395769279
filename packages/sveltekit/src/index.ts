/**
 * Tessera for SvelteKit 2. **Experimental**: the API may change.
 *
 * `SvelteKitAuth(config)` returns `handle` (answers `<basePath>/*` and sets `locals.auth()`) and
 * the form actions `signIn` and `signOut`. Unset options come from `AUTH_*` variables of
 * `$env/dynamic/private`, so `.env` files work under `vite dev` and platform variables on edge
 * adapters; the base path is `<base>/auth`, under `$app/paths`' `base`.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { SvelteKitAuth } from "@tessera/sveltekit"
 * import Credentials from "@tessera/core/providers/credentials"
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [Credentials({ authorize })] })
 *
 * // src/routes/signin/+page.server.ts
 * import { signIn } from "../../auth"
 * export const actions = { default: signIn }
 * ```
 */
import type { RequestEvent } from "@sveltejs/kit";
import type { Awaitable } from "@tessera/core";
import { building, dev } from "$app/environment";
import { base } from "$app/paths";
import { env } from "$env/dynamic/private";
import type { SvelteKitAuthConfig } from "./config.js";
import { createSvelteKitAuth, type SvelteKitAuthResult } from "./server.js";

export type { ListedPasskey, ListedSession, PasskeyList, PasskeysApi } from "@tessera/core";
export { customFetch } from "@tessera/core";
export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type { Account, DefaultSession, Profile, Session, User } from "@tessera/core/types";
export type { SignInOptions, SignOutOptions } from "./actions.js";
export type { SvelteKitAuthConfig } from "./config.js";
export type { SvelteKitAuthResult } from "./server.js";

/**
 * Sets Tessera up for a SvelteKit app. `config` may be a function of the request event (lazy
 * initialisation, e.g. to read `event.platform.env`). Unset options come from the `AUTH_*`
 * variables of `$env/dynamic/private` (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`,
 * `AUTH_{PROVIDER}_ID/SECRET/ISSUER/KEY`); the base path defaults to `<base>/auth`. While
 * SvelteKit builds and prerenders, `handle` does no auth work. **Experimental.**
 *
 * Compose `handle` with an authorisation hook in `sequence()`:
 *
 * @example
 * ```ts
 * import { redirect, type Handle } from "@sveltejs/kit"
 * import { sequence } from "@sveltejs/kit/hooks"
 * const { handle: authentication } = SvelteKitAuth(config)
 * const authorization: Handle = async ({ event, resolve }) => {
 *   if (event.url.pathname.startsWith("/admin") && !(await event.locals.auth()))
 *     redirect(303, `/auth/signin?callbackUrl=${encodeURIComponent(event.url.pathname)}`)
 *   return resolve(event)
 * }
 * export const handle = sequence(authentication, authorization)
 * ```
 */
export function SvelteKitAuth(
  config: SvelteKitAuthConfig | ((event: RequestEvent) => Awaitable<SvelteKitAuthConfig>),
): SvelteKitAuthResult {
  // `env` is a live binding SvelteKit sets when its server starts (`Server.init`), before it loads
  // the hooks; read through a function so that nothing copies it earlier.
  return createSvelteKitAuth(config, { env: () => env, base, building, dev });
}
