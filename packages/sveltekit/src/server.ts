/**
 * `{ handle, signIn, signOut }` for a SvelteKit app, given what SvelteKit tells about it
 * ({@link KitEnvironment}). `index.ts` wires in `$env/dynamic/private`, `$app/environment` and
 * `$app/paths`; this module imports none of them.
 */
import type { Handle, RequestEvent } from "@sveltejs/kit";
import {
  type AccessToken,
  type ActionRunner,
  Auth,
  type Awaitable,
  assertStartupConfig,
  type ListedSession,
  type PasskeysApi,
  passkeysApi,
  type Session,
  servesAction,
} from "@tessera/core";
import { accessTokenOf } from "./access-token.js";
import { type SignInOptions, type SignOutOptions, signInWith, signOutWith } from "./actions.js";
import { type PreparedConfig, prepareConfig, type SvelteKitAuthConfig } from "./config.js";
import type { KitEnvironment } from "./kit.js";
import { readSession } from "./session.js";
import {
  actionRunnerOf,
  clientAddress,
  listSessionsOf,
  revokeOtherSessionsOf,
  revokeSessionOf,
} from "./sessions.js";

declare global {
  namespace App {
    interface Locals {
      /** The session of the current request, or `null` when signed out. Set by Tessera's `handle`. */
      auth(): Promise<Session | null>;
      /**
       * The same function as {@link Locals.auth}, under the name older @auth/sveltekit versions used.
       * @deprecated Use `locals.auth()`.
       */
      getSession(): Promise<Session | null>;
    }
  }
}

/** What {@link createSvelteKitAuth} (and `SvelteKitAuth`) returns. */
export interface SvelteKitAuthResult {
  /**
   * The server hook: answers `<basePath>/<action>` and sets `event.locals.auth` (and its alias
   * `getSession`). While SvelteKit builds and prerenders, it does no auth work: `locals.auth()`
   * resolves to `null`.
   */
  handle: Handle;
  /**
   * Form action signing in. Form fields: `providerId`, optional `redirectTo` (or `callbackUrl`),
   * `authorizationParams-<name>` for the provider's authorization request, and the provider's own
   * fields (credentials, `email`). Throws `AuthError`s such as `CredentialsSignin` to the caller.
   */
  signIn: (event: RequestEvent) => Promise<{ url: string }>;
  /** Form action signing out. Form fields: optional `redirectTo` (or `callbackUrl`). */
  signOut: (event: RequestEvent) => Promise<{ url: string }>;
  /**
   * Tessera extension: the signed-in user's sessions (database strategy), the current one
   * first, or `null` when signed out; each `id` is an opaque handle for `revokeSession`.
   *
   * @example
   * ```ts
   * export const load = async (event) => ({ sessions: await listSessions(event) })
   * ```
   */
  listSessions: (event: RequestEvent) => Promise<ListedSession[] | null>;
  /**
   * Tessera extension: ends the signed-in user's session `id` (from `listSessions`); resolves
   * with how many ended. Call it from a form action (SvelteKit checks the form's origin).
   *
   * @example
   * ```ts
   * export const actions = { revoke: async (event) => {
   *   await revokeSession(event, String((await event.request.formData()).get("id")))
   * } }
   * ```
   */
  revokeSession: (event: RequestEvent, id: string) => Promise<number>;
  /**
   * Tessera extension: ends every session of the signed-in user except the current one.
   *
   * @example
   * ```ts
   * export const actions = { others: (event) => revokeOtherSessions(event) }
   * ```
   */
  revokeOtherSessions: (event: RequestEvent) => Promise<number>;
  /**
   * Tessera extension: the signed-in user's access token at the OAuth provider `providerId`
   * (`{ accessToken, expiresAt, tokenType, scope }`), refreshed first with the stored refresh
   * token when it has expired; `null` when signed out or without an account there. Throws
   * `RefreshTokenError` when the provider refused the refresh token (sign in again). JWT sessions
   * need `refresh: true` on the provider; their re-issued cookie is set on `event.cookies`.
   *
   * @example
   * ```ts
   * export const load = async (event) => {
   *   const token = await getAccessToken(event, "keycloak")
   *   return { profile: token && (await event.fetch(api, { headers: { authorization: `Bearer ${token.accessToken}` } })).json() }
   * }
   * ```
   */
  getAccessToken: (event: RequestEvent, providerId: string) => Promise<AccessToken | null>;
  /**
   * Tessera extension: runs actions in-process for `event` (cookies set on `event.cookies`), the
   * runner an extension's server functions take, so every extension works here unchanged.
   *
   * @example
   * ```ts
   * import { twoFactorApi } from "@tessera/core/two-factor"
   * export const load = async (event) => ({
   *   twoFactor: await twoFactorApi(await actionRunner(event)).status(),
   * })
   * ```
   */
  actionRunner: (event: RequestEvent) => Promise<ActionRunner>;
  /**
   * Tessera extension: the signed-in user's passkeys for `event`: `list()` in load functions,
   * `rename(id, name)` and `delete(id)` in form actions (SvelteKit checks the form's origin).
   * `list()` resolves with `{ passkeys, signals }` or `null` when signed out; `rename` and
   * `delete` with the passkeys after the change, `null` when the user has no passkey with that id
   * (another user's included). Needs a passkey provider and an adapter with the passkey methods.
   *
   * @example
   * ```ts
   * export const load = async (event) => ({ passkeys: await passkeys(event).list() })
   * export const actions = { delete: async (event) => {
   *   await passkeys(event).delete(String((await event.request.formData()).get("id")))
   * } }
   * ```
   */
  passkeys: (event: RequestEvent) => PasskeysApi;
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

/** A signed-out `locals.auth` for prerendering, where no request carries a user. */
const noSession = async (): Promise<Session | null> => null;

/** Form actions cannot run while prerendering; if one is called anyway, say so. */
function refuseWhileBuilding(action: string): never {
  throw new Error(
    `${action} was called while SvelteKit builds or prerenders the app; auth form actions only run on a server.`,
  );
}

/**
 * `SvelteKitAuth` for the SvelteKit app described by `kit`. Apps call `SvelteKitAuth` from
 * `@tessera/sveltekit`, which passes SvelteKit's own values.
 *
 * @example
 * ```ts
 * const { handle } = createSvelteKitAuth(config, { env: () => process.env, base: "", building: false, dev: false })
 * ```
 */
export function createSvelteKitAuth(
  config: SvelteKitAuthConfig | ((event: RequestEvent) => Awaitable<SvelteKitAuthConfig>),
  kit: KitEnvironment,
): SvelteKitAuthResult {
  // A fixed config is checked now, at start-up: SvelteKit sets `$env/dynamic/private` before it
  // loads the server hooks that call this. Not while building, where the runtime env is unknown.
  if (typeof config !== "function" && !kit.building)
    assertStartupConfig(prepareConfig(config, kit).config);
  const configFor = async (event: RequestEvent): Promise<PreparedConfig> =>
    prepareConfig(typeof config === "function" ? await config(event) : config, kit);

  return {
    async handle({ event, resolve }) {
      if (kit.building) {
        event.locals.auth ??= noSession;
        event.locals.getSession ??= event.locals.auth;
        return resolve(event);
      }
      const prepared = await configFor(event);
      event.locals.auth ??= () => readSession(event, prepared);
      event.locals.getSession ??= event.locals.auth;
      const { pathname } = event.url;
      const prefix = `${prepared.basePath}/`;
      if (pathname.startsWith(prefix)) {
        const end = pathname.indexOf("/", prefix.length);
        const action = pathname.slice(prefix.length, end === -1 ? undefined : end);
        // The config's whole action table: an extension's rows are served like the core's.
        if (servesAction(prepared.config, action)) {
          const clientIp = clientAddress(event);
          return Auth(event.request, prepared.config, clientIp ? { clientIp } : {});
        }
      }
      return resolve(event);
    },
    async signIn(event) {
      if (kit.building) refuseWhileBuilding("signIn");
      const prepared = await configFor(event);
      const { provider, options, authorizationParams } = await readSignInForm(event);
      return { url: await signInWith(event, prepared, provider, options, authorizationParams) };
    },
    async signOut(event) {
      if (kit.building) refuseWhileBuilding("signOut");
      const prepared = await configFor(event);
      return { url: await signOutWith(event, prepared, await readSignOutForm(event)) };
    },
    async listSessions(event) {
      return listSessionsOf(event, await configFor(event));
    },
    async revokeSession(event, id) {
      return revokeSessionOf(event, await configFor(event), id);
    },
    async revokeOtherSessions(event) {
      return revokeOtherSessionsOf(event, await configFor(event));
    },
    async getAccessToken(event, providerId) {
      return accessTokenOf(event, await configFor(event), providerId);
    },
    async actionRunner(event) {
      if (kit.building) refuseWhileBuilding("actionRunner");
      return actionRunnerOf(event, await configFor(event));
    },
    passkeys(event) {
      return passkeysApi(async (call) => {
        if (kit.building) refuseWhileBuilding("passkeys");
        return actionRunnerOf(event, await configFor(event))(call);
      });
    },
  };
}
