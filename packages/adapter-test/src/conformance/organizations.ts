import type {
  InvitationRecord,
  MemberRecord,
  OrganizationAdapter,
  OrganizationRoleAdapter,
} from "@tessera/core/organizations";
import { describe, expect, test } from "vitest";
import type { SuiteContext } from "./context.js";

/**
 * Tessera's organisation methods (`@tessera/core/organizations`'s `OrganizationAdapter`):
 * organisations with unique slugs, memberships, single-use invitations, teams with team-scoped
 * roles, and the two decisions that must hold under concurrency: one membership from parallel
 * accepts of one invitation, and never an organisation without an owner. With `storedRoles`, also
 * the roles an organisation stores for itself (`OrganizationRoleAdapter`).
 */
export function organizationTests(context: SuiteContext, storedRoles = false): void {
  const { createdUser } = context;
  const adapter = () =>
    context.adapter() as unknown as OrganizationAdapter & OrganizationRoleAdapter;
  // Whole seconds plus milliseconds: every dialect must keep the milliseconds.
  const at = () => new Date(Math.floor(Date.now() / 1000) * 1000 + 321);
  const member = (organizationId: string, userId: string, role: string): MemberRecord => ({
    organizationId,
    userId,
    role,
    createdAt: at(),
  });
  /** An organisation owned by a fresh user. */
  async function createdOrganization() {
    const owner = await createdUser();
    const id = crypto.randomUUID();
    const organization = { id, name: "Acme", slug: `acme-${id.slice(0, 8)}`, createdAt: at() };
    expect(await adapter().createOrganization(organization, member(id, owner.id, "owner"))).toBe(
      true,
    );
    return { organization, owner };
  }
  const invitation = (organizationId: string, inviterId: string): InvitationRecord => ({
    id: crypto.randomUUID(),
    organizationId,
    email: `invitee-${crypto.randomUUID()}@example.com`,
    role: "member",
    inviterId,
    status: "pending",
    expires: new Date(Date.now() + 3_600_000),
    createdAt: at(),
  });

  describe("organisations (Tessera extension)", () => {
    test("createOrganization stores the organisation and its owner; a taken slug creates nothing", async () => {
      const { organization, owner } = await createdOrganization();
      expect(await adapter().getOrganization(organization.id)).toEqual(organization);
      expect(await adapter().getOrganizationBySlug(organization.slug)).toEqual(organization);
      expect(await adapter().getMember(organization.id, owner.id)).toMatchObject({
        role: "owner",
      });
      const other = await createdUser();
      const clash = { ...organization, id: crypto.randomUUID() };
      expect(await adapter().createOrganization(clash, member(clash.id, other.id, "owner"))).toBe(
        false,
      );
      expect(await adapter().getOrganization(clash.id)).toBeNull();
      expect(await adapter().getMember(clash.id, other.id)).toBeNull();
    });

    test("updateOrganization renames; a slug another organisation has is refused", async () => {
      const { organization } = await createdOrganization();
      const { organization: second } = await createdOrganization();
      expect(await adapter().updateOrganization(organization.id, { name: "Acme Ltd" })).toBe(true);
      expect((await adapter().getOrganization(organization.id))?.name).toBe("Acme Ltd");
      expect(await adapter().updateOrganization(organization.id, { slug: second.slug })).toBe(
        false,
      );
      expect((await adapter().getOrganization(organization.id))?.slug).toBe(organization.slug);
      expect(await adapter().updateOrganization(crypto.randomUUID(), { name: "x" })).toBe(false);
    });

    test("members: listed per organisation and per user, added once, roles changed", async () => {
      const { organization, owner } = await createdOrganization();
      const user = await createdUser();
      expect(await adapter().addMember(member(organization.id, user.id, "member"))).toBe(true);
      expect(await adapter().addMember(member(organization.id, user.id, "admin"))).toBe(false);
      expect((await adapter().getMember(organization.id, user.id))?.role).toBe("member");
      const listed = await adapter().listMembers(organization.id);
      expect(listed.map((m) => m.userId).sort()).toEqual([owner.id, user.id].sort());
      const mine = await adapter().listOrganizationsOfUser(user.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]?.organization).toEqual(organization);
      expect(mine[0]?.member.role).toBe("member");
      expect(await adapter().setMemberRole(organization.id, user.id, "admin", "owner")).toBe(
        "done",
      );
      expect((await adapter().getMember(organization.id, user.id))?.role).toBe("admin");
      expect(await adapter().setMemberRole(organization.id, "nobody", "admin", "owner")).toBe(
        "not-found",
      );
    });

    test("the last owner can be neither demoted nor removed; with a second owner both can", async () => {
      const { organization, owner } = await createdOrganization();
      expect(await adapter().setMemberRole(organization.id, owner.id, "admin", "owner")).toBe(
        "last-owner",
      );
      expect(await adapter().removeMember(organization.id, owner.id, "owner")).toBe("last-owner");
      const second = await createdUser();
      await adapter().addMember(member(organization.id, second.id, "owner"));
      expect(await adapter().setMemberRole(organization.id, owner.id, "admin", "owner")).toBe(
        "done",
      );
      expect(await adapter().removeMember(organization.id, owner.id, "owner")).toBe("done");
      expect(await adapter().getMember(organization.id, owner.id)).toBeNull();
      expect(await adapter().removeMember(organization.id, owner.id, "owner")).toBe("not-found");
    });

    test("race: two owners removing each other at once leave one owner", async () => {
      for (let round = 0; round < 5; round++) {
        const { organization, owner } = await createdOrganization();
        const second = await createdUser();
        await adapter().addMember(member(organization.id, second.id, "owner"));
        const results = await Promise.all([
          adapter().removeMember(organization.id, owner.id, "owner"),
          adapter().removeMember(organization.id, second.id, "owner"),
        ]);
        expect(results.filter((result) => result === "done")).toHaveLength(1);
        const owners = (await adapter().listMembers(organization.id)).filter(
          (m) => m.role === "owner",
        );
        expect(owners).toHaveLength(1);
      }
    });

    test("race: two owners demoting each other at once leave one owner", async () => {
      for (let round = 0; round < 5; round++) {
        const { organization, owner } = await createdOrganization();
        const second = await createdUser();
        await adapter().addMember(member(organization.id, second.id, "owner"));
        await Promise.all([
          adapter().setMemberRole(organization.id, owner.id, "member", "owner"),
          adapter().setMemberRole(organization.id, second.id, "member", "owner"),
        ]);
        const owners = (await adapter().listMembers(organization.id)).filter(
          (m) => m.role === "owner",
        );
        expect(owners).toHaveLength(1);
      }
    });

    test("invitations: stored, listed, settled once; an expired one cannot be settled", async () => {
      const { organization, owner } = await createdOrganization();
      const pending = invitation(organization.id, owner.id);
      await adapter().createInvitation(pending);
      expect(await adapter().getInvitation(pending.id)).toEqual(pending);
      expect((await adapter().listInvitations(organization.id)).map((i) => i.id)).toEqual([
        pending.id,
      ]);
      expect(await adapter().settleInvitation(pending.id, "declined")).toBe(true);
      expect((await adapter().getInvitation(pending.id))?.status).toBe("declined");
      expect(await adapter().settleInvitation(pending.id, "revoked")).toBe(false);
      const expired = {
        ...invitation(organization.id, owner.id),
        expires: new Date(Date.now() - 1),
      };
      await adapter().createInvitation(expired);
      const user = await createdUser();
      expect(
        await adapter().settleInvitation(
          expired.id,
          "accepted",
          member(organization.id, user.id, "member"),
        ),
      ).toBe(false);
      expect(await adapter().getMember(organization.id, user.id)).toBeNull();
      expect(await adapter().getInvitation(crypto.randomUUID())).toBeNull();
    });

    test("race: parallel accepts of one invitation settle it once and make one membership", async () => {
      const { organization, owner } = await createdOrganization();
      const pending = invitation(organization.id, owner.id);
      await adapter().createInvitation(pending);
      const user = await createdUser();
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          adapter().settleInvitation(
            pending.id,
            "accepted",
            member(organization.id, user.id, "member"),
          ),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const members = await adapter().listMembers(organization.id);
      expect(members.filter((m) => m.userId === user.id)).toHaveLength(1);
      expect((await adapter().getInvitation(pending.id))?.status).toBe("accepted");
    });

    test("teams: team-scoped roles per user, removed with the team or the membership", async () => {
      const { organization, owner } = await createdOrganization();
      const user = await createdUser();
      await adapter().addMember(member(organization.id, user.id, "member"));
      const team = {
        id: crypto.randomUUID(),
        organizationId: organization.id,
        name: "Core",
        createdAt: at(),
      };
      const other = { ...team, id: crypto.randomUUID(), name: "Web" };
      await adapter().createTeam(team);
      await adapter().createTeam(other);
      expect(await adapter().getTeam(team.id)).toEqual(team);
      expect((await adapter().listTeams(organization.id)).map((t) => t.id).sort()).toEqual(
        [team.id, other.id].sort(),
      );
      const place = {
        teamId: team.id,
        organizationId: organization.id,
        userId: user.id,
        role: "member",
      };
      await adapter().setTeamMember(place);
      await adapter().setTeamMember({ ...place, role: "lead" });
      await adapter().setTeamMember({ ...place, teamId: other.id });
      await adapter().setTeamMember({ ...place, userId: owner.id });
      const mine = await adapter().listTeamMembersOfUser(organization.id, user.id);
      expect(mine.map((p) => `${p.teamId}:${p.role}`).sort()).toEqual(
        [`${team.id}:lead`, `${other.id}:member`].sort(),
      );
      expect(await adapter().listTeamMembers(team.id)).toHaveLength(2);
      await adapter().removeTeamMember(team.id, owner.id);
      expect(await adapter().listTeamMembers(team.id)).toHaveLength(1);
      await adapter().deleteTeam(other.id);
      expect(await adapter().getTeam(other.id)).toBeNull();
      expect(await adapter().listTeamMembersOfUser(organization.id, user.id)).toHaveLength(1);
      expect(await adapter().removeMember(organization.id, user.id, "owner")).toBe("done");
      expect(await adapter().listTeamMembersOfUser(organization.id, user.id)).toHaveLength(0);
    });

    test("deleteUser removes the user's memberships and team places", async () => {
      const { organization } = await createdOrganization();
      const user = await createdUser();
      await adapter().addMember(member(organization.id, user.id, "member"));
      const team = {
        id: crypto.randomUUID(),
        organizationId: organization.id,
        name: "Core",
        createdAt: at(),
      };
      await adapter().createTeam(team);
      await adapter().setTeamMember({
        teamId: team.id,
        organizationId: organization.id,
        userId: user.id,
        role: "member",
      });
      await context.adapter().deleteUser?.(user.id);
      expect(await adapter().getMember(organization.id, user.id)).toBeNull();
      expect(await adapter().listTeamMembers(team.id)).toEqual([]);
      expect(await adapter().listMembers(organization.id)).toHaveLength(1);
    });

    test("deleteOrganization removes its members, invitations and teams", async () => {
      const { organization, owner } = await createdOrganization();
      const pending = invitation(organization.id, owner.id);
      await adapter().createInvitation(pending);
      const team = {
        id: crypto.randomUUID(),
        organizationId: organization.id,
        name: "Core",
        createdAt: at(),
      };
      await adapter().createTeam(team);
      await adapter().setTeamMember({
        teamId: team.id,
        organizationId: organization.id,
        userId: owner.id,
        role: "lead",
      });
      await adapter().deleteOrganization(organization.id);
      expect(await adapter().getOrganization(organization.id)).toBeNull();
      expect(await adapter().getMember(organization.id, owner.id)).toBeNull();
      expect(await adapter().getInvitation(pending.id)).toBeNull();
      expect(await adapter().getTeam(team.id)).toBeNull();
      expect(await adapter().listTeamMembers(team.id)).toHaveLength(0);
      expect(await adapter().listOrganizationsOfUser(owner.id)).toHaveLength(0);
    });

    if (storedRoles)
      describe("roles stored per organisation", () => {
        const role = (organizationId: string, name: string) => ({
          organizationId,
          name,
          permissions: { project: ["create", "update"], invoice: [] },
          createdAt: at(),
        });

        test("createOrganizationRole stores a role once per name; the same name elsewhere is another role", async () => {
          const { organization } = await createdOrganization();
          const { organization: other } = await createdOrganization();
          const billing = role(organization.id, "billing");
          expect(await adapter().createOrganizationRole(billing)).toBe(true);
          expect(await adapter().getOrganizationRole(organization.id, "billing")).toEqual(billing);
          expect(
            await adapter().createOrganizationRole({ ...billing, permissions: { project: [] } }),
          ).toBe(false);
          expect(
            (await adapter().getOrganizationRole(organization.id, "billing"))?.permissions,
          ).toEqual(billing.permissions);
          // A role belongs to one organisation: the other one does not see it.
          expect(await adapter().getOrganizationRole(other.id, "billing")).toBeNull();
          expect(await adapter().createOrganizationRole(role(other.id, "billing"))).toBe(true);
        });

        test("listOrganizationRoles lists one organisation's roles by name", async () => {
          const { organization } = await createdOrganization();
          await adapter().createOrganizationRole(role(organization.id, "support"));
          await adapter().createOrganizationRole(role(organization.id, "billing"));
          const listed = await adapter().listOrganizationRoles(organization.id);
          expect(listed.map((entry) => entry.name)).toEqual(["billing", "support"]);
          expect(await adapter().listOrganizationRoles(crypto.randomUUID())).toEqual([]);
        });

        test("updateOrganizationRole replaces what a role grants; an unknown role is answered false", async () => {
          const { organization } = await createdOrganization();
          await adapter().createOrganizationRole(role(organization.id, "billing"));
          const narrower = { project: ["create"] };
          expect(await adapter().updateOrganizationRole(organization.id, "billing", narrower)).toBe(
            true,
          );
          // The same permissions again still count as found (MySQL reports no changed row).
          expect(await adapter().updateOrganizationRole(organization.id, "billing", narrower)).toBe(
            true,
          );
          expect(
            (await adapter().getOrganizationRole(organization.id, "billing"))?.permissions,
          ).toEqual(narrower);
          expect(await adapter().updateOrganizationRole(organization.id, "nobody", narrower)).toBe(
            false,
          );
        });

        test("deleteOrganizationRole removes the role once; deleteOrganization removes them all", async () => {
          const { organization } = await createdOrganization();
          await adapter().createOrganizationRole(role(organization.id, "billing"));
          await adapter().createOrganizationRole(role(organization.id, "support"));
          expect(await adapter().deleteOrganizationRole(organization.id, "billing")).toBe(true);
          expect(await adapter().deleteOrganizationRole(organization.id, "billing")).toBe(false);
          expect(await adapter().getOrganizationRole(organization.id, "billing")).toBeNull();
          await adapter().deleteOrganization(organization.id);
          expect(await adapter().listOrganizationRoles(organization.id)).toEqual([]);
        });

        test("two parallel creates of one role name store one", async () => {
          const { organization } = await createdOrganization();
          const answers = await Promise.all([
            adapter().createOrganizationRole(role(organization.id, "billing")),
            adapter().createOrganizationRole({
              ...role(organization.id, "billing"),
              permissions: { project: ["delete"] },
            }),
          ]);
          expect(answers.filter(Boolean)).toHaveLength(1);
          expect(await adapter().listOrganizationRoles(organization.id)).toHaveLength(1);
        });
      });
  });
}
