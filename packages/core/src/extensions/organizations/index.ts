/**
 * `@tessera/core/organizations`: organisations, members with roles, invitations and teams with
 * team-scoped roles, built as an extension. An app that does not import this entry never loads it.
 *
 * @example
 * ```ts
 * import { organizations } from "@tessera/core/organizations"
 * import { MemoryAdapter } from "@tessera/memory"
 * const config = { adapter: MemoryAdapter(), providers, experimental: { extensions: [organizations()] } }
 * ```
 */

export {
  type OrganizationDetails,
  type OrganizationsApi,
  organizationsApi,
} from "./api.js";
export {
  ACTIVE_ORGANIZATION_CLAIM,
  type ActiveOrganization,
  ORGANIZATIONS_ACTION,
  type OrganizationEvent,
  type OrganizationOptions,
  organizations,
} from "./extension.js";
export { hasPermission, PERMISSION_CHECK, type PermissionCheck } from "./has-permission.js";
export type { PermissionScope } from "./membership.js";
export { type OrganizationMessages, organizationMessages } from "./messages/index.js";
export {
  DEFAULT_ROLES,
  DEFAULT_TEAM_ROLES,
  grants,
  ORGANIZATION_STATEMENTS,
  type Permissions,
  type Roles,
  type Statements,
  type WithOrganizationStatements,
} from "./permissions.js";
export {
  type InvitationRecord,
  type InvitationStatus,
  type MemberRecord,
  type MembershipChange,
  ORGANIZATION_ADAPTER_METHODS,
  ORGANIZATION_ROLE_ADAPTER_METHODS,
  type OrganizationAdapter,
  type OrganizationRecord,
  type OrganizationRoleAdapter,
  type OrganizationRoleRecord,
  type TeamMemberRecord,
  type TeamRecord,
} from "./storage.js";
