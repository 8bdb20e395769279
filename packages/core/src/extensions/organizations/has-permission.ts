/**
 * `hasPermission(session, permissions, scope)`: the permission check as a plain server function
 * over the session object the integration's `auth()` answered in-process.
 */
import { OrganizationSessionUnreadable } from "../../errors.js";
import type { PermissionScope } from "./membership.js";
import type { Permissions, Statements } from "./permissions.js";

/**
 * The key of what a session read in-process carries for {@link hasPermission}. A symbol: the
 * session's JSON (what the browser gets) never has it.
 */
export const PERMISSION_CHECK: unique symbol = Symbol.for("tessera.organizations.permissionCheck");

/** The check a session read in-process carries (bound to its config, user and membership). */
export type PermissionCheck = (asked: Permissions, scope: PermissionScope) => Promise<boolean>;

/** A session as `auth()` answers it, or none. */
type SessionLike = object | null | undefined;

/**
 * Whether the user of `session` may do everything `permissions` names, in `scope` (default: the
 * session's active organisation; with a `teamId`, their role in that team counts too).
 *
 * Answered from the session, without a database read, when it carries the membership asked about
 * and nothing changed since it was read (one look at the shared store, the one that revokes JWT
 * sessions, tells); otherwise from the database. A role taken away stops working at once, with
 * JWT sessions too. No session (signed out): `false`.
 *
 * `session` must be read in server code through the integration (`await auth()`,
 * `event.locals.auth()`, `getSession(req, config)`, …) with the organisations extension
 * configured: a session that went through JSON (from `/session` or the browser) is refused with
 * {@link OrganizationSessionUnreadable}, since it could have been written by anyone.
 *
 * @example
 * ```ts
 * import { hasPermission } from "@tessera/core/organizations"
 * const session = await auth()
 * if (!(await hasPermission(session, { project: ["create"] }, { organizationId, teamId })))
 *   return new Response("Forbidden", { status: 403 })
 * ```
 */
export async function hasPermission<S extends Statements = Statements>(
  session: SessionLike,
  permissions: Permissions<S>,
  scope: PermissionScope = {},
): Promise<boolean> {
  if (!session) return false;
  const check = (session as { [PERMISSION_CHECK]?: PermissionCheck })[PERMISSION_CHECK];
  if (typeof check !== "function")
    throw new OrganizationSessionUnreadable(
      "hasPermission(session, …) was given a session that was not read in-process with the organizations extension configured: pass the session that auth() (or your integration's session function) answered in server code, not one from JSON or the browser.",
    );
  return check(permissions as Permissions, scope);
}
