/**
 * What organisations store, as optional adapter methods: `@tessera/memory`, `@tessera/sql` and
 * `@tessera/redis` implement them (the conformance suite's organisations section checks any
 * adapter). Types only: an adapter package imports them without loading the extension.
 */
import type { Awaitable } from "../../adapters.js";
import type { Permissions } from "./permissions.js";

/** An organisation (a tenant: a company, a club, a workspace). */
export interface OrganizationRecord {
  id: string;
  name: string;
  /** Unique across organisations; letters, digits and `-` (the extension checks the shape). */
  slug: string;
  createdAt: Date;
}

/** A user's membership of an organisation, with one organisation-wide role. */
export interface MemberRecord {
  organizationId: string;
  userId: string;
  /** A role name of the extension's `roles` (`owner`, `admin`, `member` by default). */
  role: string;
  createdAt: Date;
}

/** Where an invitation stands; only a `pending` one can change, and only once. */
export type InvitationStatus = "pending" | "accepted" | "declined" | "revoked";

/** An invitation by e-mail to join an organisation with a role. */
export interface InvitationRecord {
  id: string;
  organizationId: string;
  /** The invited address, lower-cased; only a user signed in with it may accept. */
  email: string;
  role: string;
  inviterId: string;
  status: InvitationStatus;
  expires: Date;
  createdAt: Date;
}

/** A team inside an organisation. */
export interface TeamRecord {
  id: string;
  organizationId: string;
  name: string;
  createdAt: Date;
}

/** A member's place in a team, with a role that holds in that team only. */
export interface TeamMemberRecord {
  teamId: string;
  organizationId: string;
  userId: string;
  role: string;
}

/**
 * A role an organisation defined for itself (beside the roles in code), with what it grants.
 * It holds in that organisation only: the same name in another organisation is another role.
 */
export interface OrganizationRoleRecord {
  organizationId: string;
  /** Unique in the organisation, and never the name of a role defined in code. */
  name: string;
  permissions: Permissions;
  createdAt: Date;
}

/** What a change of a membership answered: done, nothing to change, or refused. */
export type MembershipChange = "done" | "not-found" | "last-owner";

/**
 * The adapter methods organisations need. The writes that decide something (accepting an
 * invitation, removing or demoting an owner) are one atomic operation each, so that two instances
 * (or two parallel requests) cannot both pass.
 */
export interface OrganizationAdapter {
  /**
   * Creates the organisation and its first member (its owner) together; false (nothing created)
   * when the slug is taken.
   */
  createOrganization(organization: OrganizationRecord, owner: MemberRecord): Awaitable<boolean>;
  getOrganization(id: string): Awaitable<OrganizationRecord | null>;
  getOrganizationBySlug(slug: string): Awaitable<OrganizationRecord | null>;
  /** Changes name or slug; false when the organisation is gone or the new slug is taken. */
  updateOrganization(
    id: string,
    changes: Partial<Pick<OrganizationRecord, "name" | "slug">>,
  ): Awaitable<boolean>;
  /**
   * Removes the organisation with its members, invitations, teams and team members (and its
   * stored roles, where the adapter has {@link OrganizationRoleAdapter}).
   */
  deleteOrganization(id: string): Awaitable<void>;
  /** The organisations the user is a member of, with the user's membership. */
  listOrganizationsOfUser(
    userId: string,
  ): Awaitable<{ organization: OrganizationRecord; member: MemberRecord }[]>;
  getMember(organizationId: string, userId: string): Awaitable<MemberRecord | null>;
  listMembers(organizationId: string): Awaitable<MemberRecord[]>;
  /** Adds a member; false when the user is one already (the stored role is kept). */
  addMember(member: MemberRecord): Awaitable<boolean>;
  /**
   * Sets the member's role. Atomic: an organisation keeps at least one `owner` (`ownerRole`), so
   * demoting the last one answers `last-owner` and changes nothing, even when two owners demote
   * each other at once.
   */
  setMemberRole(
    organizationId: string,
    userId: string,
    role: string,
    ownerRole: string,
  ): Awaitable<MembershipChange>;
  /**
   * Removes the member and their team places. Atomic as {@link OrganizationAdapter.setMemberRole}:
   * the last owner is never removed.
   */
  removeMember(
    organizationId: string,
    userId: string,
    ownerRole: string,
  ): Awaitable<MembershipChange>;
  createInvitation(invitation: InvitationRecord): Awaitable<void>;
  getInvitation(id: string): Awaitable<InvitationRecord | null>;
  listInvitations(organizationId: string): Awaitable<InvitationRecord[]>;
  /**
   * Moves a pending, unexpired invitation to `status`; with `member` (when accepting), adds that
   * membership in the same operation unless the user is a member already. Answers whether this
   * call settled it: of two parallel accepts of one invitation exactly one answers true, and one
   * membership exists.
   */
  settleInvitation(
    id: string,
    status: Exclude<InvitationStatus, "pending">,
    member?: MemberRecord,
  ): Awaitable<boolean>;
  createTeam(team: TeamRecord): Awaitable<void>;
  getTeam(id: string): Awaitable<TeamRecord | null>;
  listTeams(organizationId: string): Awaitable<TeamRecord[]>;
  /** Removes the team and its members' places in it. */
  deleteTeam(id: string): Awaitable<void>;
  /** Adds the member to the team, or changes their role in it. */
  setTeamMember(member: TeamMemberRecord): Awaitable<void>;
  removeTeamMember(teamId: string, userId: string): Awaitable<void>;
  /** The user's places in the teams of one organisation. */
  listTeamMembersOfUser(organizationId: string, userId: string): Awaitable<TeamMemberRecord[]>;
  listTeamMembers(teamId: string): Awaitable<TeamMemberRecord[]>;
}

/**
 * The adapter methods of roles stored per organisation (`organizations({ storedRoles: true })`).
 * Deleting an organisation (`deleteOrganization`) removes its stored roles too.
 */
export interface OrganizationRoleAdapter {
  /** Stores the role; false (nothing stored) when the organisation has a role of that name. */
  createOrganizationRole(role: OrganizationRoleRecord): Awaitable<boolean>;
  getOrganizationRole(
    organizationId: string,
    name: string,
  ): Awaitable<OrganizationRoleRecord | null>;
  listOrganizationRoles(organizationId: string): Awaitable<OrganizationRoleRecord[]>;
  /** Replaces what the role grants; false when the organisation has no role of that name. */
  updateOrganizationRole(
    organizationId: string,
    name: string,
    permissions: Permissions,
  ): Awaitable<boolean>;
  /** Removes the role; false when there was none of that name. */
  deleteOrganizationRole(organizationId: string, name: string): Awaitable<boolean>;
}

/** The method names, for the config check (`requires`). */
export const ORGANIZATION_ADAPTER_METHODS = [
  "createOrganization",
  "getOrganization",
  "getOrganizationBySlug",
  "updateOrganization",
  "deleteOrganization",
  "listOrganizationsOfUser",
  "getMember",
  "listMembers",
  "addMember",
  "setMemberRole",
  "removeMember",
  "createInvitation",
  "getInvitation",
  "listInvitations",
  "settleInvitation",
  "createTeam",
  "getTeam",
  "listTeams",
  "deleteTeam",
  "setTeamMember",
  "removeTeamMember",
  "listTeamMembersOfUser",
  "listTeamMembers",
] as const satisfies readonly (keyof OrganizationAdapter)[];

/** The stored-role method names, checked when `storedRoles` is on. */
export const ORGANIZATION_ROLE_ADAPTER_METHODS = [
  "createOrganizationRole",
  "getOrganizationRole",
  "listOrganizationRoles",
  "updateOrganizationRole",
  "deleteOrganizationRole",
] as const satisfies readonly (keyof OrganizationRoleAdapter)[];
