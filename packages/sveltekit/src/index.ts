/**
 * Tessera for SvelteKit 2. **Experimental**: the API may change.
 *
 * `SvelteKitAuth(config)` returns `handle` (answers `<basePath>/*` and sets `locals.auth()`) and
 * the form actions `signIn` and `signOut`.
 *
 * @example
 * ```ts
 * // src/hooks.server.ts
 * import { SvelteKitAuth } from "@tessera/sveltekit"
 * import Credentials from "@tessera/core/providers/credentials"
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [Credentials({ authorize })] })
 *
 * // src/routes/signin/+page.server.ts
 * import { signIn } from "../../hooks.server"
 * export const actions = { default: signIn }
 * ```
 */
import type { Handle, RequestEvent } from "@sveltejs/kit";
import { Auth, type Awaitable, isAuthAction, type Session } from "@tessera/core";
import { type SignInOptions, type SignOutOptions, signInWith, signOutWith } from "./actions.js";
import { type PreparedConfig, prepareConfig, type SvelteKitAuthConfig } from "./config.js";
import { readSession } from "./session.js";

export type { SignInOptions, SignOutOptions } from "./actions.js";
export type { SvelteKitAuthConfig } from "./config.js";

declare global {
  namespace App {
    interface Locals {
      /** The session of the current request, or `null` when signed out. Set by Tessera's `handle`. */
      auth(): Promise<Session | null>;
    }
  }
}

/** What {@link SvelteKitAuth} returns. */
export interface SvelteKitAuthResult {
  /** The server hook: answers `<basePath>/<action>` and sets `event.locals.auth`. */
  handle: Handle;
  /**
   * Form action signing in. Form fields: `providerId`, optional `redirectTo` (or `callbackUrl`),
   * `authorizationParams-<name>` for the provider's authorization request, and the provider's own
   * fields (credentials, `email`). Throws `AuthError`s such as `CredentialsSignin` to the caller.
   */
  signIn: (event: RequestEvent) => Promise<{ url: string }>;
  /** Form action signing out. Form fields: optional `redirectTo` (or `callbackUrl`). */
  signOut: (event: RequestEvent) => Promise<{ url: string }>;
}

const AUTHORIZATION_PARAM = "authorizationParams-";

/** Splits a submitted form into provider, sign-in options and authorization parameters. */
async function readSignInForm(event: RequestEvent) {
  const form = await event.request.formData();
  let provider: string | undefined;
  const options: SignInOptions = {};
  let authorizationParams: Record<string, string> | undefined;
  for (const [name, value] of form) {
    if (typeof value !== "string") continue;
    if (name === "providerId") provider = value;
    else if (name === "redirectTo" || name === "callbackUrl") options.redirectTo = value;
    else if (name === "redirect") options.redirect = value !== "false";
    else if (name.startsWith(AUTHORIZATION_PARAM)) {
      authorizationParams ??= {};
      authorizationParams[name.slice(AUTHORIZATION_PARAM.length)] = value;
    } else options[name] = value;
  }
  return { provider, options, authorizationParams };
}

async function readSignOutForm(event: RequestEvent): Promise<SignOutOptions> {
  const form = await event.request.formData();
  const redirectTo = form.get("redirectTo") ?? form.get("callbackUrl");
  return {
    ...(typeof redirectTo === "string" && { redirectTo }),
    ...(form.get("redirect") === "false" && { redirect: false }),
  };
}

/**
 * Sets Tessera up for a SvelteKit app. `config` may be a function of the request event (lazy
 * initialisation, e.g. to read `event.platform.env`). Unset options come from `AUTH_*`
 * environment variables; the base path defaults to `/auth`. **Experimental.**
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
  const configFor = async (event: RequestEvent): Promise<PreparedConfig> =>
    prepareConfig(typeof config === "function" ? await config(event) : config);

  return {
    async handle({ event, resolve }) {
      const prepared = await configFor(event);
      event.locals.auth ??= () => readSession(event, prepared);
      const { pathname } = event.url;
      const prefix = `${prepared.basePath}/`;
      if (pathname.startsWith(prefix)) {
        const end = pathname.indexOf("/", prefix.length);
        const action = pathname.slice(prefix.length, end === -1 ? undefined : end);
        if (isAuthAction(action)) return Auth(event.request, prepared.config);
      }
      return resolve(event);
    },
    async signIn(event) {
      const prepared = await configFor(event);
      const { provider, options, authorizationParams } = await readSignInForm(event);
      return { url: await signInWith(event, prepared, provider, options, authorizationParams) };
    },
    async signOut(event) {
      const prepared = await configFor(event);
      return { url: await signOutWith(event, prepared, await readSignOutForm(event)) };
    },
  };
}
