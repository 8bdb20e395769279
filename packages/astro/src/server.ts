/**
 * Server side of `@tessera/astro` (`@tessera/astro/server`), as `auth-astro/server`: `AstroAuth()`
 * answers the auth routes, `getSession(request)` reads the session in pages, endpoints and
 * middleware. Both default to the app's `auth.config.ts` (the `auth:config` module).
 *
 * @example
 * ```ts
 * // src/pages/account.astro (frontmatter)
 * import { getSession } from "@tessera/astro/server"
 * const session = await getSession(Astro.request)
 * if (!session) return Astro.redirect("/signin")
 * ```
 */
/// <reference path="./virtual.d.ts" />

import authConfig from "auth:config";
import setup from "tessera:astro/setup";
import { type ActionRunner, type PasskeysApi, passkeysApi, type Session } from "@tessera/core";
import type { FullAuthConfig } from "./config.js";
import {
  type AstroAuthHandlers,
  type AuthServerContext,
  contextActionRunner,
  createAstroAuth,
  readSession,
} from "./handlers.js";

export type { ActionRunner, ListedPasskey, PasskeyList, PasskeysApi } from "@tessera/core";
export type { Session } from "@tessera/core/types";
export type { AstroAuthHandlers, AuthRouteContext, AuthServerContext } from "./handlers.js";

/**
 * The handlers of the `<prefix>/[...auth]` route; the integration injects one with the
 * `auth:config` config unless `injectEndpoints` is `false`. Unknown actions answer 400, as the
 * core does everywhere.
 *
 * Without `AUTH_URL`, the public origin comes from `request.url`, which Astro builds from the Host
 * header only when `security.allowedDomains` lists it. When Astro replaced the host by
 * `localhost`, every redirect would point there; the route answers instead: 500 (configuration
 * error, the server log names the fix) when `allowedDomains` is unset, 400 when it is set and the
 * client named a host it does not list (Host header injection).
 *
 * @example
 * ```ts
 * // src/pages/api/auth/[...auth].ts, with auth({ injectEndpoints: false })
 * import { AstroAuth } from "@tessera/astro/server"
 * export const prerender = false
 * export const { GET, POST } = AstroAuth()
 * ```
 */
export function AstroAuth(options: FullAuthConfig = authConfig): AstroAuthHandlers {
  return createAstroAuth(options, setup);
}

/**
 * The session of `request`, or `null` when signed out; `options` defaults to `auth.config.ts`.
 * Throws an `AuthError` when the configuration is invalid (the server log names the cause).
 *
 * @example
 * ```ts
 * const session = await getSession(Astro.request)
 * ```
 */
export function getSession(
  request: Request,
  options: FullAuthConfig = authConfig,
): Promise<Session | null> {
  return readSession(request, options);
}

/**
 * Runs actions in-process for the request of `context` (`Astro` in pages, the context of
 * endpoints and middleware), cookies set on `context.cookies`: the runner an extension's server
 * functions take, so every extension works in Astro without code of its own here. `options`
 * defaults to `auth.config.ts`. Call its state-changing functions from code your app protects
 * against CSRF (Astro's `security.checkOrigin` does for form posts).
 *
 * @example
 * ```ts
 * import { twoFactorApi } from "@tessera/core/two-factor"
 * const status = await twoFactorApi(actionRunner(Astro)).status()
 * ```
 */
export function actionRunner(
  context: AuthServerContext,
  options: FullAuthConfig = authConfig,
): ActionRunner {
  return contextActionRunner(context, options);
}

/**
 * The signed-in user's passkeys for the request of `context`: `list()` resolves with
 * `{ passkeys, signals }` or `null` when signed out; `rename(id, name)` and `delete(id)` with the
 * passkeys after the change, `null` when the user has no passkey with that id (another user's
 * included). They ask for no CSRF token: call them from code your app protects against CSRF.
 * Throws an `AuthError` when the config cannot manage passkeys.
 *
 * @example
 * ```ts
 * // src/pages/account.astro (frontmatter)
 * if (Astro.request.method === "POST") {
 *   const form = await Astro.request.formData()
 *   await passkeys(Astro).delete(String(form.get("id")))
 * }
 * const list = await passkeys(Astro).list()
 * ```
 */
export function passkeys(
  context: AuthServerContext,
  options: FullAuthConfig = authConfig,
): PasskeysApi {
  return passkeysApi(contextActionRunner(context, options));
}
