/**
 * The organisation server functions, written once against an {@link ActionRunner}: every
 * integration hands its own runner (`actionRunner(req, config)` in Express, `actionRunner(event)`
 * in SvelteKit, `actionRunner()` in Next.js, the core's `actionRunner(request, config)`), so none
 * needs code for this extension.
 */
import { OrganizationActionRefused } from "../../errors.js";
import type { ActionRunner } from "../../lib/in-process.js";
import type { ActiveOrganization } from "./extension.js";
import { ORGANIZATIONS_ACTION } from "./extension.js";
import type { PermissionScope } from "./membership.js";
import type { Permissions, Statements } from "./permissions.js";
import type {
  InvitationRecord,
  MemberRecord,
  OrganizationRecord,
  OrganizationRoleRecord,
  TeamRecord,
} from "./storage.js";

/** An organisation as a member sees it. */
export interface OrganizationDetails {
  organization: OrganizationRecord;
  members: MemberRecord[];
  teams: TeamRecord[];
  /** Pending invitations; empty unless the caller may invite. */
  invitations: InvitationRecord[];
  membership: ActiveOrganization;
}

/** The organisation functions for server code, bound to a runner. */
export interface OrganizationsApi<S extends Statements = Statements> {
  /** The signed-in user's organisations with their role in each. */
  list(): Promise<(OrganizationRecord & { role: string })[]>;
  get(organizationId: string): Promise<OrganizationDetails>;
  /** Creates an organisation; the caller becomes its owner. */
  create(input: { name: string; slug: string }): Promise<OrganizationRecord>;
  update(organizationId: string, changes: { name?: string; slug?: string }): Promise<void>;
  delete(organizationId: string): Promise<void>;
  invite(
    organizationId: string,
    input: { email: string; role?: string },
  ): Promise<InvitationRecord>;
  /** Accepts an invitation made to the signed-in user's address. */
  acceptInvitation(invitationId: string): Promise<{ organizationId: string }>;
  declineInvitation(invitationId: string): Promise<void>;
  revokeInvitation(invitationId: string): Promise<void>;
  setRole(organizationId: string, userId: string, role: string): Promise<void>;
  removeMember(organizationId: string, userId: string): Promise<void>;
  leave(organizationId: string): Promise<void>;
  transferOwnership(organizationId: string, userId: string): Promise<void>;
  createTeam(organizationId: string, name: string): Promise<TeamRecord>;
  deleteTeam(teamId: string): Promise<void>;
  setTeamMember(teamId: string, userId: string, role?: string): Promise<void>;
  removeTeamMember(teamId: string, userId: string): Promise<void>;
  /** The roles a member may pick from: those in code, and the organisation's stored ones. */
  listRoles(
    organizationId: string,
  ): Promise<{ name: string; permissions: Permissions<S>; stored: boolean }[]>;
  /**
   * Stores a role of the organisation's own (`storedRoles`): it may grant no more than the
   * caller's own role, and never takes the name of a role in code.
   */
  createRole(
    organizationId: string,
    name: string,
    permissions: Permissions<S>,
  ): Promise<OrganizationRoleRecord>;
  /** Replaces what a stored role grants; its holders' sessions read it again at once. */
  updateRole(organizationId: string, name: string, permissions: Permissions<S>): Promise<void>;
  /** Removes a stored role that no member holds. */
  deleteRole(organizationId: string, name: string): Promise<void>;
  /** Makes `organizationId` the session's active organisation (`null`: none). */
  setActive(organizationId: string | null): Promise<ActiveOrganization | null>;
  /**
   * Whether the signed-in user may do everything `permissions` names, in the scope (default: the
   * active organisation). Answered from the session when it carries that membership unchanged;
   * exact after a change (a revoked role stops working at once, JWT sessions included).
   */
  hasPermission(permissions: Permissions<S>, scope?: PermissionScope): Promise<boolean>;
}

/**
 * The organisation server functions for one request. Call the state-changing ones from code that
 * your app protects against CSRF (server actions, form actions, a route with a CSRF token).
 *
 * @example
 * ```ts
 * import { actionRunner } from "@tessera/core"
 * import { organizationsApi } from "@tessera/core/organizations"
 * const orgs = organizationsApi(actionRunner(request, config))
 * if (!(await orgs.hasPermission({ member: ["delete"] }, { organizationId }))) throw new Error("no")
 * ```
 */
export function organizationsApi<S extends Statements = Statements>(
  run: ActionRunner,
): OrganizationsApi<S> {
  async function call<T>(subPath: string, body?: Record<string, unknown>): Promise<T> {
    const answer = await run({ action: ORGANIZATIONS_ACTION, subPath, ...(body && { body }) });
    const status = answer.status ?? 200;
    if (status !== 200) {
      const error = (answer.body as { error?: unknown } | undefined)?.error;
      const reason = typeof error === "string" ? error : "Refused";
      throw new OrganizationActionRefused(
        `organizations/${subPath} was refused (${status} ${reason}): the user must be signed in and a member of the organisation with a role that grants this.`,
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
    list: async () =>
      (await call<{ organizations: (OrganizationRecord & { role: string })[] }>("list"))
        .organizations,
    get: (organizationId) => call("get", { organizationId }),
    create: async (input) =>
      (await call<{ organization: OrganizationRecord }>("create", input)).organization,
    update: (organizationId, changes) => done(call("update", { organizationId, ...changes })),
    delete: (organizationId) => done(call("delete", { organizationId })),
    invite: async (organizationId, input) =>
      (await call<{ invitation: InvitationRecord }>("invite", { organizationId, ...input }))
        .invitation,
    acceptInvitation: (invitationId) => call("accept", { invitationId }),
    declineInvitation: (invitationId) => done(call("decline", { invitationId })),
    revokeInvitation: (invitationId) => done(call("revoke", { invitationId })),
    setRole: (organizationId, userId, role) =>
      done(call("set-role", { organizationId, userId, role })),
    removeMember: (organizationId, userId) =>
      done(call("remove-member", { organizationId, userId })),
    leave: (organizationId) => done(call("leave", { organizationId })),
    transferOwnership: (organizationId, userId) =>
      done(call("transfer", { organizationId, userId })),
    createTeam: async (organizationId, name) =>
      (await call<{ team: TeamRecord }>("create-team", { organizationId, name })).team,
    deleteTeam: (teamId) => done(call("delete-team", { teamId })),
    setTeamMember: (teamId, userId, role) =>
      done(call("set-team-member", { teamId, userId, ...(role !== undefined && { role }) })),
    removeTeamMember: (teamId, userId) => done(call("remove-team-member", { teamId, userId })),
    setActive: async (organizationId) =>
      (
        await call<{ activeOrganization: ActiveOrganization | null }>("set-active", {
          ...(organizationId !== null && { organizationId }),
        })
      ).activeOrganization,
    listRoles: async (organizationId) =>
      (
        await call<{ roles: { name: string; permissions: Permissions<S>; stored: boolean }[] }>(
          "roles",
          { organizationId },
        )
      ).roles,
    createRole: async (organizationId, name, permissions) =>
      (
        await call<{ role: OrganizationRoleRecord }>("create-role", {
          organizationId,
          name,
          permissions: JSON.stringify(permissions),
        })
      ).role,
    updateRole: (organizationId, name, permissions) =>
      done(call("update-role", { organizationId, name, permissions: JSON.stringify(permissions) })),
    deleteRole: (organizationId, name) => done(call("delete-role", { organizationId, name })),
    async hasPermission(permissions, scope = {}) {
      const answer = await call<{ allowed: boolean }>("has-permission", {
        permissions: JSON.stringify(permissions),
        ...scope,
      });
      return answer.allowed === true;
    },
  };
}
