/**
 * The action table: one row per action, its route (routes.ts) and its handler. Request parsing,
 * the pipeline's CSRF and callback-URL preparation and its dispatch all read the table; adding an
 * action is one handler and one row (an extension's rows come through `defineExtension`).
 */
import type { ActionHandler, ActionRow, ActionTable } from "../config/internal.js";
import { accessToken } from "./access-token.js";
import { backchannelLogout } from "./backchannel-logout.js";
import { callback } from "./callback.js";
import { csrf } from "./csrf.js";
import { error } from "./error.js";
import { passkeys } from "./passkeys.js";
import { providers } from "./providers.js";
import {
  CORE_ACTION_ROUTES,
  type CoreActionName,
  SERVER_ACTION_ROUTES,
  type ServerActionName,
} from "./routes.js";
import { session } from "./session.js";
import { sessions } from "./sessions.js";
import { signin } from "./signin.js";
import { signout } from "./signout.js";
import { verifyRequest } from "./verify-request.js";
import { webauthnOptions } from "./webauthn-options.js";

/** The handler of each core route; the compiler refuses a route without one. */
const CORE_HANDLERS: { readonly [Name in CoreActionName | ServerActionName]: ActionHandler } = {
  "access-token": accessToken,
  "backchannel-logout": backchannelLogout,
  callback,
  csrf,
  error,
  passkeys,
  providers,
  session,
  sessions,
  signin,
  signout,
  "verify-request": verifyRequest,
  "webauthn-options": webauthnOptions,
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
