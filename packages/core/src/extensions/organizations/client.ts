/**
 * `@tessera/core/organizations/client`: the organisation functions for the browser, over
 * `callAuthAction`, so they work with every integration's endpoint unchanged. Nothing here
 * imports server code.
 *
 * @example
 * ```ts
 * import { organizationsClient } from "@tessera/core/organizations/client"
 * const orgs = organizationsClient({ baseUrl: "", basePath: "/auth" })
 * await orgs.setActive("org-id")
 * ```
 */
import { callAuthAction } from "../../lib/client/action.js";
import type { AuthEndpoint } from "../../lib/client/endpoint.js";

/** The outcome of an organisation call from the browser. */
export interface OrganizationClientResult<T = Record<string, unknown>> {
  ok: boolean;
  /** Why it was refused: `Forbidden`, `LastOwner`, `InvitationNotFound`, `NotSignedIn`, … */
  error?: string;
  data?: T;
}

/** The organisation functions for one endpoint; every mutation sends the CSRF token. */
export interface OrganizationsClient {
  list(): Promise<OrganizationClientResult>;
  get(organizationId: string): Promise<OrganizationClientResult>;
  create(input: { name: string; slug: string }): Promise<OrganizationClientResult>;
  update(
    organizationId: string,
    changes: { name?: string; slug?: string },
  ): Promise<OrganizationClientResult>;
  delete(organizationId: string): Promise<OrganizationClientResult>;
  invite(
    organizationId: string,
    input: { email: string; role?: string },
  ): Promise<OrganizationClientResult>;
  acceptInvitation(invitationId: string): Promise<OrganizationClientResult>;
  declineInvitation(invitationId: string): Promise<OrganizationClientResult>;
  revokeInvitation(invitationId: string): Promise<OrganizationClientResult>;
  setRole(organizationId: string, userId: string, role: string): Promise<OrganizationClientResult>;
  removeMember(organizationId: string, userId: string): Promise<OrganizationClientResult>;
  leave(organizationId: string): Promise<OrganizationClientResult>;
  transferOwnership(organizationId: string, userId: string): Promise<OrganizationClientResult>;
  createTeam(organizationId: string, name: string): Promise<OrganizationClientResult>;
  deleteTeam(teamId: string): Promise<OrganizationClientResult>;
  setTeamMember(teamId: string, userId: string, role?: string): Promise<OrganizationClientResult>;
  removeTeamMember(teamId: string, userId: string): Promise<OrganizationClientResult>;
  /** Switches the session's active organisation (`null`: none); reload the session afterwards. */
  setActive(organizationId: string | null): Promise<OrganizationClientResult>;
  /** The roles a member may pick from: those in code, and the organisation's stored ones. */
  listRoles(organizationId: string): Promise<OrganizationClientResult>;
  /** Stores a role of the organisation's own (`storedRoles`); it may grant no more than yours. */
  createRole(
    organizationId: string,
    name: string,
    permissions: Record<string, readonly string[]>,
  ): Promise<OrganizationClientResult>;
  updateRole(
    organizationId: string,
    name: string,
    permissions: Record<string, readonly string[]>,
  ): Promise<OrganizationClientResult>;
  deleteRole(organizationId: string, name: string): Promise<OrganizationClientResult>;
  /**
   * Whether the signed-in user may do what `permissions` names (default scope: the active
   * organisation), to show or hide controls. The server decides again on every change.
   */
  hasPermission(
    permissions: Record<string, readonly string[]>,
    scope?: { organizationId?: string; teamId?: string },
  ): Promise<boolean>;
}

/**
 * The organisations client for `endpoint` (where the auth routes live).
 *
 * @example
 * ```ts
 * const outcome = await organizationsClient(endpoint).acceptInvitation(invitationId)
 * if (!outcome.ok) show(outcome.error)
 * ```
 */
export function organizationsClient(endpoint: AuthEndpoint): OrganizationsClient {
  async function call(path: string, body?: Record<string, unknown>) {
    const answer = await callAuthAction<Record<string, unknown>>(
      endpoint,
      `organizations/${path}`,
      body,
    );
    const data = answer.data ?? undefined;
    const error = data && typeof data.error === "string" ? data.error : undefined;
    return {
      ok: answer.ok,
      ...(error !== undefined && { error }),
      ...(data !== undefined && answer.ok && { data }),
    };
  }
  const query = (path: string, organizationId: string) =>
    call(`${path}?${new URLSearchParams({ organizationId })}`);
  return {
    list: () => call("list"),
    get: (organizationId) => query("get", organizationId),
    create: (input) => call("create", input),
    update: (organizationId, changes) => call("update", { organizationId, ...changes }),
    delete: (organizationId) => call("delete", { organizationId }),
    invite: (organizationId, input) => call("invite", { organizationId, ...input }),
    acceptInvitation: (invitationId) => call("accept", { invitationId }),
    declineInvitation: (invitationId) => call("decline", { invitationId }),
    revokeInvitation: (invitationId) => call("revoke", { invitationId }),
    setRole: (organizationId, userId, role) => call("set-role", { organizationId, userId, role }),
    removeMember: (organizationId, userId) => call("remove-member", { organizationId, userId }),
    leave: (organizationId) => call("leave", { organizationId }),
    transferOwnership: (organizationId, userId) => call("transfer", { organizationId, userId }),
    createTeam: (organizationId, name) => call("create-team", { organizationId, name }),
    deleteTeam: (teamId) => call("delete-team", { teamId }),
    setTeamMember: (teamId, userId, role) =>
      call("set-team-member", { teamId, userId, ...(role !== undefined && { role }) }),
    removeTeamMember: (teamId, userId) => call("remove-team-member", { teamId, userId }),
    setActive: (organizationId) =>
      call("set-active", organizationId === null ? {} : { organizationId }),
    listRoles: (organizationId) => query("roles", organizationId),
    createRole: (organizationId, name, permissions) =>
      call("create-role", { organizationId, name, permissions: JSON.stringify(permissions) }),
    updateRole: (organizationId, name, permissions) =>
      call("update-role", { organizationId, name, permissions: JSON.stringify(permissions) }),
    deleteRole: (organizationId, name) => call("delete-role", { organizationId, name }),
    async hasPermission(permissions, scope = {}) {
      const answer = await call("has-permission", {
        permissions: JSON.stringify(permissions),
        ...scope,
      });
      return answer.ok && answer.data?.allowed === true;
    },
  };
}
