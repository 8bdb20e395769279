/**
 * The server functions of a Qwik City request (`passkeys(event)`, `actionRunner(event)`): the
 * plugin's request handler builds them on the server and puts them into `event.sharedMap`; this
 * module only reads them there, so the module the browser also loads imports no server code.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { ActionRunner, PasskeysApi } from "@tessera/core";
import { AuthError } from "@tessera/core/errors";

/** The key of the request's server functions in `event.sharedMap`. */
export const SERVER_FUNCTIONS_KEY = "@tessera/qwik:serverFunctions";

/** What the plugin puts under {@link SERVER_FUNCTIONS_KEY}. */
export interface ServerFunctions {
  run: ActionRunner;
  passkeys: PasskeysApi;
}

/** The plugin's server functions for `event`, or an error naming the fix. */
function serverFunctions(event: Pick<RequestEventCommon, "sharedMap">): ServerFunctions {
  const functions = event.sharedMap.get(SERVER_FUNCTIONS_KEY) as ServerFunctions | undefined;
  if (!functions)
    throw new AuthError(
      "No Tessera server functions on this request: export `onRequest` from QwikAuth$ in src/routes/plugin@auth.ts, which runs before every route's loaders and actions.",
    );
  return functions;
}

/**
 * Runs actions in-process for `event`'s request (cookies set on `event.cookie`): the runner an
 * extension's server functions take, so every extension works in Qwik City without code of its
 * own here. The plugin (`onRequest` of `plugin@auth.ts`) puts it into the event; call it in
 * `routeLoader$`, `routeAction$` and `server$` code. Call its state-changing functions from
 * actions (Qwik City checks their origin).
 *
 * @example
 * ```ts
 * import { twoFactorApi } from "@tessera/core/two-factor"
 * export const useTwoFactor = routeLoader$((event) => twoFactorApi(actionRunner(event)).status())
 * ```
 */
export function actionRunner(event: Pick<RequestEventCommon, "sharedMap">): ActionRunner {
  return serverFunctions(event).run;
}

/**
 * The signed-in user's passkeys for `event`'s request: `list()` in a `routeLoader$`,
 * `rename(id, name)` and `delete(id)` in a `routeAction$`. `list()` resolves with
 * `{ passkeys, signals }` or `null` when signed out; `rename` and `delete` with the passkeys
 * after the change, `null` when the user has no passkey with that id (another user's included).
 *
 * @example
 * ```ts
 * export const usePasskeys = routeLoader$((event) => passkeys(event).list())
 * export const useDeletePasskey = routeAction$(({ id }, event) => passkeys(event).delete(id), zod$({ id: z.string() }))
 * ```
 */
export function passkeys(event: Pick<RequestEventCommon, "sharedMap">): PasskeysApi {
  return serverFunctions(event).passkeys;
}
