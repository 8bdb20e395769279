/**
 * The home page's Organisations card: creating an organisation makes it the session's active
 * one, the switcher shows it with the user's role, its members are listed, switching to none
 * clears it, and a cross-origin post is refused. As a members page: an owner invites by e-mail
 * (through the demo's mailbox), the invited user accepts on the built-in invitation page, and the
 * owner changes their role.
 */
import { afterAll, describe, expect, it } from "vitest";
import { type RunningDemo, startDemo } from "../src/demo.js";
import { Browser } from "./browser-client.js";

const SECRET = "demo-organizations-test-secret-with-more-than-32-chars";
const running: RunningDemo[] = [];
afterAll(async () => {
  for (const demo of running) await demo.close();
});

describe.each(["database", "jwt"] as const)("Organisations card (%s sessions)", (strategy) => {
  it("creates an organisation, shows it active with its members, and switches away", async () => {
    const demo = await startDemo({ port: 0, dataDir: null, secret: SECRET, strategy });
    running.push(demo);
    const browser = new Browser(demo.url, "Laptop");
    await browser.signIn();
    const before = await (await browser.fetch("/")).text();
    expect(before).toContain('data-testid="organizations"');
    expect(before).toContain("You are in no organisation yet.");

    const created = await browser.post("/organizations/create", {
      name: "Acme <Ltd>",
      slug: "acme",
    });
    expect(created.status).toBe(303);
    const session = (await (await browser.fetch("/auth/session")).json()) as {
      activeOrganization?: { id: string; role: string };
    };
    expect(session.activeOrganization?.role).toBe("owner");
    const after = await (await browser.fetch("/")).text();
    expect(after).toContain(
      `<option value="${session.activeOrganization?.id}" selected>Acme &lt;Ltd&gt; (owner)</option>`,
    );
    expect(after).toMatch(/data-testid="organization-members"><li>[^<]+: owner<\/li><\/ul>/);

    expect((await browser.post("/organizations/active", { organizationId: "" })).status).toBe(303);
    expect(await (await browser.fetch("/auth/session")).json()).not.toHaveProperty(
      "activeOrganization",
    );
    // Login CSRF's cousin: another site's form cannot switch or create.
    const forged = await browser.post(
      "/organizations/create",
      { name: "X", slug: "x" },
      "https://evil.example",
    );
    expect(forged.status).toBe(403);
  });
});

describe("members page", () => {
  /** The first link in `text` that matches `pattern`. */
  const linkIn = (text: string, pattern: RegExp) => pattern.exec(text)?.[0] ?? "";

  it("invite by e-mail → the invited user accepts on the invitation page → the owner changes their role", async () => {
    const demo = await startDemo({ port: 0, dataDir: null, secret: SECRET, strategy: "jwt" });
    running.push(demo);
    const owner = new Browser(demo.url, "Laptop");
    await owner.signIn();
    await owner.post("/organizations/create", { name: "Acme", slug: "acme" });
    const session = (await (await owner.fetch("/auth/session")).json()) as {
      activeOrganization: { id: string };
    };
    const organizationId = session.activeOrganization.id;
    const home = await (await owner.fetch("/")).text();
    expect(home).toContain('data-testid="organization-invite"');

    const invitationMail = demo.mailbox.next();
    const invited = await owner.post("/organizations/invite", {
      organizationId,
      email: "bea@example.com",
      role: "member",
    });
    expect(invited.status).toBe(303);
    const invitation = await invitationMail;
    expect(invitation.to).toEqual(["bea@example.com"]);
    const join = linkIn(
      invitation.text,
      /http:\/\/\S+\/auth\/organizations\/join\?invitationId=[\w-]+/,
    );
    expect(await (await owner.fetch("/")).text()).toContain("bea@example.com (member)");

    // Bea signs in with the invited address (an e-mail link), then opens the invitation.
    const bea = new Browser(demo.url, "Phone");
    const signInMail = demo.mailbox.next();
    const { csrfToken } = (await (await bea.fetch("/auth/csrf")).json()) as { csrfToken: string };
    await bea.post("/auth/signin/email", { csrfToken, email: "bea@example.com", callbackUrl: "/" });
    await bea.fetch(linkIn((await signInMail).text, /http:\/\/\S+\/auth\/callback\/email\S+/));
    const page = await (await bea.fetch(join)).text();
    expect(page).toContain("Acme invites you to join as member.");
    const pageToken = /name="csrfToken" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const accepted = await bea.post("/auth/organizations/join", {
      csrfToken: pageToken,
      invitationId: new URL(join).searchParams.get("invitationId") ?? "",
      answer: "accept",
    });
    expect(await accepted.text()).toContain("now a member of Acme");

    const beaId = ((await (await bea.fetch("/auth/session")).json()) as { user: { id: string } })
      .user.id;
    const members = await (await owner.fetch("/")).text();
    expect(members).toContain('data-testid="member-role"');
    expect(members).toContain(`name="userId" value="${beaId}"`);
    const changed = await owner.post("/organizations/role", {
      organizationId,
      userId: beaId,
      role: "admin",
    });
    expect(changed.status).toBe(303);
    expect(await (await owner.fetch("/")).text()).toMatch(
      new RegExp(
        `value="${beaId}"><select[^>]*><option value="owner">owner</option><option value="admin" selected>`,
      ),
    );
    // Another site's form cannot change a role.
    const forged = await owner.post(
      "/organizations/role",
      { organizationId, userId: beaId, role: "member" },
      "https://evil.example",
    );
    expect(forged.status).toBe(403);
  });
});
