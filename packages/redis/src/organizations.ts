/**
 * The organisation methods of the Redis adapter. An organisation's records share the hash tag
 * `{org:<id>}`, so on Redis Cluster they live in one slot and one script can decide over them:
 * removing or demoting an owner, and accepting an invitation, are each one script, atomic
 * against parallel calls on every instance.
 */
import type {
  InvitationRecord,
  MemberRecord,
  MembershipChange,
  OrganizationAdapter,
  OrganizationRecord,
  OrganizationRoleAdapter,
  OrganizationRoleRecord,
  TeamMemberRecord,
  TeamRecord,
} from "@tessera/core/organizations";
import type { Cluster, Redis } from "ioredis";

/**
 * Sets (ARGV[3] given) or removes (ARGV[3] empty) the member ARGV[1] of the members hash KEYS[1],
 * unless they are the last holder of the owner role ARGV[2]; on removal their team places in
 * KEYS[2] go too.
 */
const CHANGE_MEMBER = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 'not-found' end
local member = cjson.decode(current)
if member.role == ARGV[2] and ARGV[3] ~= ARGV[2] then
  local owners = 0
  for _, value in ipairs(redis.call('HVALS', KEYS[1])) do
    if cjson.decode(value).role == ARGV[2] then owners = owners + 1 end
  end
  if owners <= 1 then return 'last-owner' end
end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
  for _, field in ipairs(redis.call('HKEYS', KEYS[2])) do
    if cjson.decode(field)[2] == ARGV[1] then redis.call('HDEL', KEYS[2], field) end
  end
else
  member.role = ARGV[3]
  redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(member))
end
return 'done'`;

/**
 * Moves the pending, unexpired invitation ARGV[1] of KEYS[1] to ARGV[2] (ISO now: ARGV[3]); with
 * a member (ARGV[4] user id, ARGV[5] JSON), adds it to KEYS[2] unless present. 1 when settled.
 */
const SETTLE_INVITATION = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 0 end
local invitation = cjson.decode(current)
if invitation.status ~= 'pending' or invitation.expires <= ARGV[3] then return 0 end
invitation.status = ARGV[2]
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(invitation))
if ARGV[4] ~= '' then redis.call('HSETNX', KEYS[2], ARGV[4], ARGV[5]) end
return 1`;

/** Adds the member ARGV[2] (JSON) as ARGV[1] to KEYS[2] while the organisation KEYS[1] exists. */
const ADD_MEMBER = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])`;

/** Deletes KEYS[1] only while it still holds ARGV[1]. */
const DELETE_IF_EQUAL = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

type Dated<T, K extends keyof T> = Omit<T, K> & { [P in K]: string };

const iso = (date: Date) => date.toISOString();

function organizationFromJson(json: string): OrganizationRecord {
  const stored = JSON.parse(json) as Dated<OrganizationRecord, "createdAt">;
  return { ...stored, createdAt: new Date(stored.createdAt) };
}
function memberFromJson(json: string): MemberRecord {
  const stored = JSON.parse(json) as Dated<MemberRecord, "createdAt">;
  return { ...stored, createdAt: new Date(stored.createdAt) };
}
function memberToJson(member: MemberRecord): string {
  return JSON.stringify({ ...member, createdAt: iso(member.createdAt) });
}
function invitationFromJson(json: string): InvitationRecord {
  const stored = JSON.parse(json) as Dated<InvitationRecord, "createdAt" | "expires">;
  return { ...stored, expires: new Date(stored.expires), createdAt: new Date(stored.createdAt) };
}
function roleFromJson(json: string): OrganizationRoleRecord {
  const stored = JSON.parse(json) as Dated<OrganizationRoleRecord, "createdAt">;
  return { ...stored, createdAt: new Date(stored.createdAt) };
}
function roleToJson(role: OrganizationRoleRecord): string {
  return JSON.stringify({ ...role, createdAt: iso(role.createdAt) });
}

/**
 * Replaces the role ARGV[1] of KEYS[1] with ARGV[2] while it exists; 0 when it is gone. The JSON
 * is built outside: cjson would turn an empty action list into an object.
 */
const REPLACE_ROLE = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

function teamFromJson(json: string): TeamRecord {
  const stored = JSON.parse(json) as Dated<TeamRecord, "createdAt">;
  return { ...stored, createdAt: new Date(stored.createdAt) };
}

/** The organisation methods of the adapter, and what deleting a user does to their memberships. */
export interface RedisOrganizations {
  methods: OrganizationAdapter & OrganizationRoleAdapter;
  /** Removes the user's memberships and team places (before the user's own keys go). */
  forgetUser(userId: string): Promise<void>;
  /** The user's index of organisations, deleted with the user's other keys. */
  userIndexKey(userId: string): string;
}

/**
 * The organisation methods on `redis` under `prefix`.
 *
 * @example
 * ```ts
 * const { methods } = redisOrganizations(redis, "tessera:")
 * await methods.getOrganization("org-1")
 * ```
 */
export function redisOrganizations(redis: Redis | Cluster, prefix: string): RedisOrganizations {
  const part = encodeURIComponent;
  const tag = (id: string) => `${prefix}org:{${part(id)}}`;
  const keys = {
    organization: tag,
    members: (id: string) => `${tag(id)}:members`,
    invitations: (id: string) => `${tag(id)}:invitations`,
    teams: (id: string) => `${tag(id)}:teams`,
    teamMembers: (id: string) => `${tag(id)}:team-members`,
    roles: (id: string) => `${tag(id)}:roles`,
    slug: (slug: string) => `${prefix}org-slug:${part(slug)}`,
    invitation: (id: string) => `${prefix}org-invitation:${part(id)}`,
    team: (id: string) => `${prefix}org-team:${part(id)}`,
    /** Set: the organisations a user is a member of (an index; the members hash decides). */
    userOrganizations: (userId: string) => `${prefix}user:{${part(userId)}}:organizations`,
  };
  const teamField = (teamId: string, userId: string) => JSON.stringify([teamId, userId]);
  const run = (script: string, keyList: string[], ...args: string[]) =>
    redis.eval(script, keyList.length, ...keyList, ...args);

  async function getOrganization(id: string): Promise<OrganizationRecord | null> {
    const json = await redis.get(keys.organization(id));
    return json === null ? null : organizationFromJson(json);
  }

  async function organizationOf(key: string): Promise<string | null> {
    return redis.get(key);
  }

  async function teamMembersWhere(
    organizationId: string,
    matches: (member: TeamMemberRecord) => boolean,
  ): Promise<TeamMemberRecord[]> {
    const values = await redis.hvals(keys.teamMembers(organizationId));
    return values.map((json) => JSON.parse(json) as TeamMemberRecord).filter(matches);
  }

  async function changeMember(
    organizationId: string,
    userId: string,
    ownerRole: string,
    role: string,
  ): Promise<MembershipChange> {
    const answer = await run(
      CHANGE_MEMBER,
      [keys.members(organizationId), keys.teamMembers(organizationId)],
      userId,
      ownerRole,
      role,
    );
    return answer as MembershipChange;
  }

  const methods: OrganizationAdapter & OrganizationRoleAdapter = {
    async createOrganization(organization, owner) {
      // The slug is claimed first: of two organisations with one slug, one gets it.
      if ((await redis.set(keys.slug(organization.slug), organization.id, "NX")) !== "OK")
        return false;
      const created = await redis.set(
        keys.organization(organization.id),
        JSON.stringify({ ...organization, createdAt: iso(organization.createdAt) }),
        "NX",
      );
      if (created !== "OK") {
        await run(DELETE_IF_EQUAL, [keys.slug(organization.slug)], organization.id);
        return false;
      }
      await redis.hset(keys.members(organization.id), owner.userId, memberToJson(owner));
      await redis.sadd(keys.userOrganizations(owner.userId), organization.id);
      return true;
    },

    getOrganization,

    async getOrganizationBySlug(slug) {
      const id = await redis.get(keys.slug(slug));
      const organization = id === null ? null : await getOrganization(id);
      return organization?.slug === slug ? organization : null;
    },

    async updateOrganization(id, changes) {
      const existing = await getOrganization(id);
      if (!existing) return false;
      const slug = changes.slug ?? existing.slug;
      if (slug !== existing.slug) {
        const claimed = await redis.set(keys.slug(slug), id, "NX");
        if (claimed !== "OK" && (await redis.get(keys.slug(slug))) !== id) return false;
      }
      const updated = {
        ...existing,
        ...(changes.name !== undefined && { name: changes.name }),
        slug,
      };
      await redis.set(
        keys.organization(id),
        JSON.stringify({ ...updated, createdAt: iso(updated.createdAt) }),
      );
      if (slug !== existing.slug) await run(DELETE_IF_EQUAL, [keys.slug(existing.slug)], id);
      return true;
    },

    async deleteOrganization(id) {
      const existing = await getOrganization(id);
      const [userIds, invitationIds, teamIds] = await Promise.all([
        redis.hkeys(keys.members(id)),
        redis.hkeys(keys.invitations(id)),
        redis.hkeys(keys.teams(id)),
      ]);
      // One slot (the organisation's hash tag): a multi-key DEL runs on a cluster too.
      await redis.del(
        keys.organization(id),
        keys.members(id),
        keys.invitations(id),
        keys.teams(id),
        keys.teamMembers(id),
        keys.roles(id),
      );
      await Promise.all([
        ...userIds.map((userId) => redis.srem(keys.userOrganizations(userId), id)),
        ...invitationIds.map((invitationId) => redis.del(keys.invitation(invitationId))),
        ...teamIds.map((teamId) => redis.del(keys.team(teamId))),
        ...(existing ? [run(DELETE_IF_EQUAL, [keys.slug(existing.slug)], id)] : []),
      ]);
    },

    async listOrganizationsOfUser(userId) {
      const ids = await redis.smembers(keys.userOrganizations(userId));
      const found = await Promise.all(
        ids.map(async (id) => {
          const [organization, member] = await Promise.all([
            getOrganization(id),
            redis.hget(keys.members(id), userId),
          ]);
          return organization && member ? { organization, member: memberFromJson(member) } : null;
        }),
      );
      return found.filter((entry) => entry !== null);
    },

    async getMember(organizationId, userId) {
      const json = await redis.hget(keys.members(organizationId), userId);
      return json === null ? null : memberFromJson(json);
    },

    async listMembers(organizationId) {
      const values = await redis.hvals(keys.members(organizationId));
      return values
        .map(memberFromJson)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },

    async addMember(member) {
      const added = await run(
        ADD_MEMBER,
        [keys.organization(member.organizationId), keys.members(member.organizationId)],
        member.userId,
        memberToJson(member),
      );
      if (added !== 1) return false;
      await redis.sadd(keys.userOrganizations(member.userId), member.organizationId);
      return true;
    },

    async setMemberRole(organizationId, userId, role, ownerRole) {
      return changeMember(organizationId, userId, ownerRole, role);
    },

    async removeMember(organizationId, userId, ownerRole) {
      const answer = await changeMember(organizationId, userId, ownerRole, "");
      if (answer === "done") await redis.srem(keys.userOrganizations(userId), organizationId);
      return answer;
    },

    async createInvitation(invitation) {
      await redis.set(keys.invitation(invitation.id), invitation.organizationId);
      await redis.hset(
        keys.invitations(invitation.organizationId),
        invitation.id,
        JSON.stringify({
          ...invitation,
          expires: iso(invitation.expires),
          createdAt: iso(invitation.createdAt),
        }),
      );
    },

    async getInvitation(id) {
      const organizationId = await organizationOf(keys.invitation(id));
      if (organizationId === null) return null;
      const json = await redis.hget(keys.invitations(organizationId), id);
      return json === null ? null : invitationFromJson(json);
    },

    async listInvitations(organizationId) {
      const values = await redis.hvals(keys.invitations(organizationId));
      return values
        .map(invitationFromJson)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },

    async settleInvitation(id, status, member) {
      const organizationId = await organizationOf(keys.invitation(id));
      if (organizationId === null) return false;
      const settled = await run(
        SETTLE_INVITATION,
        [keys.invitations(organizationId), keys.members(organizationId)],
        id,
        status,
        iso(new Date()),
        member?.userId ?? "",
        member ? memberToJson(member) : "",
      );
      if (settled !== 1) return false;
      if (member) await redis.sadd(keys.userOrganizations(member.userId), organizationId);
      return true;
    },

    async createTeam(team) {
      await redis.set(keys.team(team.id), team.organizationId);
      await redis.hset(
        keys.teams(team.organizationId),
        team.id,
        JSON.stringify({ ...team, createdAt: iso(team.createdAt) }),
      );
    },

    async getTeam(id) {
      const organizationId = await organizationOf(keys.team(id));
      if (organizationId === null) return null;
      const json = await redis.hget(keys.teams(organizationId), id);
      return json === null ? null : teamFromJson(json);
    },

    async listTeams(organizationId) {
      const values = await redis.hvals(keys.teams(organizationId));
      return values.map(teamFromJson).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },

    async deleteTeam(id) {
      const organizationId = await organizationOf(keys.team(id));
      if (organizationId === null) return;
      const places = await teamMembersWhere(organizationId, (member) => member.teamId === id);
      const transaction = redis.multi().hdel(keys.teams(organizationId), id);
      if (places.length > 0)
        transaction.hdel(
          keys.teamMembers(organizationId),
          ...places.map((place) => teamField(place.teamId, place.userId)),
        );
      await transaction.exec();
      await redis.del(keys.team(id));
    },

    async setTeamMember(member) {
      await redis.hset(
        keys.teamMembers(member.organizationId),
        teamField(member.teamId, member.userId),
        JSON.stringify(member),
      );
    },

    async removeTeamMember(teamId, userId) {
      const organizationId = await organizationOf(keys.team(teamId));
      if (organizationId === null) return;
      await redis.hdel(keys.teamMembers(organizationId), teamField(teamId, userId));
    },

    async listTeamMembersOfUser(organizationId, userId) {
      return teamMembersWhere(organizationId, (member) => member.userId === userId);
    },

    async listTeamMembers(teamId) {
      const organizationId = await organizationOf(keys.team(teamId));
      if (organizationId === null) return [];
      return teamMembersWhere(organizationId, (member) => member.teamId === teamId);
    },

    async createOrganizationRole(role) {
      return (
        (await redis.hsetnx(keys.roles(role.organizationId), role.name, roleToJson(role))) === 1
      );
    },

    async getOrganizationRole(organizationId, name) {
      const json = await redis.hget(keys.roles(organizationId), name);
      return json === null ? null : roleFromJson(json);
    },

    async listOrganizationRoles(organizationId) {
      const all = await redis.hvals(keys.roles(organizationId));
      return all.map(roleFromJson).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },

    async updateOrganizationRole(organizationId, name, permissions) {
      const current = await redis.hget(keys.roles(organizationId), name);
      if (current === null) return false;
      const role = { ...roleFromJson(current), permissions };
      const replaced = await run(
        REPLACE_ROLE,
        [keys.roles(organizationId)],
        name,
        roleToJson(role),
      );
      return Number(replaced) === 1;
    },

    async deleteOrganizationRole(organizationId, name) {
      return (await redis.hdel(keys.roles(organizationId), name)) === 1;
    },
  };

  return {
    methods,
    userIndexKey: keys.userOrganizations,
    async forgetUser(userId) {
      const ids = await redis.smembers(keys.userOrganizations(userId));
      // No role is the owner role here: a deleted user leaves whatever they held.
      await Promise.all(ids.map((id) => changeMember(id, userId, "\u0000", "")));
    },
  };
}
