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
  type InvitationRecord,
  type InvitationStatus,
  type MemberRecord,
  type MembershipChange,
  ORGANIZATION_ADAPTER_METHODS,
  type OrganizationAdapter,
  type OrganizationRecord,
  type TeamMemberRecord,
  type TeamRecord,
} from "./storage.js";
