/**
 * Organisations (`@tessera/core/organizations`) over HTTP and in-process, with the in-memory
 * adapter (the adapters' own behaviour, races included, is the conformance suite's): the invite →
 * accept → permission check → role change cycle on JWT and database sessions, and the attacks,
 * each test named after one.
 */
import { type AuthConfig, actionRunner, assertStartupConfig, readSession } from "@tessera/core";
import { InvalidExtension, OrganizationSessionUnreadable } from "@tessera/core/errors";
import {
  hasPermission,
  type OrganizationEvent,
  type OrganizationOptions,
  organizations,
  organizationsApi,
} from "@tessera/core/organizations";
import Credentials from "@tessera/core/providers/credentials";
import Nodemailer from "@tessera/core/providers/nodemailer";
import { memoryStore } from "@tessera/core/store";
import { MemoryAdapter } from "@tessera/memory";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer } from "./email-helpers.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const USERS = {
  ada: { id: "ada", email: "ada@example.com", name: "Ada", emailVerified: null },
  bob: { id: "bob", email: "bob@example.com", name: "Bob", emailVerified: null },
  eve: { id: "eve", email: "eve@example.com", name: "Eve", emailVerified: null },
  mia: { id: "mia", email: "mia@example.com", name: "Mia", emailVerified: null },
};
type Name = keyof typeof USERS;

const PROJECT_STATEMENTS = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  role: ["create", "update", "delete"],
  project: ["create", "update", "delete"],
} as const;

function setup(
  strategy: "jwt" | "database" = "jwt",
  options: OrganizationOptions<typeof PROJECT_STATEMENTS> = {},
) {
  const adapter = MemoryAdapter();
  for (const user of Object.values(USERS)) void adapter.createUser(user);
  /** Membership reads of the adapter: a check answered from the session makes none. */
  const reads = { members: 0 };
  const getMember = adapter.getMember;
  adapter.getMember = (organizationId, userId) => {
    reads.members += 1;
    return getMember(organizationId, userId);
  };
  const storage = memoryStore();
  const events: OrganizationEvent[] = [];
  const { logger, errors } = recordingLogger();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    logger,
    rateLimit: { storage },
    experimental: {
      extensions: [
        organizations<typeof PROJECT_STATEMENTS>({
          roles: {
            owner: PROJECT_STATEMENTS,
            admin: {
              organization: ["update"],
              member: ["create", "update", "delete"],
              invitation: ["create", "cancel"],
              team: ["create", "update", "delete"],
              project: ["create", "update", "delete"],
            },
            member: { project: ["create"] },
          },
          teamRoles: { admin: { team: ["update"], project: ["update"] }, member: {} },
          onEvent: (event) => {
            events.push(event);
          },
          ...options,
        }),
      ],
    },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (credentials) => USERS[credentials.username as Name] ?? null,
      }),
    ],
  };
  return { adapter, config, events, errors, reads };
}

async function signedIn(config: AuthConfig, name: Name): Promise<Client> {
  const client = new Client(config);
  const csrfToken = await client.csrfToken();
  await client.post("/auth/callback/credentials", { csrfToken, username: name, password: "pw" });
  expect(await client.session()).toMatchObject({ user: { email: USERS[name].email } });
  return client;
}

/** A POST with the CSRF token, as the client functions send it. */
async function post(client: Client, subPath: string, body: Record<string, string> = {}) {
  const csrfToken = await client.csrfToken();
  const response = await client.post(`/auth/organizations/${subPath}`, { csrfToken, ...body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function created(client: Client, slug: string): Promise<string> {
  const answer = await post(client, "create", { name: slug.toUpperCase(), slug });
  expect(answer.status).toBe(200);
  return (answer.body.organization as { id: string }).id;
}

/** `inviter` invites `name` with `role`; `name` accepts. */
async function joined(
  inviter: Client,
  member: Client,
  name: Name,
  organizationId: string,
  role = "member",
) {
  const invited = await post(inviter, "invite", { organizationId, email: USERS[name].email, role });
  expect(invited.status).toBe(200);
  const invitationId = (invited.body.invitation as { id: string }).id;
  const accepted = await post(member, "accept", { invitationId });
  expect(accepted.status).toBe(200);
  return invitationId;
}

/** A GET of an organisation sub-path with query parameters. */
async function get(client: Client, subPath: string, query: Record<string, string>) {
  const response = await client.get(`/auth/organizations/${subPath}?${new URLSearchParams(query)}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function can(client: Client, permissions: object, scope: Record<string, string> = {}) {
  const answer = await post(client, "has-permission", {
    permissions: JSON.stringify(permissions),
    ...scope,
  });
  expect(answer.status).toBe(200);
  return answer.body as { allowed: boolean; source: string };
}

describe.each(["jwt", "database"] as const)("organisations with %s sessions", (strategy) => {
  it("invite → accept → permission check → role change: the revoked role stops working at once", async () => {
    const { config, events } = setup(strategy);
    const ada = await signedIn(config, "ada");
    const bob = await signedIn(config, "bob");
    const organizationId = await created(ada, "acme");
    await joined(ada, bob, "bob", organizationId, "admin");
    // A change recorded in the same millisecond as a read counts as newer than it (the safe
    // side); the clock moves on first, so that the claim below is read after the accept.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const active = await post(bob, "set-active", { organizationId });
    expect(active.body.activeOrganization).toMatchObject({ id: organizationId, role: "admin" });
    expect(await bob.session()).toMatchObject({
      activeOrganization: { id: organizationId, role: "admin" },
    });
    // Carried by the session, unchanged since: no adapter read decides.
    expect(await can(bob, { project: ["delete"] })).toEqual({ allowed: true, source: "session" });
    const demoted = await post(ada, "set-role", { organizationId, userId: "bob", role: "member" });
    expect(demoted.status).toBe(200);
    expect(await can(bob, { project: ["delete"] })).toEqual({ allowed: false, source: "adapter" });
    expect(await can(bob, { project: ["create"] })).toMatchObject({ allowed: true });
    // The session's claim was renewed by that read: the session shows the new role.
    expect(await bob.session()).toMatchObject({ activeOrganization: { role: "member" } });
    const removed = await post(ada, "remove-member", { organizationId, userId: "bob" });
    expect(removed.status).toBe(200);
    expect(await can(bob, { project: ["create"] })).toMatchObject({ allowed: false });
    expect(events.map((event) => event.type)).toEqual([
      "organizationCreated",
      "invitationCreated",
      "invitationAccepted",
      "activeOrganizationChanged",
      "memberRoleChanged",
      "memberRemoved",
    ]);
  });

  it("switches the active organisation between the user's own, and refuses one they are not in", async () => {
    const { config } = setup(strategy);
    const ada = await signedIn(config, "ada");
    const eve = await signedIn(config, "eve");
    const first = await created(ada, "first");
    const second = await created(ada, "second");
    const others = await created(eve, "others");
    await post(ada, "set-active", { organizationId: first });
    expect(await ada.session()).toMatchObject({ activeOrganization: { id: first, role: "owner" } });
    await post(ada, "set-active", { organizationId: second });
    expect(await ada.session()).toMatchObject({ activeOrganization: { id: second } });
    expect((await post(ada, "set-active", { organizationId: others })).status).toBe(404);
    expect(await ada.session()).toMatchObject({ activeOrganization: { id: second } });
    await post(ada, "set-active", {});
    expect(await ada.session()).not.toHaveProperty("activeOrganization");
  });
});

describe("organisation attacks", () => {
  it("IDOR: a member of organisation A can neither read nor change organisation B", async () => {
    const { config, adapter } = setup();
    const ada = await signedIn(config, "ada");
    const eve = await signedIn(config, "eve");
    const theirs = await created(ada, "victim");
    await created(eve, "attacker");
    const bob = await signedIn(config, "bob");
    const invitationId = (
      (await post(ada, "invite", { organizationId: theirs, email: "mia@example.com" })).body
        .invitation as { id: string }
    ).id;
    await joined(ada, bob, "bob", theirs);
    const team = (await post(ada, "create-team", { organizationId: theirs, name: "Core" })).body
      .team as { id: string };
    const attempts = [
      await post(eve, "get", { organizationId: theirs }),
      await post(eve, "update", { organizationId: theirs, name: "Pwned" }),
      await post(eve, "delete", { organizationId: theirs }),
      await post(eve, "invite", { organizationId: theirs, email: "eve2@example.com" }),
      await post(eve, "set-role", { organizationId: theirs, userId: "bob", role: "admin" }),
      await post(eve, "remove-member", { organizationId: theirs, userId: "bob" }),
      await post(eve, "revoke", { invitationId }),
      await post(eve, "create-team", { organizationId: theirs, name: "Mine" }),
      await post(eve, "delete-team", { teamId: team.id }),
      await post(eve, "set-team-member", { teamId: team.id, userId: "eve", role: "admin" }),
      await post(eve, "transfer", { organizationId: theirs, userId: "eve" }),
    ];
    // Not even the organisation's existence leaks: the answer is "not found".
    for (const attempt of attempts) expect(attempt.status).toBe(404);
    expect((await adapter.getOrganization(theirs))?.name).toBe("VICTIM");
    expect((await adapter.getMember(theirs, "bob"))?.role).toBe("member");
    expect(await adapter.getMember(theirs, "eve")).toBeNull();
    expect((await adapter.getInvitation(invitationId))?.status).toBe("pending");
    expect(await adapter.getTeam(team.id)).not.toBeNull();
    expect(await can(eve, { project: ["create"] }, { organizationId: theirs })).toMatchObject({
      allowed: false,
    });
  });

  it("privilege escalation: a member cannot raise their own role, an admin cannot make or unmake an owner", async () => {
    const { config, adapter } = setup();
    const ada = await signedIn(config, "ada");
    const bob = await signedIn(config, "bob");
    const mia = await signedIn(config, "mia");
    const organizationId = await created(ada, "acme");
    await joined(ada, bob, "bob", organizationId, "admin");
    await joined(ada, mia, "mia", organizationId, "member");
    expect(
      (await post(mia, "set-role", { organizationId, userId: "mia", role: "admin" })).status,
    ).toBe(403);
    expect(
      (await post(bob, "set-role", { organizationId, userId: "bob", role: "owner" })).status,
    ).toBe(403);
    expect(
      (await post(bob, "set-role", { organizationId, userId: "mia", role: "owner" })).status,
    ).toBe(403);
    expect(
      (await post(bob, "set-role", { organizationId, userId: "ada", role: "member" })).status,
    ).toBe(403);
    expect((await post(bob, "remove-member", { organizationId, userId: "ada" })).status).toBe(403);
    // Nor through an invitation of a second address as owner, nor through a made-up role.
    expect(
      (await post(bob, "invite", { organizationId, email: "x@example.com", role: "owner" })).status,
    ).toBe(403);
    expect(
      (await post(bob, "invite", { organizationId, email: "x@example.com", role: "root" })).status,
    ).toBe(403);
    expect((await post(bob, "transfer", { organizationId, userId: "bob" })).status).toBe(403);
    expect((await adapter.getMember(organizationId, "mia"))?.role).toBe("member");
    expect((await adapter.getMember(organizationId, "bob"))?.role).toBe("admin");
    expect((await adapter.getMember(organizationId, "ada"))?.role).toBe("owner");
    // What an admin may do, they can.
    expect(
      (await post(bob, "set-role", { organizationId, userId: "mia", role: "admin" })).status,
    ).toBe(200);
  });

  it("an admin of one organisation cannot act in another where they are a plain member", async () => {
    const { config, adapter } = setup();
    const ada = await signedIn(config, "ada");
    const bob = await signedIn(config, "bob");
    const mia = await signedIn(config, "mia");
    const mine = await created(bob, "bobs");
    const theirs = await created(ada, "adas");
    await joined(ada, bob, "bob", theirs, "member");
    await joined(ada, mia, "mia", theirs, "member");
    // Bob's session is active in the organisation he administers.
    await post(bob, "set-active", { organizationId: mine });
    expect(
      (await post(bob, "set-role", { organizationId: theirs, userId: "mia", role: "admin" }))
        .status,
    ).toBe(403);
    expect(
      (await post(bob, "remove-member", { organizationId: theirs, userId: "mia" })).status,
    ).toBe(403);
    expect(
      (await post(bob, "invite", { organizationId: theirs, email: "x@example.com" })).status,
    ).toBe(403);
    expect(await can(bob, { member: ["update"] }, { organizationId: theirs })).toMatchObject({
      allowed: false,
    });
    expect(await can(bob, { member: ["update"] })).toMatchObject({
      allowed: true,
      source: "session",
    });
    expect((await adapter.getMember(theirs, "mia"))?.role).toBe("member");
  });

  it("an invitation accepted by another address is refused, and stays open for the invited one", async () => {
    const { config, adapter } = setup();
    const ada = await signedIn(config, "ada");
    const eve = await signedIn(config, "eve");
    const mia = await signedIn(config, "mia");
    const organizationId = await created(ada, "acme");
    const invitationId = (
      (await post(ada, "invite", { organizationId, email: "MIA@example.com" })).body.invitation as {
        id: string;
      }
    ).id;
    expect((await post(eve, "accept", { invitationId })).status).toBe(404);
    expect((await post(eve, "decline", { invitationId })).status).toBe(404);
    expect(
      (await eve.get(`/auth/organizations/invitation?invitationId=${invitationId}`)).status,
    ).toBe(404);
    expect(await adapter.getMember(organizationId, "eve")).toBeNull();
    expect((await post(mia, "accept", { invitationId })).status).toBe(200);
    expect((await adapter.getMember(organizationId, "mia"))?.role).toBe("member");
    // Single use: a second accept (or a replay of the request) is refused.
    expect((await post(mia, "accept", { invitationId })).status).toBe(410);
  });

  it("sendInvitation gets the invitation and a link only the invited address can open; an expired one cannot be accepted", async () => {
    const sent: { email: string; organization: string; url: string }[] = [];
    const { config, adapter } = setup("jwt", {
      sendInvitation: ({ invitation, organization, url }) => {
        sent.push({ email: invitation.email, organization: organization.name, url });
      },
    });
    const ada = await signedIn(config, "ada");
    const mia = await signedIn(config, "mia");
    const eve = await signedIn(config, "eve");
    const organizationId = await created(ada, "acme");
    await post(ada, "invite", { organizationId, email: "mia@example.com" });
    expect(sent).toEqual([
      {
        email: "mia@example.com",
        organization: "ACME",
        url: expect.stringMatching(
          /^http:\/\/localhost:3000\/auth\/organizations\/join\?invitationId=/,
        ),
      },
    ]);
    const link = new URL(sent[0]?.url ?? "");
    // The page: another account is told it is for another address, never which one.
    const toEve = await eve.get(link.pathname + link.search);
    expect(toEve.status).toBe(403);
    expect(await toEve.text()).not.toContain("mia@example.com");
    const page = await mia.get(link.pathname + link.search);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("ACME invites you to join as member.");
    const api = `/auth/organizations/invitation?invitationId=${link.searchParams.get("invitationId")}`;
    expect((await eve.get(api)).status).toBe(404);
    const shown = await mia.get(api);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({
      invitation: { email: "mia@example.com", status: "pending" },
      organization: { id: organizationId, name: "ACME" },
    });
    const expiring = setup("jwt", { invitationMaxAge: 0 });
    const owner = await signedIn(expiring.config, "ada");
    const invitee = await signedIn(expiring.config, "mia");
    const expiredOrganization = await created(owner, "acme");
    const invited = await post(owner, "invite", {
      organizationId: expiredOrganization,
      email: "mia@example.com",
    });
    const invitationId = (invited.body.invitation as { id: string }).id;
    expect((await post(invitee, "accept", { invitationId })).status).toBe(410);
    expect(await expiring.adapter.getMember(expiredOrganization, "mia")).toBeNull();
    expect(await adapter.getMember(organizationId, "mia")).toBeNull();
  });

  it("a revoked or declined invitation cannot be accepted afterwards", async () => {
    const { config, adapter, events } = setup();
    const ada = await signedIn(config, "ada");
    const mia = await signedIn(config, "mia");
    const organizationId = await created(ada, "acme");
    const invite = async () =>
      (
        (await post(ada, "invite", { organizationId, email: "mia@example.com" })).body
          .invitation as { id: string }
      ).id;
    const revoked = await invite();
    expect((await post(ada, "revoke", { invitationId: revoked })).status).toBe(200);
    expect((await post(mia, "accept", { invitationId: revoked })).status).toBe(410);
    const declined = await invite();
    expect((await post(mia, "decline", { invitationId: declined })).status).toBe(200);
    expect((await post(mia, "accept", { invitationId: declined })).status).toBe(410);
    expect(await adapter.getMember(organizationId, "mia")).toBeNull();
    expect(events.map((event) => event.type)).toEqual([
      "organizationCreated",
      "invitationCreated",
      "invitationRevoked",
      "invitationCreated",
      "invitationDeclined",
    ]);
  });

  it("two parallel accepts of one invitation make one membership", async () => {
    const { config, adapter } = setup();
    const ada = await signedIn(config, "ada");
    const mia = await signedIn(config, "mia");
    const organizationId = await created(ada, "acme");
    const invitationId = (
      (await post(ada, "invite", { organizationId, email: "mia@example.com" })).body.invitation as {
        id: string;
      }
    ).id;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post(mia, "accept", { invitationId })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(
      (await adapter.listMembers(organizationId)).filter((m) => m.userId === "mia"),
    ).toHaveLength(1);
  });

  it("CSRF: every mutation without the token is refused and changes nothing", async () => {
    const { config, adapter } = setup();
    const ada = await signedIn(config, "ada");
    const organizationId = await created(ada, "acme");
    const forged = {
      create: { name: "X", slug: "forged" },
      update: { organizationId, name: "Forged" },
      delete: { organizationId },
      invite: { organizationId, email: "eve@example.com", role: "admin" },
      "set-active": { organizationId },
      "create-team": { organizationId, name: "Forged" },
      transfer: { organizationId, userId: "eve" },
      leave: { organizationId },
    };
    for (const [subPath, body] of Object.entries(forged)) {
      // A cross-site form: the browser sends the cookies, the attacker knows no token.
      const response = await ada.post(`/auth/organizations/${subPath}`, body);
      expect(response.status, subPath).toBe(403);
      expect(await response.json()).toEqual({ error: "MissingCSRF" });
    }
    expect((await adapter.getOrganization(organizationId))?.name).toBe("ACME");
    expect(await adapter.getOrganizationBySlug("forged")).toBeNull();
    expect(await adapter.listInvitations(organizationId)).toEqual([]);
    expect(await adapter.listTeams(organizationId)).toEqual([]);
  });

  it("the last owner cannot leave; after transferring ownership they can", async () => {
    const { config, adapter, events } = setup();
    const ada = await signedIn(config, "ada");
    const bob = await signedIn(config, "bob");
    const organizationId = await created(ada, "acme");
    expect(await post(ada, "leave", { organizationId })).toEqual({
      status: 409,
      body: { error: "LastOwner" },
    });
    await joined(ada, bob, "bob", organizationId);
    expect((await post(ada, "transfer", { organizationId, userId: "bob" })).status).toBe(200);
    expect((await adapter.getMember(organizationId, "bob"))?.role).toBe("owner");
    expect((await adapter.getMember(organizationId, "ada"))?.role).toBe("admin");
    expect((await post(ada, "leave", { organizationId })).status).toBe(200);
    expect(await adapter.getMember(organizationId, "ada")).toBeNull();
    expect(events.slice(-2).map((event) => event.type)).toEqual([
      "ownershipTransferred",
      "memberLeft",
    ]);
  });

  it("team-scoped roles: a team admin manages their team only, and their grants hold in it only", async () => {
    const { config, adapter } = setup();
    const ada = await signedIn(config, "ada");
    const bob = await signedIn(config, "bob");
    const mia = await signedIn(config, "mia");
    const organizationId = await created(ada, "acme");
    await joined(ada, bob, "bob", organizationId);
    await joined(ada, mia, "mia", organizationId);
    const core = (await post(ada, "create-team", { organizationId, name: "Core" })).body.team as {
      id: string;
    };
    const web = (await post(ada, "create-team", { organizationId, name: "Web" })).body.team as {
      id: string;
    };
    expect(
      (await post(ada, "set-team-member", { teamId: core.id, userId: "bob", role: "admin" }))
        .status,
    ).toBe(200);
    await post(bob, "set-active", { organizationId });
    expect(await can(bob, { project: ["update"] }, { teamId: core.id })).toMatchObject({
      allowed: true,
    });
    expect(await can(bob, { project: ["update"] }, { teamId: web.id })).toMatchObject({
      allowed: false,
    });
    expect(await can(bob, { project: ["update"] })).toMatchObject({ allowed: false });
    expect(
      (await post(bob, "set-team-member", { teamId: core.id, userId: "mia", role: "member" }))
        .status,
    ).toBe(200);
    expect(
      (await post(bob, "set-team-member", { teamId: web.id, userId: "mia", role: "member" }))
        .status,
    ).toBe(403);
    expect((await post(bob, "delete-team", { teamId: core.id })).status).toBe(403);
    expect(await adapter.listTeamMembers(web.id)).toEqual([]);
    // The team role changes: the session's grant ends at once.
    expect(
      (await post(ada, "set-team-member", { teamId: core.id, userId: "bob", role: "member" }))
        .status,
    ).toBe(200);
    expect(await can(bob, { project: ["update"] }, { teamId: core.id })).toMatchObject({
      allowed: false,
    });
  });

  it("malformed input is refused with a 4xx, never a stack trace", async () => {
    const { config, errors } = setup();
    const ada = await signedIn(config, "ada");
    const organizationId = await created(ada, "acme");
    const bad = [
      await post(ada, "has-permission", { permissions: "{not json" }),
      await post(ada, "has-permission", { permissions: '["project"]' }),
      await post(ada, "has-permission", { permissions: '{"project":[1]}' }),
      await post(ada, "create", { name: "x", slug: "../../etc" }),
      await post(ada, "create", { name: "x".repeat(1000), slug: "ok" }),
      await post(ada, "invite", { organizationId, email: "not-an-address" }),
      await post(ada, "get", {}),
      await post(ada, "accept", { invitationId: "'; drop table users; --" }),
      await post(ada, "nope", {}),
    ];
    for (const answer of bad) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    expect((await ada.get("/auth/organizations/create")).status).toBe(405);
    expect(errors).toEqual([]);
    const anonymous = new Client(config);
    expect((await anonymous.get("/auth/organizations/list")).status).toBe(401);
  });

  it("a config whose adapter lacks the organisation methods stops at start-up with the fix", () => {
    const { config } = setup();
    const plain = { ...MemoryAdapter() } as Record<string, unknown>;
    delete plain.settleInvitation;
    expect(() => assertStartupConfig({ ...config, adapter: plain as never })).toThrow(
      InvalidExtension,
    );
    expect(() => assertStartupConfig({ ...config, adapter: plain as never })).toThrow(
      /settleInvitation/,
    );
  });
});

describe("invitation e-mail and page", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp?.close());

  /** The config of `setup` with an SMTP e-mail provider beside the credentials one. */
  function withMail() {
    const fixture = setup();
    const mail = Nodemailer({ server: smtp.url, from: "Tessera Test <no-reply@tessera.test>" });
    fixture.config.providers = [...(fixture.config.providers ?? []), mail];
    return fixture;
  }

  it("an invitation goes out through the configured e-mail provider, linking to the built-in page", async () => {
    const { config, adapter } = withMail();
    const ada = await signedIn(config, "ada");
    const mia = await signedIn(config, "mia");
    const organizationId = await created(ada, "acme");
    await post(ada, "invite", { organizationId, email: "mia@example.com", role: "admin" });
    const mail = await smtp.nextMail();
    expect(mail.to).toEqual(["mia@example.com"]);
    const match = /http:\/\/localhost:3000\/auth\/organizations\/join\?invitationId=[\w-]+/.exec(
      mail.text,
    );
    expect(match).not.toBeNull();
    const link = new URL(match?.[0] ?? "");
    // Signed out: sign-in is offered, the organisation is not shown.
    const anonymous = await new Client(config).get(link.pathname + link.search);
    const signedOutPage = await anonymous.text();
    expect(anonymous.status).toBe(200);
    expect(signedOutPage).toContain("/auth/signin?callbackUrl=");
    expect(signedOutPage).not.toContain("ACME");
    // Signed in with the invited address: the page shows it, and its form accepts it.
    const page = await mia.get(link.pathname + link.search);
    const markup = await page.text();
    expect(markup).toContain("ACME invites you to join as admin.");
    const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(markup)?.[1] ?? "";
    const invitationId = link.searchParams.get("invitationId") ?? "";
    const accepted = await mia.post("/auth/organizations/join", {
      csrfToken,
      invitationId,
      answer: "accept",
    });
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toContain("now a member of ACME");
    expect(await adapter.getMember(organizationId, "mia")).toMatchObject({ role: "admin" });
    // Single use: the page now says it is closed.
    expect((await mia.get(link.pathname + link.search)).status).toBe(410);
  });

  it("CSRF: the page's accept without the token is refused and makes no member", async () => {
    const { config, adapter } = withMail();
    const ada = await signedIn(config, "ada");
    const mia = await signedIn(config, "mia");
    const organizationId = await created(ada, "acme");
    const invited = await post(ada, "invite", { organizationId, email: "mia@example.com" });
    await smtp.nextMail();
    const invitationId = (invited.body.invitation as { id: string }).id;
    const forged = await mia.post("/auth/organizations/join", { invitationId, answer: "accept" });
    expect(forged.status).toBe(403);
    expect(await adapter.getMember(organizationId, "mia")).toBeNull();
  });
});

describe("organisation server functions", () => {
  it("serve the whole cycle in-process through any integration's runner", async () => {
    const { config } = setup();
    const adaBrowser = await signedIn(config, "ada");
    const miaBrowser = await signedIn(config, "mia");
    const runner = (client: Client) =>
      actionRunner(
        { url: ORIGIN, headers: new Headers({ cookie: client.cookieHeader() }) },
        config,
      );
    const ada = organizationsApi<typeof PROJECT_STATEMENTS>(runner(adaBrowser));
    const mia = organizationsApi<typeof PROJECT_STATEMENTS>(runner(miaBrowser));
    const organization = await ada.create({ name: "Acme", slug: "acme" });
    const invitation = await ada.invite(organization.id, {
      email: "mia@example.com",
      role: "admin",
    });
    expect(await mia.acceptInvitation(invitation.id)).toMatchObject({
      organizationId: organization.id,
    });
    expect(
      await mia.hasPermission({ project: ["delete"] }, { organizationId: organization.id }),
    ).toBe(true);
    await ada.setRole(organization.id, "mia", "member");
    expect(
      await mia.hasPermission({ project: ["delete"] }, { organizationId: organization.id }),
    ).toBe(false);
    expect((await mia.list()).map((entry) => entry.role)).toEqual(["member"]);
    await expect(mia.delete(organization.id)).rejects.toMatchObject({
      type: "OrganizationActionRefused",
      reason: "Forbidden",
      status: 403,
    });
    const details = await ada.get(organization.id);
    expect(details.members.map((member) => member.userId).sort()).toEqual(["ada", "mia"]);
  });
});

/** `ada` owns "acme" with stored roles on; `bob` is an admin of it, `mia` a member. */
async function withStoredRoles(strategy: "jwt" | "database" = "jwt") {
  const fixture = setup(strategy, {
    storedRoles: true,
    roles: {
      owner: PROJECT_STATEMENTS,
      admin: {
        member: ["create", "update", "delete"],
        invitation: ["create", "cancel"],
        role: ["create", "update", "delete"],
        project: ["create", "update"],
      },
      member: { project: ["create"] },
    },
  });
  const ada = await signedIn(fixture.config, "ada");
  const bob = await signedIn(fixture.config, "bob");
  const mia = await signedIn(fixture.config, "mia");
  const organizationId = await created(ada, "acme");
  await joined(ada, bob, "bob", organizationId, "admin");
  await joined(ada, mia, "mia", organizationId, "member");
  return { ...fixture, ada, bob, mia, organizationId };
}

const role = (organizationId: string, name: string, permissions: object) => ({
  organizationId,
  name,
  permissions: JSON.stringify(permissions),
});

describe.each(["jwt", "database"] as const)(
  "roles stored per organisation with %s sessions",
  (strategy) => {
    it("an admin stores a role and hands it on; its holder's rights follow every change at once", async () => {
      const { ada, bob, mia, organizationId, events } = await withStoredRoles(strategy);
      const stored = await post(
        bob,
        "create-role",
        role(organizationId, "reviewer", { project: ["update"] }),
      );
      expect(stored.status).toBe(200);
      expect(
        (await post(bob, "set-role", { organizationId, userId: "mia", role: "reviewer" })).status,
      ).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await post(mia, "set-active", { organizationId });
      expect(await mia.session()).toMatchObject({
        activeOrganization: { role: "reviewer", permissions: { project: ["update"] } },
      });
      expect(await can(mia, { project: ["update"] })).toEqual({ allowed: true, source: "session" });
      expect(await can(mia, { project: ["create"] })).toEqual({
        allowed: false,
        source: "session",
      });
      // Narrowing the stored role takes the right away from its holder's session at once.
      expect((await post(ada, "update-role", role(organizationId, "reviewer", {}))).status).toBe(
        200,
      );
      expect(await can(mia, { project: ["update"] })).toEqual({
        allowed: false,
        source: "adapter",
      });
      const listed = await get(ada, "roles", { organizationId });
      expect(listed.body.roles).toContainEqual({ name: "reviewer", permissions: {}, stored: true });
      // A role a member holds cannot be deleted; once nobody holds it, it can.
      expect((await post(ada, "delete-role", { organizationId, name: "reviewer" })).status).toBe(
        409,
      );
      await post(ada, "set-role", { organizationId, userId: "mia", role: "member" });
      expect((await post(ada, "delete-role", { organizationId, name: "reviewer" })).status).toBe(
        200,
      );
      expect(events.map((event) => event.type)).toEqual(
        expect.arrayContaining(["roleCreated", "roleUpdated", "roleDeleted"]),
      );
    });
  },
);

describe("stored-role attacks", () => {
  it("privilege escalation: a member cannot store or change a role granting more than they hold", async () => {
    const { ada, bob, mia, organizationId, adapter } = await withStoredRoles();
    // bob (admin) may store roles, but not one with the owner's `organization: ["delete"]`...
    const wider = await post(
      bob,
      "create-role",
      role(organizationId, "root", { organization: ["delete"] }),
    );
    expect(wider).toMatchObject({ status: 403, body: { error: "RoleNotGrantable" } });
    // ...nor one with an action he lacks on a resource he holds in part.
    const more = await post(
      bob,
      "create-role",
      role(organizationId, "pm", { project: ["delete"] }),
    );
    expect(more.status).toBe(403);
    // A stored role stronger than his own he may neither change nor delete.
    const lead = role(organizationId, "lead", { project: ["delete"] });
    expect((await post(ada, "create-role", lead)).status).toBe(200);
    expect((await post(bob, "update-role", { ...lead, permissions: "{}" })).status).toBe(403);
    expect((await post(bob, "delete-role", { organizationId, name: "lead" })).status).toBe(403);
    // Nor may anyone shadow a role in code: `owner` keeps meaning what the code says.
    const shadow = await post(ada, "create-role", role(organizationId, "owner", {}));
    expect(shadow).toMatchObject({ status: 409, body: { error: "RoleExists" } });
    // mia (member) may not store roles at all.
    expect((await post(mia, "create-role", role(organizationId, "x", {}))).status).toBe(403);
    expect((await adapter.listOrganizationRoles(organizationId)).map((r) => r.name)).toEqual([
      "lead",
    ]);
  });

  it("a role stored in organisation A cannot be used in organisation B", async () => {
    const { ada, organizationId: a, config } = await withStoredRoles();
    expect(
      (await post(ada, "create-role", role(a, "auditor", { project: ["update"] }))).status,
    ).toBe(200);
    const eve = await signedIn(config, "eve");
    const mia = await signedIn(config, "mia");
    const b = await created(eve, "other");
    await joined(eve, mia, "mia", b, "member");
    // B has no role `auditor`: neither handing it on nor inviting with it works there.
    const handed = await post(eve, "set-role", {
      organizationId: b,
      userId: "mia",
      role: "auditor",
    });
    expect(handed).toMatchObject({ status: 403, body: { error: "RoleNotGrantable" } });
    const invited = await post(eve, "invite", {
      organizationId: b,
      email: "bob@example.com",
      role: "auditor",
    });
    expect(invited.status).toBe(403);
    // Nor can B's owner change A's role, or read A's roles (IDOR).
    expect((await post(eve, "update-role", role(b, "auditor", {}))).status).toBe(404);
    expect((await post(eve, "update-role", role(a, "auditor", {}))).status).toBe(404);
    expect((await get(eve, "roles", { organizationId: a })).status).toBe(404);
    // B's own `auditor` is another role: holding it grants nothing of A's.
    expect((await post(eve, "create-role", role(b, "auditor", {}))).status).toBe(200);
    expect(
      (await post(eve, "set-role", { organizationId: b, userId: "mia", role: "auditor" })).status,
    ).toBe(200);
    expect(await can(mia, { project: ["update"] }, { organizationId: b })).toMatchObject({
      allowed: false,
    });
  });

  it("stored roles answer 404 unless switched on, and need the adapter's role methods", async () => {
    const { config } = setup();
    const ada = await signedIn(config, "ada");
    const organizationId = await created(ada, "acme");
    const answer = await post(ada, "create-role", role(organizationId, "x", {}));
    expect(answer).toMatchObject({ status: 404, body: { error: "StoredRolesOff" } });
    const { config: on } = setup("jwt", { storedRoles: true });
    const plain = { ...MemoryAdapter() } as Record<string, unknown>;
    delete plain.createOrganizationRole;
    expect(() => assertStartupConfig({ ...on, adapter: plain as never })).toThrow(
      /createOrganizationRole/,
    );
  });
});

describe.each(["jwt", "database"] as const)(
  "hasPermission(session, …) with %s sessions",
  (strategy) => {
    /** The session as server code reads it in-process (what `auth()` answers). */
    async function sessionOf(config: AuthConfig, client: Client) {
      const headers = new Headers({ cookie: client.cookieHeader() });
      return (await readSession(config, { url: ORIGIN, headers })).session;
    }

    it("answers from the session without a membership read, and a revoked role stops working at once", async () => {
      const { config, reads } = setup(strategy);
      const ada = await signedIn(config, "ada");
      const bob = await signedIn(config, "bob");
      const organizationId = await created(ada, "acme");
      const team = (await post(ada, "create-team", { organizationId, name: "Core" })).body.team as {
        id: string;
      };
      await joined(ada, bob, "bob", organizationId, "admin");
      await post(ada, "set-team-member", { teamId: team.id, userId: "bob", role: "admin" });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await post(bob, "set-active", { organizationId });
      const session = await sessionOf(config, bob);
      reads.members = 0;
      expect(await hasPermission(session, { project: ["delete"] }, { organizationId })).toBe(true);
      expect(await hasPermission(session, { project: ["update"] }, { teamId: team.id })).toBe(true);
      expect(await hasPermission(session, { organization: ["delete"] })).toBe(false);
      expect(reads.members).toBe(0);
      // Demoted: the same session object (a JWT still saying `admin`) stops granting at once.
      await post(ada, "set-role", { organizationId, userId: "bob", role: "member" });
      expect(await hasPermission(session, { project: ["delete"] }, { organizationId })).toBe(false);
      expect(await hasPermission(session, { project: ["create"] }, { organizationId })).toBe(true);
      await post(ada, "remove-member", { organizationId, userId: "bob" });
      expect(await hasPermission(session, { project: ["create"] }, { organizationId })).toBe(false);
    });

    it("checks an organisation other than the active one from the database, and none as refused", async () => {
      const { config } = setup(strategy);
      const ada = await signedIn(config, "ada");
      const first = await created(ada, "first");
      const second = await created(ada, "second");
      await post(ada, "set-active", { organizationId: first });
      const session = await sessionOf(config, ada);
      expect(
        await hasPermission(session, { organization: ["delete"] }, { organizationId: second }),
      ).toBe(true);
      expect(
        await hasPermission(session, { organization: ["delete"] }, { organizationId: "elsewhere" }),
      ).toBe(false);
      expect(await hasPermission(null, { project: ["create"] })).toBe(false);
    });

    it("a forged session (from JSON, or written by the caller) is refused, never trusted", async () => {
      const { config } = setup(strategy);
      const ada = await signedIn(config, "ada");
      const organizationId = await created(ada, "acme");
      await post(ada, "set-active", { organizationId });
      const session = await sessionOf(config, ada);
      const forged = JSON.parse(JSON.stringify(session)) as object;
      expect(forged).toMatchObject({ activeOrganization: { role: "owner" } });
      await expect(hasPermission(forged, { organization: ["delete"] })).rejects.toBeInstanceOf(
        OrganizationSessionUnreadable,
      );
      await expect(
        hasPermission({ activeOrganization: { id: organizationId, role: "owner", teams: {} } }, {}),
      ).rejects.toThrow(/auth\(\)/);
    });
  },
);

describe("loading", () => {
  /** The source files a bundle of `entries` (paths under src/) takes in. */
  async function inputsOf(entries: string[]): Promise<string[]> {
    const { metafile } = await build({
      entryPoints: entries.map((entry) => new URL(`../src/${entry}`, import.meta.url).pathname),
      bundle: true,
      write: false,
      metafile: true,
      format: "esm",
      platform: "node",
      outdir: "/tmp/unused",
      packages: "external",
      logLevel: "silent",
    });
    return Object.keys(metafile.inputs);
  }

  it("an app that does not import @tessera/core/organizations never loads it, with or without two-factor", async () => {
    const core = await inputsOf(["index.ts", "node.ts", "client.ts", "jwt.ts", "store.ts"]);
    expect(core.filter((path) => path.includes("extensions/"))).toEqual([]);
    const twoFactor = await inputsOf(["extensions/two-factor/index.ts"]);
    expect(twoFactor.filter((path) => path.includes("extensions/organizations"))).toEqual([]);
    // Nor does one extension pull in the other, and the browser client no server code.
    const own = await inputsOf(["extensions/organizations/index.ts"]);
    expect(own.some((path) => path.includes("extensions/organizations/extension.ts"))).toBe(true);
    expect(own.filter((path) => path.includes("extensions/two-factor"))).toEqual([]);
    const client = await inputsOf(["extensions/organizations/client.ts"]);
    expect(
      client.filter((path) => /extensions\/organizations\/(extension|api)\.ts/.test(path)),
    ).toEqual([]);
    expect(client.filter((path) => path.includes("lib/session/"))).toEqual([]);
  });
});
