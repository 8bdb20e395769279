/**
 * A user's membership as a permission check sees it: read from the adapter, carried in the
 * session (with the time it was read), and the marker in the shared store that makes a carried
 * copy stale when the membership (or a stored role it holds) changes. The `has-permission` action
 * and the plain `hasPermission(session, …)` decide the same way, here.
 */
import type { ResolvedConfig } from "../../lib/config/internal.js";
import { sharedStoreOf } from "../../lib/session/rate-limit.js";
import { grants, type Permissions, type Roles } from "./permissions.js";
import type { OrganizationAdapter, OrganizationRoleAdapter } from "./storage.js";

/** What a session carries about its active organisation. */
export interface ActiveOrganization {
  id: string;
  /** The user's role in it when the session last read the membership. */
  role: string;
  /** The user's role in each of its teams they are in, by team id. */
  teams: Record<string, string>;
  /**
   * What the role grants, when it is one the organisation stored for itself (roles in code are
   * looked up by name): a check answers from the session without reading the role.
   */
  permissions?: Permissions;
}

/** The membership as a session carries it: with the time (ms) it was read from the adapter. */
export type CarriedMembership = ActiveOrganization & { at: number };

/** The roles a check knows: in code, and (when on) those organisations store. */
export interface RoleBook {
  roles: Roles;
  teamRoles: Roles;
  storedRoles: boolean;
}

/** Where a permission is checked: an organisation (default: the active one) and a team in it. */
export interface PermissionScope {
  organizationId?: string;
  teamId?: string;
}

/** The adapter's organisation methods (present: the config check made sure). */
export function organizationStore(
  config: ResolvedConfig,
): OrganizationAdapter & Partial<OrganizationRoleAdapter> {
  return config.rawAdapter as unknown as OrganizationAdapter & Partial<OrganizationRoleAdapter>;
}

/** The key of the "membership changed" marker that makes sessions re-read a membership. */
function changedKey(organizationId: string, userId: string): string {
  return `tessera:org-changed:${encodeURIComponent(organizationId)}:${encodeURIComponent(userId)}`;
}

/**
 * Records that the membership of `userId` in `organizationId` changed: a session that carries
 * it from before reads it again (a revoked role stops working at once, JWT sessions included).
 */
export async function markChanged(
  config: ResolvedConfig,
  organizationId: string,
  userId: string,
): Promise<void> {
  const shared = sharedStoreOf(config);
  const key = changedKey(organizationId, userId);
  const ttl = Math.max(config.jwt.maxAge, config.session.maxAge);
  await shared.delete(key);
  await shared.add(key, String(Date.now()), ttl);
}

/** Whether a carried membership is still the one in the adapter (no change recorded since). */
async function isCurrent(
  config: ResolvedConfig,
  carried: CarriedMembership,
  userId: string,
): Promise<boolean> {
  const changed = await sharedStoreOf(config).get(changedKey(carried.id, userId));
  // A change in the very millisecond of the read may have missed it: counted as newer.
  return changed === null || Number(changed) < carried.at;
}

/**
 * What the organisation role `name` grants in `organizationId`: a role in code, else (when
 * stored roles are on) the organisation's own role of that name; null when there is none. A
 * stored role is looked up in its own organisation only, so a role of A means nothing in B.
 */
export async function rolePermissions(
  config: ResolvedConfig,
  book: RoleBook,
  organizationId: string,
  name: string,
): Promise<Permissions | null> {
  const inCode = Object.hasOwn(book.roles, name) ? book.roles[name] : undefined;
  if (inCode) return inCode;
  if (!book.storedRoles) return null;
  const stored = await organizationStore(config).getOrganizationRole?.(organizationId, name);
  return stored?.permissions ?? null;
}

/** The user's membership read from the adapter now: organisation role and team roles. */
export async function membershipNow(
  config: ResolvedConfig,
  book: RoleBook,
  organizationId: string,
  userId: string,
): Promise<ActiveOrganization | null> {
  const adapter = organizationStore(config);
  const member = await adapter.getMember(organizationId, userId);
  if (!member) return null;
  const places = await adapter.listTeamMembersOfUser(organizationId, userId);
  const teams = Object.fromEntries(places.map((place) => [place.teamId, place.role]));
  const membership: ActiveOrganization = { id: organizationId, role: member.role, teams };
  if (!Object.hasOwn(book.roles, member.role) && book.storedRoles) {
    const permissions = await rolePermissions(config, book, organizationId, member.role);
    if (permissions) membership.permissions = permissions;
  }
  return membership;
}

/** The permissions of a membership: its organisation role, plus its role in `teamId`. */
export function heldBy(
  book: RoleBook,
  membership: ActiveOrganization,
  teamId?: string,
): Permissions[] {
  const inCode = Object.hasOwn(book.roles, membership.role) ? book.roles[membership.role] : null;
  const held = [inCode ?? membership.permissions ?? {}];
  const teamRole = teamId === undefined ? undefined : membership.teams[teamId];
  if (teamRole !== undefined && Object.hasOwn(book.teamRoles, teamRole))
    held.push(book.teamRoles[teamRole] ?? {});
  return held;
}

/** What a check decided, and where from; with the membership read when it was not the session. */
export interface PermissionAnswer {
  allowed: boolean;
  /** The organisation checked (none: no scope and no active organisation). */
  organizationId?: string;
  source: "session" | "adapter" | "none";
  /** The membership as read now (null: none), when the session's copy was stale or absent. */
  renewed?: ActiveOrganization | null;
}

/**
 * Whether `userId` may do all of `asked` in `scope`: from the session's `carried` membership when
 * it is that organisation's and no change was recorded since it was read (one shared-store read),
 * else from the adapter.
 */
export async function decidePermission(
  config: ResolvedConfig,
  book: RoleBook,
  userId: string,
  carried: CarriedMembership | null,
  asked: Permissions,
  scope: PermissionScope,
): Promise<PermissionAnswer> {
  const organizationId = scope.organizationId ?? carried?.id;
  if (!organizationId) return { allowed: false, source: "none" };
  if (carried?.id === organizationId && (await isCurrent(config, carried, userId))) {
    const allowed = grants(heldBy(book, carried, scope.teamId), asked);
    return { allowed, organizationId, source: "session" };
  }
  const membership = await membershipNow(config, book, organizationId, userId);
  const allowed = membership !== null && grants(heldBy(book, membership, scope.teamId), asked);
  return { allowed, organizationId, source: "adapter", renewed: membership };
}

/** A carried membership from a claim, or null when the claim is absent or malformed. */
export function asCarried(value: unknown): CarriedMembership | null {
  if (typeof value !== "object" || value === null) return null;
  const claim = value as Partial<CarriedMembership>;
  if (typeof claim.id !== "string" || typeof claim.role !== "string") return null;
  if (typeof claim.at !== "number" || typeof claim.teams !== "object" || claim.teams === null)
    return null;
  if (
    claim.permissions !== undefined &&
    (typeof claim.permissions !== "object" || !claim.permissions)
  )
    return null;
  return claim as CarriedMembership;
}
