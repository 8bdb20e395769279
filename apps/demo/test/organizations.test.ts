/**
 * The home page's Organisations card: creating an organisation makes it the session's active
 * one, the switcher shows it with the user's role, its members are listed, switching to none
 * clears it, and a cross-origin post is refused.
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
