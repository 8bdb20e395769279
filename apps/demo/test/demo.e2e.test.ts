/**
 * The demo end to end in headless Chromium: the real demo (Express, SQLite file, SMTP catcher,
 * oidc-provider) started in-process, and a browser that signs in with every method — password,
 * magic link from /dev/mailbox, the local OpenID Provider (linking it to the signed-in user),
 * and a passkey held by Chromium's virtual authenticator — and signs out after each.
 * Screenshots of the sign-in page and the signed-in home page go to test-artifacts/demo/, with
 * overview.png composed from both (the README's picture: docs/demo.png, refreshed with
 * TESSERA_DOCS_IMAGES=1, see e2e/docs-images.ts).
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser, type Page } from "../../../e2e/browser.js";
import { publishDocsImage } from "../../../e2e/docs-images.js";
import { DEMO_USER } from "../src/database.js";
import { type RunningDemo, startDemo } from "../src/demo.js";
import { IDP_ACCOUNT } from "../src/idp-account.js";
import { composeOverview } from "./overview-image.js";

const ARTIFACTS = join(import.meta.dirname, "..", "..", "..", "test-artifacts", "demo");
const SECRET = "demo-e2e-secret-with-more-than-32-characters";

let dataDir: string;
let demo: RunningDemo;
let browser: LaunchedBrowser;
let page: Page;
const serverErrors: unknown[] = [];

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  dataDir = await mkdtemp(join(tmpdir(), "tessera-demo-e2e-"));
  demo = await startDemo({
    port: 0,
    dataDir,
    secret: SECRET,
    onError: (error) => serverErrors.push(error),
  });
  browser = await launchBrowser({ deviceScaleFactor: 2 });
  page = await browser.newPage();
  // A step that hangs fails with its own message, well within the test's timeout.
  page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  expect(serverErrors).toEqual([]);
});

const url = (path: string) => `${demo.url}${path}`;

/** `GET /auth/session` with the browser's cookies (the demo's pages allow no script to fetch). */
async function readSession(): Promise<unknown> {
  const response = await page.request.get(url("/auth/session"));
  expect(response.status()).toBe(200);
  return response.json();
}

async function expectSignedOutHome(): Promise<void> {
  await page.waitForURL(url("/"));
  await expect
    .poll(() => page.getByTestId("welcome").textContent())
    .toContain("Every way to sign in");
  expect(await page.getByRole("link", { name: "Sign in" }).first().isVisible()).toBe(true);
}

/**
 * Signs out with one click on the navigation bar's button (and, for a user with a Demo IdP
 * account, a second on the IdP's "sign out?" page) and checks that the session is gone.
 */
async function signOut(): Promise<void> {
  await page.getByRole("navigation").getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(
    (current) => current.origin === demo.idpIssuer || current.href === url("/"),
  );
  if (new URL(page.url()).origin === demo.idpIssuer)
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expectSignedOutHome();
  const session = await readSession();
  expect(session).toBeNull();
}

async function signInWithPassword(): Promise<void> {
  await page.goto(url("/auth/signin?callbackUrl=%2F"));
  await page.locator("#password-email").fill(DEMO_USER.email);
  await page.locator("#password-password").fill(DEMO_USER.password);
  await page.getByRole("button", { name: "Sign in with Password" }).click();
  await page.waitForURL(url("/"));
}

/** The user id the home page shows for the current session. */
async function sessionUserId(): Promise<string | undefined> {
  const session = await readSession();
  return (session as { user?: { id?: string } } | null)?.user?.id;
}

async function methodLinked(id: string): Promise<string | null> {
  return page.locator(`li[data-method="${id}"]`).getAttribute("data-linked");
}

// Each test is a whole journey through several pages; a loaded machine must not fail it.
describe("the demo in Chromium", { timeout: 90_000 }, () => {
  it("signs in with the demo user's password, shows the session, guards /protected and signs out", async () => {
    await page.goto(url("/protected"));
    // Signed out, the protected page sends the browser to sign in and back.
    await page.waitForURL((current) => current.pathname === "/auth/signin");
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/protected");

    await page.goto(url("/auth/signin?callbackUrl=%2F"));
    for (const name of ["Demo IdP", "Password", "Email"])
      expect(await page.getByRole("button", { name: `Sign in with ${name}` }).isVisible()).toBe(
        true,
      );
    expect(await page.getByRole("button", { name: "Create a passkey" }).isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "signin.png"), fullPage: true });
    // A phone-width copy for the README picture, where the page sits in a narrow window.
    await page.setViewportSize({ width: 480, height: 800 });
    await page.screenshot({ path: join(ARTIFACTS, "signin-narrow.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // A wrong password is refused with the generic message, and no session is created.
    await page.locator("#password-email").fill(DEMO_USER.email);
    await page.locator("#password-password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in with Password" }).click();
    await page.waitForURL((current) => current.searchParams.get("error") === "CredentialsSignin");
    expect(await page.getByRole("alert").textContent()).toMatch(/check the details/i);

    await signInWithPassword();
    expect(await page.getByTestId("welcome").textContent()).toBe(`Hello, ${DEMO_USER.name}`);
    expect(await page.getByTestId("strategy").textContent()).toBe("database");
    expect(await page.getByTestId("notice").count()).toBe(0);
    // The mark is the favicon, also for the built-in pages that name none (/favicon.ico).
    const favicon = await page.request.get(url("/favicon.ico"));
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()["content-type"]).toContain("image/svg+xml");

    // On a 390 px phone the navigation bar fits: its sign-out button is on screen.
    await page.setViewportSize({ width: 390, height: 800 });
    const signOutBox = await page
      .getByRole("navigation")
      .getByRole("button", { name: "Sign out" })
      .boundingBox();
    expect(signOutBox).not.toBeNull();
    expect((signOutBox?.x ?? 0) + (signOutBox?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.screenshot({ path: join(ARTIFACTS, "home-390.png") });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The password of the user already signed in: the same user, and the page says so.
    await signInWithPassword();
    expect(await page.getByTestId("notice").textContent()).toContain(
      `the user you were already signed in as (${DEMO_USER.email})`,
    );
    const expires = new Date(
      JSON.parse((await page.getByTestId("session-json").textContent()) ?? "{}").expires,
    );
    expect(expires.getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);
    expect(await page.getByTestId("session-json").textContent()).toContain(DEMO_USER.email);
    expect(await methodLinked("password")).toBe("yes");
    expect(await sessionUserId()).toBe(demo.database.demoUserId);
    // A database session: the cookie holds an opaque token that is a row in SQLite.
    const cookie = (await browser.context.cookies(demo.url)).find(
      (c) => c.name === "authjs.session-token",
    );
    const row = await demo.database.db
      .selectFrom("sessions")
      .selectAll()
      .where("sessionToken", "=", cookie?.value ?? "")
      .executeTakeFirst();
    expect(row?.userId).toBe(demo.database.demoUserId);

    await page.goto(url("/protected"));
    expect(await page.getByTestId("protected-user").textContent()).toBe(DEMO_USER.email);

    await page.goto(url("/"));
    await signOut();
    const left = await demo.database.db
      .selectFrom("sessions")
      .select("sessionToken")
      .where("sessionToken", "=", cookie?.value ?? "")
      .executeTakeFirst();
    expect(left).toBeUndefined();
  });

  it("signs in with a magic link delivered to the demo mailbox", async () => {
    await page.goto(url("/dev/mailbox"));
    expect(await page.getByText("No mail yet").isVisible()).toBe(true);

    await page.goto(url("/auth/signin?callbackUrl=%2F"));
    await page.locator("#email-email").fill("Grace@Example.com");
    await page.getByRole("button", { name: "Sign in with Email" }).click();
    await page.waitForURL((current) => current.pathname === "/check-email");
    await page.getByTestId("open-mailbox").click();
    await page.waitForURL(url("/dev/mailbox"));

    const mail = page.locator("article.mail").first();
    await page.screenshot({ path: join(ARTIFACTS, "mailbox.png"), fullPage: true });
    expect(await mail.locator(".mail-meta").textContent()).toContain("grace@example.com");
    expect(await mail.locator("h2").textContent()).toMatch(/^Sign in to localhost:\d+$/);
    await mail.getByTestId("mail-link").click();
    await page.waitForURL(url("/"));
    expect(await page.getByTestId("welcome").textContent()).toBe("Hello, grace@example.com");
    expect(await methodLinked("email")).toBe("yes");

    // Signed in as Grace, the demo user's password switches to the demo user, and says so.
    await signInWithPassword();
    expect(await page.getByTestId("welcome").textContent()).toBe(`Hello, ${DEMO_USER.name}`);
    expect(await page.getByTestId("notice").textContent()).toContain(
      "You were signed in as grace@example.com",
    );
    expect(await page.getByTestId("notice").textContent()).toContain("switched to that user");

    // The link is single-use: the mailbox shows it as used, and following it again is refused.
    await page.goto(url("/dev/mailbox"));
    const usedLink = page.locator("article.mail").first().getByTestId("mail-link");
    expect(await usedLink.getAttribute("data-used")).toBe("yes");
    expect(await usedLink.textContent()).toBe("Link used or expired");
    const link = await usedLink.getAttribute("href");
    await signOutFrom("/");
    await page.goto(link ?? "");
    await page.waitForURL((current) => current.searchParams.get("error") === "Verification");
  });

  it("links the Demo IdP to the signed-in user, then signs in with the IdP alone", async () => {
    await signInWithPassword();
    expect(await methodLinked("demo-idp")).toBe("no");
    await page.locator('li[data-method="demo-idp"]').getByRole("link", { name: "Link" }).click();
    await page.waitForURL((current) => current.pathname === "/auth/signin");
    await page.getByRole("button", { name: "Sign in with Demo IdP" }).click();

    // The provider's own login page, on its own origin.
    await page.waitForURL((current) => current.origin === demo.idpIssuer);
    await page.locator("#username").fill(IDP_ACCOUNT.username);
    await page.locator("#password").fill("wrong");
    await page.getByRole("button", { name: "Continue" }).click();
    expect(await page.getByRole("alert").textContent()).toContain("Wrong username or password");
    await page.screenshot({ path: join(ARTIFACTS, "idp-login.png"), fullPage: true });
    await page.locator("#password").fill(IDP_ACCOUNT.password);
    await page.getByRole("button", { name: "Continue" }).click();

    await page.waitForURL(url("/"));
    expect(await page.getByTestId("welcome").textContent()).toBe(`Hello, ${DEMO_USER.name}`);
    expect(await methodLinked("demo-idp")).toBe("yes");
    // One user, two ways in: the password row and the linked OpenID Connect account.
    const accounts = await demo.database.db
      .selectFrom("accounts")
      .select(["provider", "providerAccountId"])
      .where("userId", "=", demo.database.demoUserId)
      .execute();
    expect(accounts).toContainEqual({
      provider: "demo-idp",
      providerAccountId: IDP_ACCOUNT.claims.sub,
    });
    await signOut();

    // Signed out, the IdP alone now signs in as the same user.
    await page.goto(url("/auth/signin?callbackUrl=%2F"));
    await page.getByRole("button", { name: "Sign in with Demo IdP" }).click();
    await page.waitForURL((current) => current.origin === demo.idpIssuer);
    await page.locator("#username").fill(IDP_ACCOUNT.username);
    await page.locator("#password").fill(IDP_ACCOUNT.password);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(url("/"));
    expect(await sessionUserId()).toBe(demo.database.demoUserId);
    await signOut();

    // Another user (signed in with an e-mail link) cannot take the IdP account over, and the
    // page says whose it is rather than the generic "sign in the way you first did".
    await page.goto(url("/auth/signin?callbackUrl=%2F"));
    await page.locator("#email-email").fill("linus@example.com");
    await page.getByRole("button", { name: "Sign in with Email" }).click();
    await page.waitForURL((current) => current.pathname === "/check-email");
    await page.goto(url("/dev/mailbox"));
    await page.locator("article.mail").first().getByTestId("mail-link").click();
    await page.waitForURL(url("/"));
    expect(await page.getByTestId("welcome").textContent()).toBe("Hello, linus@example.com");
    await page.locator('li[data-method="demo-idp"]').getByRole("link", { name: "Link" }).click();
    await page.getByRole("button", { name: "Sign in with Demo IdP" }).click();
    await page.waitForURL((current) => current.origin === demo.idpIssuer);
    await page.locator("#username").fill(IDP_ACCOUNT.username);
    await page.locator("#password").fill(IDP_ACCOUNT.password);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(
      (current) => current.searchParams.get("error") === "OAuthAccountNotLinked",
    );
    expect(await page.getByTestId("linked-elsewhere").textContent()).toContain(
      "That account belongs to another user of this demo, so it was not linked to linus@example.com",
    );
    await signOut();
  });

  it("adds a passkey to the signed-in user and then signs in with the passkey alone", async () => {
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await signInWithPassword();
    expect(await methodLinked("passkey")).toBe("no");
    await page.locator('li[data-method="passkey"]').getByRole("link", { name: "Add" }).click();
    await page.waitForURL((current) => current.pathname === "/auth/signin");
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await page.waitForURL(url("/"));
    expect(await methodLinked("passkey")).toBe("yes");
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    await signOut();

    // The virtual authenticator approves at once, so passkey autofill (conditional UI) would sign
    // in by itself as the page loads; turning autofill off makes this the button's sign-in.
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    });
    await page.goto(url("/auth/signin?callbackUrl=%2F"));
    await page.getByRole("button", { name: "Sign in with passkey" }).click();
    await page.waitForURL(url("/"));
    expect(await sessionUserId()).toBe(demo.database.demoUserId);
    expect(await page.getByTestId("welcome").textContent()).toBe(`Hello, ${DEMO_USER.name}`);
    // Every method is now linked to the demo user; this is the picture for the README.
    for (const id of ["password", "email", "demo-idp", "passkey"])
      expect(await methodLinked(id)).not.toBeNull();
    await page.screenshot({ path: join(ARTIFACTS, "home.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 920 });
    await page.screenshot({ path: join(ARTIFACTS, "home-top.png") });
    await page.setViewportSize({ width: 1280, height: 800 });
    const canvas = await browser.newPage();
    await composeOverview(
      canvas,
      {
        signInPath: join(ARTIFACTS, "signin-narrow.png"),
        homePath: join(ARTIFACTS, "home-top.png"),
        host: new URL(demo.url).host,
      },
      join(ARTIFACTS, "overview.png"),
    );
    await canvas.close();
    // The README's and the documentation's picture (with TESSERA_DOCS_IMAGES=1 only).
    await publishDocsImage(join(ARTIFACTS, "overview.png"), "demo.png");
    await signOut();
    await cdp.detach();
  });
});

async function signOutFrom(path: string): Promise<void> {
  await page.goto(url(path));
  await signOut();
}
