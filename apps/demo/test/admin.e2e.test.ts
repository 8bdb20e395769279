/**
 * The demo's admin page end to end in headless Chromium, two browsers with profiles of their own:
 * the demo user (the administrator) signs in with their password, finds Bea on /admin and
 * impersonates her — every page shows the banner and /auth/session says `impersonatedBy` — then
 * stops and is back in their own session; and banning Bea ends her open browser session on its
 * next request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser, type Page } from "../../../e2e/browser.js";
import { DEMO_USER } from "../src/database.js";
import { type RunningDemo, startDemo } from "../src/demo.js";

const SECRET = "demo-admin-e2e-secret-with-more-than-32-characters";
const BEA = "bea@example.com";

let demo: RunningDemo;
let administratorBrowser: LaunchedBrowser;
let beaBrowser: LaunchedBrowser;
let administrator: Page;
let bea: Page;
const serverErrors: unknown[] = [];

beforeAll(async () => {
  demo = await startDemo({
    port: 0,
    dataDir: null,
    secret: SECRET,
    strategy: "jwt",
    onError: (error) => serverErrors.push(error),
  });
  [administratorBrowser, beaBrowser] = await Promise.all([launchBrowser(), launchBrowser()]);
  administrator = await administratorBrowser.newPage();
  bea = await beaBrowser.newPage();
  for (const page of [administrator, bea]) page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await administratorBrowser?.close();
  await beaBrowser?.close();
  await demo?.close();
  expect(serverErrors).toEqual([]);
});

const url = (path: string) => `${demo.url}${path}`;

interface SessionAnswer {
  user: { id: string; email: string };
  impersonatedBy?: string;
}

/** `GET /auth/session` with the page's cookies (the demo's pages run no script). */
async function readSession(page: Page): Promise<SessionAnswer | null> {
  const response = await page.request.get(url("/auth/session"));
  expect(response.status()).toBe(200);
  return (await response.json()) as SessionAnswer | null;
}

describe("the admin page in Chromium", { timeout: 90_000 }, () => {
  it("impersonate → banner and impersonatedBy → stop → own session; a ban ends the user's open session", async () => {
    // Bea signs in with an e-mail link and keeps her browser open on the home page.
    const mail = demo.mailbox.next();
    await bea.goto(url("/auth/signin?callbackUrl=%2F"));
    await bea.locator("#email-email").fill(BEA);
    await bea.getByRole("button", { name: "Sign in with Email" }).click();
    await bea.waitForURL((current) => current.pathname === "/check-email");
    await bea.goto(/http:\/\/\S+\/auth\/callback\/email\S+/.exec((await mail).text)?.[0] ?? "");
    await bea.waitForURL(url("/"));
    const beaId = (await readSession(bea))?.user.id ?? "";
    expect(beaId).not.toBe("");

    await administrator.goto(url("/auth/signin?callbackUrl=%2Fadmin"));
    await administrator.locator("#password-email").fill(DEMO_USER.email);
    await administrator.locator("#password-password").fill(DEMO_USER.password);
    await administrator.getByRole("button", { name: "Sign in with Password" }).click();
    await administrator.waitForURL(url("/admin"));
    const adminId = (await readSession(administrator))?.user.id;

    await administrator.getByLabel("Search").fill("bea");
    await administrator.getByRole("button", { name: "Search" }).click();
    await administrator.waitForURL((current) => current.searchParams.get("search") === "bea");
    const beaRow = administrator.locator(`[data-testid="admin-user"][data-user-id="${beaId}"]`);
    await beaRow.getByRole("button", { name: "Impersonate" }).click();
    await administrator.waitForURL(url("/"));
    const banner = administrator.getByTestId("impersonation-banner");
    expect(await banner.textContent()).toContain(`You are impersonating ${BEA}`);
    expect(await readSession(administrator)).toMatchObject({
      user: { id: beaId, email: BEA },
      impersonatedBy: adminId,
    });
    await administrator.goto(url("/protected"));
    expect(await banner.isVisible()).toBe(true);

    await banner.getByRole("button", { name: "Stop impersonating" }).click();
    await administrator.waitForURL(url("/"));
    expect(await administrator.getByTestId("impersonation-banner").count()).toBe(0);
    const own = await readSession(administrator);
    expect(own?.user).toMatchObject({ id: adminId, email: DEMO_USER.email });
    expect(own).not.toHaveProperty("impersonatedBy");

    // Ban: Bea's open browser is signed out on its next request.
    expect((await readSession(bea))?.user.email).toBe(BEA);
    await administrator.goto(url("/admin"));
    await beaRow.getByLabel(`Reason for banning ${BEA}`).fill("chargebacks");
    await beaRow.getByRole("button", { name: "Ban" }).click();
    await administrator.waitForURL(url("/admin"));
    expect(await beaRow.getByTestId("banned").textContent()).toBe("banned (chargebacks)");
    await bea.reload();
    expect(await bea.getByTestId("welcome").textContent()).toContain("Every way to sign in");
    expect(await readSession(bea)).toBeNull();
  });
});
