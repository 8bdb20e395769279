/**
 * The admin server functions, written once against an {@link ActionRunner}: every integration
 * hands its own runner (`actionRunner(req, config)` in Express, `actionRunner(event)` in
 * SvelteKit, `actionRunner()` in Next.js, the core's `actionRunner(request, config)`), so none
 * needs code for this extension.
 */
import { AdminActionRefused } from "../../errors.js";
import type { ActionRunner } from "../../lib/in-process.js";
import { ADMIN_ACTION } from "./extension.js";
import type { AdminUserRecord, UserListPage } from "./storage.js";

/** A page of the listing as the server answered it, with the page asked for. */
export interface AdminUserPage extends UserListPage {
  limit: number;
  offset: number;
}

/** The admin functions for server code, bound to a runner. Each refuses a non-administrator. */
export interface AdminApi {
  /** Users whose e-mail or name contains `search`, a page at a time (default 20 from 0). */
  listUsers(query?: { search?: string; limit?: number; offset?: number }): Promise<AdminUserPage>;
  getUser(userId: string): Promise<AdminUserRecord>;
  /** Creates a user (no password: they sign in by e-mail link, a provider, or a password reset). */
  createUser(input: { email: string; name?: string; role?: string }): Promise<AdminUserRecord>;
  /** Sets the user's global role (`null`: none). An administrator cannot change their own. */
  setRole(userId: string, role: string | null): Promise<void>;
  /** Bans the user (for `expiresIn` seconds, else until lifted) and ends their sessions. */
  ban(userId: string, input?: { reason?: string; expiresIn?: number }): Promise<void>;
  unban(userId: string): Promise<void>;
  /** Ends every session of the user (JWT sessions need `jwt.revocation`). */
  revokeSessions(userId: string): Promise<void>;
  /** Removes the user's two-factor enrolment (TOTP secret and backup codes). */
  resetTwoFactor(userId: string): Promise<void>;
}

/**
 * The admin server functions for one request. Call them from code that your app protects
 * against CSRF (server actions, form actions, a route with a CSRF token). Impersonation changes
 * the browser's cookies, so it is started and stopped from the browser (`adminClient`) or by
 * posting to `<basePath>/admin/impersonate`.
 *
 * @example
 * ```ts
 * import { actionRunner } from "@tessera/core"
 * import { adminApi } from "@tessera/core/admin"
 * const { users, total } = await adminApi(actionRunner(request, config)).listUsers({ search: "ada" })
 * ```
 */
export function adminApi(run: ActionRunner): AdminApi {
  async function call<T>(subPath: string, body?: Record<string, unknown>): Promise<T> {
    const answer = await run({ action: ADMIN_ACTION, subPath, ...(body && { body }) });
    const status = answer.status ?? 200;
    if (status !== 200) {
      const error = (answer.body as { error?: unknown } | undefined)?.error;
      const reason = typeof error === "string" ? error : "Refused";
      throw new AdminActionRefused(
        `admin/${subPath} was refused (${status} ${reason}): the caller must be signed in with their own session as an administrator (a role of the admin extension's adminRoles), and the user must exist.`,
        reason,
        status,
      );
    }
    return answer.body as T;
  }
  const done = async (promise: Promise<unknown>) => {
    await promise;
  };
  return {
    listUsers: (query = {}) => call("list-users", { ...query }),
    getUser: async (userId) => (await call<{ user: AdminUserRecord }>("get-user", { userId })).user,
    createUser: async (input) =>
      (await call<{ user: AdminUserRecord }>("create-user", { ...input })).user,
    setRole: (userId, role) => done(call("set-role", { userId, role: role ?? "none" })),
    ban: (userId, input = {}) => done(call("ban", { userId, ...input })),
    unban: (userId) => done(call("unban", { userId })),
    revokeSessions: (userId) => done(call("revoke-sessions", { userId })),
    resetTwoFactor: (userId) => done(call("reset-two-factor", { userId })),
  };
}
