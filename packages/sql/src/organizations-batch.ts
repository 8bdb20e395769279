/**
 * The organisation writes that decide something, for a database without interactive transactions
 * (Cloudflare D1): each is one conditional statement, or one batch of them, that the database
 * runs atomically, so that the decision and the write cannot be split by a parallel request.
 * Elsewhere the adapter takes the organisation's row lock in a transaction instead.
 */
import type { MembershipChange } from "@tessera/core/organizations";
import { type Kysely, sql } from "kysely";
import type { AtomicBatch } from "./batch.js";
import type { StoredDate, TesseraTableName } from "./schema.js";

/** A membership as the batch writes bind it (dates already in the dialect's form). */
export interface MemberValues {
  organizationId: string;
  userId: string;
  role: string;
  createdAt: StoredDate;
}

/** The four decisions, written as conditional statements. */
export interface BatchedOrganizationWrites {
  addMember(member: MemberValues): Promise<boolean>;
  setMemberRole(
    organizationId: string,
    userId: string,
    role: string,
    ownerRole: string,
  ): Promise<MembershipChange>;
  removeMember(
    organizationId: string,
    userId: string,
    ownerRole: string,
  ): Promise<MembershipChange>;
  settleInvitation(
    id: string,
    status: string,
    now: Date | number,
    member?: MemberValues,
  ): Promise<boolean>;
}

/**
 * The writes over `db` for tables named by `real`, sent with `batch`.
 *
 * @example
 * ```ts
 * const writes = batchedOrganizationWrites(db, real, batch)
 * await writes.setMemberRole("org-1", "user-1", "member", "owner") // "last-owner" for the only owner
 * ```
 */
export function batchedOrganizationWrites(
  db: Kysely<unknown>,
  real: (table: TesseraTableName) => string,
  batch: AtomicBatch,
): BatchedOrganizationWrites {
  const members = sql.table(real("organization_members"));
  const teamMembers = sql.table(real("organization_team_members"));
  const invitations = sql.table(real("organization_invitations"));
  const organizations = sql.table(real("organizations"));

  /** True when the member is not the only holder of `ownerRole` (the last owner stays). */
  const notLastOwner = (organizationId: string, userId: string, ownerRole: string) => sql`(
    (select role from ${members} where "organizationId" = ${organizationId} and "userId" = ${userId}) <> ${ownerRole}
    or (select count(*) from ${members} where "organizationId" = ${organizationId} and role = ${ownerRole}) > 1)`;

  /** Adds `member` unless they are one already, and only while `condition` holds. */
  const insertMember = (member: MemberValues, condition: ReturnType<typeof sql>) =>
    sql`insert into ${members} ("organizationId", "userId", role, "createdAt")
      select ${member.organizationId}, ${member.userId}, ${member.role}, ${member.createdAt}
      where ${condition} and not exists (select 1 from ${members}
        where "organizationId" = ${member.organizationId} and "userId" = ${member.userId})`;

  /** Why nothing changed: the member is there (so the last-owner rule refused it), or not. */
  async function refusal(organizationId: string, userId: string): Promise<MembershipChange> {
    const found = await sql`select 1 as found from ${members}
      where "organizationId" = ${organizationId} and "userId" = ${userId}`.execute(db);
    return found.rows.length > 0 ? "last-owner" : "not-found";
  }

  const changed = (result: { numAffectedRows?: bigint } | undefined) =>
    Number(result?.numAffectedRows ?? 0) > 0;

  return {
    async addMember(member) {
      const condition = sql`exists (select 1 from ${organizations} where id = ${member.organizationId})`;
      const [result] = await batch([insertMember(member, condition).compile(db)]);
      return changed(result);
    },

    async setMemberRole(organizationId, userId, role, ownerRole) {
      // Promoting to owner never leaves the organisation without one.
      const guard =
        role === ownerRole ? sql`1 = 1` : notLastOwner(organizationId, userId, ownerRole);
      const [result] = await batch([
        sql`update ${members} set role = ${role}
          where "organizationId" = ${organizationId} and "userId" = ${userId} and ${guard}`.compile(
          db,
        ),
      ]);
      return changed(result) ? "done" : refusal(organizationId, userId);
    },

    async removeMember(organizationId, userId, ownerRole) {
      // Team places first, under the same guard: both go, or (the last owner) neither.
      const guard = notLastOwner(organizationId, userId, ownerRole);
      const [, removed] = await batch([
        sql`delete from ${teamMembers}
          where "organizationId" = ${organizationId} and "userId" = ${userId} and ${guard}`.compile(
          db,
        ),
        sql`delete from ${members}
          where "organizationId" = ${organizationId} and "userId" = ${userId} and ${guard}`.compile(
          db,
        ),
      ]);
      return changed(removed) ? "done" : refusal(organizationId, userId);
    },

    async settleInvitation(id, status, now, member) {
      const pending = sql`exists (select 1 from ${invitations}
        where id = ${id} and status = 'pending' and expires > ${now})`;
      // The membership first, while the invitation is still pending: of two parallel accepts,
      // the batch that runs second finds it settled and adds nothing.
      const statements = member ? [insertMember(member, pending).compile(db)] : [];
      statements.push(
        sql`update ${invitations} set status = ${status}
          where id = ${id} and status = 'pending' and expires > ${now}`.compile(db),
      );
      const results = await batch(statements);
      return changed(results[results.length - 1]);
    },
  };
}
