/**
 * The action table: one row per action, its route (routes.ts) and its handler. Request parsing,
 * the pipeline's CSRF and callback-URL preparation and its dispatch all read the table; adding an
 * action is one handler and one row (an extension's rows come through `defineExtension`).
 */
import type { ActionHandler, ActionRow, ActionTable, AuthContext } from "../config/internal.js";
import {
  CORE_ACTION_ROUTES,
  type CoreActionName,
  SERVER_ACTION_ROUTES,
  type ServerActionName,
} from "./routes.js";
import { session } from "./session.js";

/**
 * A handler loaded on its first request. Sign-in, callback, sign-out and the other rows reach the
 * OAuth client, WebAuthn, e-mail, the pages (the error page's too) and the back-channel logout; loading them only when a
 * request needs them keeps an app's start-up to the session read, the one row that stays static
 * so that the session read pays no extra `await`. The CSRF token and the providers list are lazy
 * too: small, but each a module that Node would load before the first request (its import time
 * follows the number of modules). The resolved handler is kept, so later requests pay one
 * settled `await`.
 */
function lazy(load: () => Promise<ActionHandler>): ActionHandler {
  let handler: ActionHandler | undefined;
  let loading: Promise<ActionHandler> | undefined;
  return async (ctx: AuthContext) => {
    if (handler) return handler(ctx);
    loading ??= load();
    try {
      handler = await loading;
    } catch (cause) {
      // A failed load (a deploy missing a chunk) is retried by the next request, not cached.
      loading = undefined;
      throw cause;
    }
    return handler(ctx);
  };
}

/** The handler of each core route; the compiler refuses a route without one. */
const CORE_HANDLERS: { readonly [Name in CoreActionName | ServerActionName]: ActionHandler } = {
  account: lazy(async () => (await import("./account.js")).account),
  "access-token": lazy(async () => (await import("./access-token.js")).accessToken),
  "backchannel-logout": lazy(
    async () => (await import("./backchannel-logout.js")).backchannelLogout,
  ),
  callback: lazy(async () => (await import("./callback.js")).callback),
  csrf: lazy(async () => (await import("./csrf.js")).csrf),
  error: lazy(async () => (await import("./error.js")).error),
  passkeys: lazy(async () => (await import("./passkeys.js")).passkeys),
  providers: lazy(async () => (await import("./providers.js")).providers),
  session,
  sessions: lazy(async () => (await import("./sessions.js")).sessions),
  signin: lazy(async () => (await import("./signin.js")).signin),
  signout: lazy(async () => (await import("./signout.js")).signout),
  "verify-request": lazy(async () => (await import("./verify-request.js")).verifyRequest),
  "webauthn-options": lazy(async () => (await import("./webauthn-options.js")).webauthnOptions),
};

function coreRows(): ActionRow[] {
  const routes = { ...CORE_ACTION_ROUTES, ...SERVER_ACTION_ROUTES };
  return (Object.keys(routes) as (CoreActionName | ServerActionName)[]).map((name) => ({
    name,
    ...routes[name],
    handler: CORE_HANDLERS[name],
  }));
}

/** The core's table, shared by every configuration without extension rows. */
const CORE_ACTION_TABLE: ActionTable = new Map(coreRows().map((row) => [row.name, row]));

/**
 * The core's rows plus `extensionRows`. Throws a `TypeError` naming the clash when two rows share
 * a name: an extension cannot replace a core action (nor another extension's).
 *
 * @example
 * ```ts
 * const table = createActionTable([{ name: "hello", methods: ["GET"], tail: "nothing",
 *   csrf: "none", page: false, callbackUrl: false, reach: "both", handler: () => json("hi") }])
 * table.get("hello")?.handler
 * ```
 */
export function createActionTable(extensionRows: readonly ActionRow[]): ActionTable {
  if (extensionRows.length === 0) return CORE_ACTION_TABLE;
  const table = new Map(CORE_ACTION_TABLE);
  for (const row of extensionRows) {
    if (table.has(row.name))
      throw new TypeError(
        `Two action rows are named "${row.name}": give the extension's action a name of its own.`,
      );
    table.set(row.name, row);
  }
  return table;
}
