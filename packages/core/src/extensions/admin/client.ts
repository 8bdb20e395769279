/**
 * `@tessera/core/admin/client`: the admin functions for the browser, over `callAuthAction`, so
 * they work with every integration's endpoint unchanged. Nothing here imports server code.
 *
 * @example
 * ```ts
 * import { adminClient } from "@tessera/core/admin/client"
 * const admin = adminClient({ baseUrl: "", basePath: "/auth" })
 * await admin.impersonate("user-id")
 * location.reload()
 * ```
 */
import { callAuthAction } from "../../lib/client/action.js";
import type { AuthEndpoint } from "../../lib/client/endpoint.js";

/** The outcome of an admin call from the browser. */
export interface AdminClientResult<T = Record<string, unknown>> {
  ok: boolean;
  /** Why it was refused: `Forbidden`, `UserNotFound`, `ImpersonationActive`, `NotSignedIn`, … */
  error?: string;
  data?: T;
}

/** The admin functions for one endpoint; every mutation sends the CSRF token. */
export interface AdminClient {
  listUsers(query?: {
    search?: string;
    limit?: number;
    offset?: number;
  }): Promise<AdminClientResult>;
  getUser(userId: string): Promise<AdminClientResult>;
  createUser(input: { email: string; name?: string; role?: string }): Promise<AdminClientResult>;
  setRole(userId: string, role: string | null): Promise<AdminClientResult>;
  ban(userId: string, input?: { reason?: string; expiresIn?: number }): Promise<AdminClientResult>;
  unban(userId: string): Promise<AdminClientResult>;
  revokeSessions(userId: string): Promise<AdminClientResult>;
  resetTwoFactor(userId: string): Promise<AdminClientResult>;
  /** Starts a time-limited session as the user in this browser; reload the session afterwards. */
  impersonate(userId: string): Promise<AdminClientResult>;
  /** Ends the impersonation and puts the administrator's own session back. */
  stopImpersonating(): Promise<AdminClientResult>;
}

/**
 * The admin client for `endpoint` (where the auth routes live).
 *
 * @example
 * ```ts
 * const outcome = await adminClient(endpoint).ban(userId, { reason: "spam", expiresIn: 86400 })
 * if (!outcome.ok) show(outcome.error)
 * ```
 */
export function adminClient(endpoint: AuthEndpoint): AdminClient {
  async function call(path: string, body?: Record<string, unknown>) {
    const answer = await callAuthAction<Record<string, unknown>>(endpoint, `admin/${path}`, body);
    const data = answer.data ?? undefined;
    const error = data && typeof data.error === "string" ? data.error : undefined;
    return {
      ok: answer.ok,
      ...(error !== undefined && { error }),
      ...(data !== undefined && answer.ok && { data }),
    };
  }
  const query = (path: string, parameters: Record<string, string | number | undefined>) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(parameters))
      if (value !== undefined) search.set(name, String(value));
    return call(`${path}?${search}`);
  };
  return {
    listUsers: (parameters = {}) => query("list-users", parameters),
    getUser: (userId) => query("get-user", { userId }),
    createUser: (input) => call("create-user", input),
    setRole: (userId, role) => call("set-role", { userId, role: role ?? "none" }),
    ban: (userId, input = {}) => call("ban", { userId, ...input }),
    unban: (userId) => call("unban", { userId }),
    revokeSessions: (userId) => call("revoke-sessions", { userId }),
    resetTwoFactor: (userId) => call("reset-two-factor", { userId }),
    impersonate: (userId) => call("impersonate", { userId }),
    stopImpersonating: () => call("stop-impersonating", {}),
  };
}
