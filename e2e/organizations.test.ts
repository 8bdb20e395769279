/**
 * Organisations end to end in Chromium: two users, each in their own browser origin (cookies
 * apart), drive `@tessera/core/organizations/client` against a real HTTP server running Tessera
 * with the memory adapter: create → invite → accept → switch the active organisation → a
 * permission check → a role change that ends the permission at once; then the attacks a page
 * script could try (accepting someone else's invitation, raising one's own role). And the
 * invitation as a new member meets it: the e-mail (through a real SMTP server), the built-in page,
 * sign-in with the invited address, accept.
 */
import type { AuthConfig } from "@tessera/core";
import { organizations } from "@tessera/core/organizations";
import type { OrganizationsClient } from "@tessera/core/organizations/client";
import Credentials from "@tessera/core/providers/credentials";
import Nodemailer from "@tessera/core/providers/nodemailer";
import { MemoryAdapter } from "@tessera/memory";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer } from "../packages/core/test/email-helpers.js";
import { type AuthServer, startAuthServer } from "./auth-server.js";
import { type LaunchedBrowser, launchBrowser, type Page } from "./browser.js";

const SECRET = "e2e-organizations-secret-with-32-characters-or-more";
const USERS = {
  ada: { id: "ada", email: "ada@example.com", name: "Ada", emailVerified: null },
  bob: { id: "bob", email: "bob@example.com", name: "Bob", emailVerified: null },
  cy: { id: "cy", email: "cy@example.com", name: "Cy", emailVerified: null },
};

let browser: LaunchedBrowser;
let server: AuthServer;
let script: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const adapter = MemoryAdapter();

beforeAll(async () => {
  smtp = await startSmtpServer();
  for (const user of Object.values(USERS)) await adapter.createUser(user);
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    logger: { warn() {}, debug() {} },
    experimental: { extensions: [organizations()] },
    providers: [
      Credentials({
        name: "Password",
        credentials: { username: {}, password: { type: "password" } },
        authorize: (c) =>
          c.password === "pw" ? (USERS[c.username as keyof typeof USERS] ?? null) : null,
      }),
      Nodemailer({ server: smtp.url, from: "Tessera Test <no-reply@tessera.test>" }),
    ],
  };
  server = await startAuthServer(config);
  const bundled = await build({
    stdin: {
      contents: [
        'import { organizationsClient } from "@tessera/core/organizations/client";',
        'window.orgs = organizationsClient({ baseUrl: "", basePath: "/auth" });',
      ].join("\n"),
      resolveDir: process.cwd(),
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    conditions: ["tessera-source"],
    logLevel: "silent",
  });
  script = bundled.outputFiles[0]?.text ?? "";
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

type AppWindow = { orgs: OrganizationsClient };

/** A page of `origin` signed in as `username`, with the client bundle loaded. */
async function signedIn(origin: string, username: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/auth/signin`);
  await page.fill("#credentials-username", username);
  await page.fill("#credentials-password", "pw");
  await Promise.all([
    page.waitForLoadState("load"),
    page.getByText("Sign in with Password").click(),
  ]);
  await page.goto(`${origin}/`);
  await page.addScriptTag({ content: script });
  return page;
}

const session = (page: Page) =>
  page.evaluate(async () => (await fetch("/auth/session")).json()) as Promise<Record<
    string,
    unknown
  > | null>;

describe("organisations in Chromium", () => {
  it("invite → accept → switch → permission → role change, through the browser client", async () => {
    // Two origins of one server: each user's cookies stay with their own.
    const ada = await signedIn(server.origin, "ada");
    const bob = await signedIn(server.origin.replace("localhost", "127.0.0.1"), "bob");
    const created = await ada.evaluate(() =>
      (window as unknown as AppWindow).orgs.create({ name: "Acme", slug: "acme" }),
    );
    expect(created.ok).toBe(true);
    const organizationId = String((created.data?.organization as { id?: string } | undefined)?.id);
    const invited = await ada.evaluate(
      (id) =>
        (window as unknown as AppWindow).orgs.invite(id, {
          email: "bob@example.com",
          role: "admin",
        }),
      organizationId,
    );
    const invitationId = String((invited.data?.invitation as { id?: string } | undefined)?.id);

    // Ada cannot accept an invitation made to Bob's address.
    const stolen = await ada.evaluate(
      (id) => (window as unknown as AppWindow).orgs.acceptInvitation(id),
      invitationId,
    );
    expect(stolen).toEqual({ ok: false, error: "InvitationNotFound" });

    const accepted = await bob.evaluate(
      (id) => (window as unknown as AppWindow).orgs.acceptInvitation(id),
      invitationId,
    );
    expect(accepted.ok).toBe(true);
    await bob.evaluate((id) => (window as unknown as AppWindow).orgs.setActive(id), organizationId);
    expect(await session(bob)).toMatchObject({
      activeOrganization: { id: organizationId, role: "admin" },
    });
    const canInvite = () =>
      bob.evaluate(() =>
        (window as unknown as AppWindow).orgs.hasPermission({ invitation: ["create"] }),
      );
    expect(await canInvite()).toBe(true);

    // Bob cannot make himself an owner.
    const raised = await bob.evaluate(
      (id) => (window as unknown as AppWindow).orgs.setRole(id, "bob", "owner"),
      organizationId,
    );
    expect(raised).toEqual({ ok: false, error: "OwnRole" });

    const demoted = await ada.evaluate(
      (id) => (window as unknown as AppWindow).orgs.setRole(id, "bob", "member"),
      organizationId,
    );
    expect(demoted.ok).toBe(true);
    // His JWT still said admin; the check knows better at once.
    expect(await canInvite()).toBe(false);
    expect(await session(bob)).toMatchObject({ activeOrganization: { role: "member" } });
    const listed = await bob.evaluate(() => (window as unknown as AppWindow).orgs.list());
    expect(listed.data?.organizations).toEqual([
      expect.objectContaining({ id: organizationId, role: "member" }),
    ]);
  });

  it("invite → e-mail → invitation page → sign in with the invited address → accept → member", async () => {
    await browser.context.clearCookies();
    const ada = await signedIn(server.origin, "ada");
    const created = await ada.evaluate(() =>
      (window as unknown as AppWindow).orgs.create({ name: "Initech", slug: "initech" }),
    );
    const organizationId = String((created.data?.organization as { id?: string } | undefined)?.id);
    const invited = await ada.evaluate(
      (id) => (window as unknown as AppWindow).orgs.invite(id, { email: "cy@example.com" }),
      organizationId,
    );
    expect(invited.ok).toBe(true);
    // The first test's invitation to Bob went out through the same server before this one.
    let mail = await smtp.nextMail();
    while (!mail.to.includes("cy@example.com")) mail = await smtp.nextMail();
    const link = /http:\/\/\S+\/auth\/organizations\/join\?invitationId=[\w-]+/.exec(
      mail.text,
    )?.[0];
    expect(link).toBeDefined();
    // Cy opens the link in a browser where nobody is signed in.
    await ada.close();
    await browser.context.clearCookies();
    const cy = await browser.newPage();
    await cy.goto(String(link));
    await expect(cy.locator("h1").textContent()).resolves.toBe("You're invited");
    await expect(cy.locator("body").textContent()).resolves.not.toContain("Initech");
    await Promise.all([
      cy.waitForURL(/\/auth\/signin/),
      cy.getByText("Sign in", { exact: true }).click(),
    ]);
    await cy.fill("#credentials-username", "cy");
    await cy.fill("#credentials-password", "pw");
    // Signed in, the browser comes back to the invitation, which now shows the organisation.
    await Promise.all([
      cy.waitForURL(/\/auth\/organizations\/join\?invitationId=/),
      cy.getByText("Sign in with Password").click(),
    ]);
    await expect(cy.locator(".subtitle").textContent()).resolves.toBe(
      "Initech invites you to join as member.",
    );
    await Promise.all([cy.waitForLoadState("load"), cy.getByText("Accept invitation").click()]);
    await expect(cy.locator(".subtitle").textContent()).resolves.toBe(
      "You're now a member of Initech.",
    );
    expect(await adapter.getMember(organizationId, "cy")).toMatchObject({ role: "member" });
  });
});
