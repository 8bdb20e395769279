/**
 * The demo's admin page over real HTTP: the demo user (its administrator) lists and searches
 * users, impersonates one (every page shows the banner, /auth/session says `impersonatedBy`),
 * stops and is back in their own session, and bans a user, whose open session ends on its next
 * request. A user who is no administrator, an impersonated session and another site's form are
 * refused.
 */
import { afterAll, describe, expect, it } from "vitest";
import { type RunningDemo, startDemo } from "../src/demo.js";
import { Browser } from "./browser-client.js";

const SECRET = "demo-admin-test-secret-with-more-than-32-characters";
const running: RunningDemo[] = [];
afterAll(async () => {
  for (const demo of running) await demo.close();
});

interface SessionAnswer {
  user: { id: string; email: string };
  impersonatedBy?: string;
}

async function sessionOf(browser: Browser): Promise<SessionAnswer | null> {
  return (await (await browser.fetch("/auth/session")).json()) as SessionAnswer | null;
}

/** Signs `email` in with an e-mail link from the demo's mailbox. */
async function signInByEmail(demo: RunningDemo, email: string): Promise<Browser> {
  const browser = new Browser(demo.url, "Phone");
  const mail = demo.mailbox.next();
  const { csrfToken } = (await (await browser.fetch("/auth/csrf")).json()) as { csrfToken: string };
  await browser.post("/auth/signin/email", { csrfToken, email, callbackUrl: "/" });
  const link = /http:\/\/\S+\/auth\/callback\/email\S+/.exec((await mail).text)?.[0] ?? "";
  await browser.fetch(link);
  expect((await sessionOf(browser))?.user.email).toBe(email);
  return browser;
}

describe.each(["database", "jwt"] as const)("admin page (%s sessions)", (strategy) => {
  it("impersonate → banner on every page and impersonatedBy in the session → stop → the administrator's own session; ban ends the user's open session", async () => {
    const demo = await startDemo({ port: 0, dataDir: null, secret: SECRET, strategy });
    running.push(demo);
    const administrator = new Browser(demo.url, "Laptop");
    await administrator.signIn();
    const adminId = (await sessionOf(administrator))?.user.id;
    const bea = await signInByEmail(demo, "bea@example.com");
    const beaId = (await sessionOf(bea))?.user.id ?? "";

    const listing = await administrator.fetch("/admin?search=BEA");
    expect(listing.status).toBe(200);
    const page = await listing.text();
    expect(page).toContain(`data-user-id="${beaId}"`);
    expect(page).not.toContain(`data-user-id="${adminId}"`);
    expect(page).toContain("1 user matching");

    const started = await administrator.post("/admin/impersonate", { userId: beaId });
    expect(started.status).toBe(303);
    expect(await sessionOf(administrator)).toMatchObject({
      user: { email: "bea@example.com" },
      impersonatedBy: adminId,
    });
    for (const path of ["/", "/protected", "/dev/mailbox"]) {
      const shown = await (await administrator.fetch(path)).text();
      expect(shown).toContain('data-testid="impersonation-banner"');
      expect(shown).toContain("You are impersonating bea@example.com");
    }
    // An impersonated session administers nothing, not even as the administrator behind it.
    expect((await administrator.fetch("/admin")).status).toBe(403);

    const stopped = await administrator.post("/admin/stop-impersonating", {});
    expect(stopped.status).toBe(303);
    const own = await sessionOf(administrator);
    expect(own?.user).toMatchObject({ id: adminId, email: "demo@example.com" });
    expect(own).not.toHaveProperty("impersonatedBy");
    expect(await (await administrator.fetch("/")).text()).not.toContain("impersonation-banner");

    expect(await sessionOf(bea)).not.toBeNull();
    const banned = await administrator.post("/admin/ban", { userId: beaId, reason: "spam" });
    expect(banned.status).toBe(303);
    expect(await (await administrator.fetch("/admin")).text()).toContain(
      'data-testid="banned">banned (spam)',
    );
    // Bea's open browser: her next request finds no session.
    expect(await sessionOf(bea)).toBeNull();
    expect((await administrator.post("/admin/unban", { userId: beaId })).status).toBe(303);
    expect(await (await administrator.fetch("/admin")).text()).not.toContain(
      'data-testid="banned"',
    );
  });
});

describe("admin page attacks", () => {
  it("a user who is no administrator, and another site's form, are refused", async () => {
    const demo = await startDemo({ port: 0, dataDir: null, secret: SECRET, strategy: "jwt" });
    running.push(demo);
    const administrator = new Browser(demo.url, "Laptop");
    await administrator.signIn();
    const adminId = (await sessionOf(administrator))?.user.id ?? "";
    const eve = await signInByEmail(demo, "eve@example.com");

    const refused = await eve.fetch("/admin");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('data-testid="admin-refused"');
    expect((await eve.post("/admin/ban", { userId: adminId })).status).toBe(403);
    expect((await eve.post("/admin/impersonate", { userId: adminId })).status).toBe(403);
    expect((await sessionOf(eve))?.user.email).toBe("eve@example.com");
    // CSRF: another site's form cannot make the administrator impersonate or ban.
    const forged = await administrator.post(
      "/admin/impersonate",
      { userId: (await sessionOf(eve))?.user.id ?? "" },
      "https://evil.example",
    );
    expect(forged.status).toBe(403);
    expect((await sessionOf(administrator))?.user.email).toBe("demo@example.com");
  });
});
