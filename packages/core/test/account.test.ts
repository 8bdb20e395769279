/**
 * The account action and page (`<basePath>/account`, `/account/profile`, `/account/unlink`) and
 * the in-process `getAccountOverview`, `updateAccountName` and `unlinkAccount`: real sign-ins
 * (credentials, passkeys signed by the software authenticator) against the memory adapter.
 * Linked OAuth accounts are stored through the adapter's own `linkAccount` here; linking through
 * a real provider is driven in Chromium (e2e/account.test.ts).
 */
import { createHash } from "node:crypto";
import {
  type AuthConfig,
  getAccountOverview,
  unlinkAccount,
  updateAccountName,
} from "@tessera/core";
import { password } from "@tessera/core/password";
import GitHub from "@tessera/core/providers/github";
import Google from "@tessera/core/providers/google";
import Passkey from "@tessera/core/providers/passkey";
import { twoFactor } from "@tessera/core/two-factor";
import { createMemoryStore, MemoryAdapter, type MemoryStore } from "@tessera/memory";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ACCOUNT_SCRIPT, ACCOUNT_SCRIPT_HASH } from "../src/lib/pages/account-script.js";
import { emailPasswordCredentials } from "./fixtures/credentials.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { type CreationOptionsJSON, SoftAuthenticator } from "./webauthn-authenticator.js";

let store: MemoryStore;

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(store),
    session: { strategy: "database" },
    logger: recordingLogger().logger,
    providers: [
      emailPasswordCredentials(),
      Passkey(),
      GitHub({ clientId: "gh-id", clientSecret: "gh-secret" }),
      Google({ clientId: "g-id", clientSecret: "g-secret" }),
    ],
    experimental: { enableWebAuthn: true },
    ...overrides,
  };
}

beforeEach(() => {
  store = createMemoryStore();
});
afterEach(() => {
  vi.useRealTimers();
});

const HTML = { accept: "text/html" };

/** A browser signed in through the credentials provider as `email` (the user exists first). */
async function signedIn(settings: AuthConfig, email: string, userAgent = "Laptop/1.0") {
  const id = `u-${email}`;
  if (!store.users.has(id))
    store.users.set(id, { id, email, name: "Ada", emailVerified: null, image: null });
  const client = new Client(settings);
  const response = await client.post(
    "/auth/callback/credentials",
    { csrfToken: await client.csrfToken(), email, password: "pw" },
    { "user-agent": userAgent },
  );
  expect(response.status).toBe(302);
  return { client, userId: id };
}

async function link(userId: string, provider: string, providerAccountId: string) {
  await MemoryAdapter(store).linkAccount?.({
    userId,
    provider,
    providerAccountId,
    type: provider === "passkey" ? "webauthn" : provider === "google" ? "oidc" : "oauth",
  });
}

async function overview(client: Client) {
  const response = await client.get("/auth/account");
  expect(response.status).toBe(200);
  return response.json();
}

async function unlink(client: Client, form: Record<string, string>, headers = {}) {
  return client.post(
    "/auth/account/unlink",
    { csrfToken: await client.csrfToken(), ...form },
    headers,
  );
}

describe("the account page", () => {
  it("sends a signed-out browser to sign in with a callback URL back to the account page", async () => {
    const client = new Client(config());
    const response = await client.get("/auth/account", HTML);
    expect(response.status).toBe(302);
    const target = new URL(response.headers.get("location") ?? "");
    expect(target.pathname).toBe("/auth/signin");
    expect(target.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/auth/account`);
    expect((await client.get("/auth/account")).status).toBe(401);
  });

  it("redirects to the app's own page with pages.account", async () => {
    const { client } = await signedIn(config({ pages: { account: "/settings" } }), "p@example.com");
    const response = await client.get("/auth/account", HTML);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/settings`);
  });

  it("shows profile, sessions, sign-in methods and passkeys, each form carrying the CSRF token", async () => {
    const settings = config();
    await signedIn(settings, "ada@example.com", "Phone/2.0");
    const { client, userId } = await signedIn(settings, "ada@example.com");
    await link(userId, "github", "gh-ada");
    const response = await client.get("/auth/account", HTML);
    expect(response.status).toBe(200);
    const page = await response.text();
    const csrf = await client.csrfToken();
    for (const id of ["profile", "sessions", "methods", "passkeys"])
      expect(page).toContain(`id="${id}-heading"`);
    expect(page).not.toContain('id="two-factor-heading"');
    expect(page).not.toContain('id="password-heading"');
    // Two sessions: the other one can be ended, through the sessions action.
    expect(page.match(/action="http:\/\/localhost:3000\/auth\/sessions\/revoke"/g)).toHaveLength(2);
    // GitHub is linked (a single way in: no unlink), Google can be linked through its sign-in.
    expect(page).toContain('data-provider="github"');
    expect(page).toContain("Your only way to sign in");
    expect(page).not.toContain('action="http://localhost:3000/auth/account/unlink"');
    expect(page).toContain('action="http://localhost:3000/auth/signin/google"');
    expect(page).not.toContain('action="http://localhost:3000/auth/signin/github"');
    // Every form posts the token of the csrf cookie.
    const forms = page.match(/<form [^>]*method="post"/g) ?? [];
    const tokens = page.match(/name="csrfToken" value="([^"]+)"/g) ?? [];
    expect(forms.length).toBeGreaterThan(0);
    expect(tokens).toHaveLength(forms.length);
    for (const token of tokens) expect(token).toContain(csrf);
    // Only the page's own scripts run.
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain(`'${ACCOUNT_SCRIPT_HASH}'`);
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("answers the overview as data, without the sections the configuration lacks", async () => {
    const { client, userId } = await signedIn(
      config({ session: { strategy: "jwt" }, providers: [emailPasswordCredentials()] }),
      "jwt@example.com",
    );
    await link(userId, "github", "gh-1");
    const body = await overview(client);
    expect(body.profile).toEqual({
      id: userId,
      name: "Ada",
      email: "jwt@example.com",
      emailVerified: false,
      image: null,
    });
    // No sessions (JWT), no passkeys (no WebAuthn provider), no extensions.
    expect(Object.keys(body).sort()).toEqual([
      "linkableProviders",
      "linkedAccounts",
      "profile",
      "waysIn",
    ]);
    expect(body.linkableProviders).toEqual([]);
  });

  it("shows the two-factor state and whether a password is set when those extensions are on", async () => {
    const settings = config({
      experimental: { enableWebAuthn: true, extensions: [twoFactor(), password()] },
    });
    const { client } = await signedIn(settings, "ext@example.com");
    const body = await overview(client);
    expect(body.twoFactor).toEqual({
      enabled: false,
      backupCodesLeft: 0,
      manageUrl: `${ORIGIN}/auth/two-factor/status`,
    });
    expect(body.password).toMatchObject({
      set: false,
      changeUrl: `${ORIGIN}/auth/password/change`,
    });
    const page = await (await client.get("/auth/account", HTML)).text();
    expect(page).toContain('id="two-factor-heading"');
    expect(page).toContain('href="http://localhost:3000/auth/two-factor/status"');
    expect(page).toContain('id="password-heading"');
    expect(page).toContain('href="http://localhost:3000/auth/password/change-email"');
  });

  it("lists a passkey added while signed in, with its rename and delete forms", async () => {
    const settings = config();
    const { client } = await signedIn(settings, "keys@example.com");
    const options = await client.get("/auth/webauthn-options/passkey?action=register");
    const { options: creation } = (await options.json()) as { options: CreationOptionsJSON };
    await client.post("/auth/callback/passkey", {
      csrfToken: await client.csrfToken(),
      action: "register",
      data: JSON.stringify(new SoftAuthenticator().register(creation)),
    });
    const body = await overview(client);
    expect(body.passkeys.passkeys).toHaveLength(1);
    const page = await (await client.get("/auth/account", HTML)).text();
    expect(page).toContain(`data-passkey-id="${body.passkeys.passkeys[0].id}"`);
    expect(page).toContain('action="http://localhost:3000/auth/passkeys/rename"');
    expect(page).toContain('action="http://localhost:3000/auth/passkeys/delete"');
    expect(page).toContain('data-action="register"');
  });

  it("prints only known notice and error keys, never the query's text", async () => {
    const { client } = await signedIn(config(), "q@example.com");
    const page = await (
      await client.get("/auth/account?error=<script>alert(1)</script>&notice=constructor", HTML)
    ).text();
    expect(page).not.toContain("<script>alert(1)");
    expect(page).not.toContain("function Object");
    const known = await (await client.get("/auth/account?notice=unlinked", HTML)).text();
    expect(known).toContain("The sign-in method was unlinked.");
  });

  it("speaks the browser's language: Arabic is right to left, notices and refusals included", async () => {
    const { client } = await signedIn(config(), "ar@example.com");
    // A second session, so that the page has a form the client script posts.
    await signedIn(config(), "ar@example.com", "Phone/1.0");
    const arabic = { ...HTML, "accept-language": "ar,en;q=0.5" };
    const page = await (await client.get("/auth/account?notice=unlinked", arabic)).text();
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain("<title>حسابك");
    expect(page).toContain("تم إلغاء ربط طريقة تسجيل الدخول.");
    expect(page).toContain("ربط GitHub");
    expect(page).not.toContain("Sign-in methods");
    const german = await (
      await client.get("/auth/account?error=LastSignInMethod", {
        ...HTML,
        "accept-language": "de-AT",
      })
    ).text();
    expect(german).toContain('<html lang="de">');
    expect(german).toContain("Das ist Ihre einzige Anmeldemöglichkeit.");
    // The client script's refusal text is the form's data-failed, in the page's language.
    expect(german).toContain('data-failed="Das hat nicht geklappt.');
  });

  it("takes the app's texts from messages, and the config's locale over Accept-Language", async () => {
    const { client } = await signedIn(
      config({
        locale: "fr",
        messages: {
          fr: { "account.title": "Mon espace" },
          it: { "account.title": "Il tuo account" },
        },
      }),
      "fr@example.com",
    );
    const page = await (
      await client.get("/auth/account", { ...HTML, "accept-language": "ja" })
    ).text();
    expect(page).toContain('<html lang="fr">');
    expect(page).toContain("<title>Mon espace");
    expect(page).toContain("Sessions et appareils");
  });

  it("keeps the script hash in step with the script", () => {
    const digest = createHash("sha256").update(ACCOUNT_SCRIPT, "utf8").digest("base64");
    expect(ACCOUNT_SCRIPT_HASH).toBe(`sha256-${digest}`);
    expect(ACCOUNT_SCRIPT).not.toMatch(/<\/script/i);
  });
});

describe("the name", () => {
  it("is saved from the page's form and the browser goes back to the page", async () => {
    const { client, userId } = await signedIn(config(), "name@example.com");
    const response = await client.post(
      "/auth/account/profile",
      { csrfToken: await client.csrfToken(), name: "  Ada Lovelace\u0007 " },
      HTML,
    );
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/account?notice=name-saved`);
    expect(store.users.get(userId)?.name).toBe("Ada Lovelace");
  });

  it("CSRF: a post without the token changes nothing", async () => {
    const { client, userId } = await signedIn(config(), "csrf-name@example.com");
    const response = await client.post("/auth/account/profile", { name: "Mallory" });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "MissingCSRF" });
    expect(store.users.get(userId)?.name).toBe("Ada");
  });

  it("refuses a name over 100 characters and a signed-out post", async () => {
    const { client } = await signedIn(config(), "long@example.com");
    const long = await client.post("/auth/account/profile", {
      csrfToken: await client.csrfToken(),
      name: "x".repeat(101),
    });
    expect(long.status).toBe(400);
    const stranger = new Client(config());
    const signedOut = await stranger.post("/auth/account/profile", {
      csrfToken: await stranger.csrfToken(),
      name: "Eve",
    });
    expect(signedOut.status).toBe(401);
  });
});

describe("unlinking a sign-in method", () => {
  it("unlinks one of two provider accounts", async () => {
    const { client, userId } = await signedIn(config(), "two@example.com");
    await link(userId, "github", "gh-two");
    await link(userId, "google", "g-two");
    const response = await unlink(
      client,
      { provider: "github", providerAccountId: "gh-two" },
      HTML,
    );
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/account?notice=unlinked`);
    const left = await overview(client);
    expect(left.linkedAccounts.map((account: { provider: string }) => account.provider)).toEqual([
      "google",
    ]);
    // GitHub can be linked again.
    expect(left.linkableProviders.map((provider: { id: string }) => provider.id)).toEqual([
      "github",
    ]);
  });

  it("lock-out: unlinking the last way in is refused", async () => {
    const { client, userId } = await signedIn(config(), "last@example.com");
    await link(userId, "github", "gh-last");
    const response = await unlink(client, { provider: "github", providerAccountId: "gh-last" });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: "LastSignInMethod" });
    expect(
      await MemoryAdapter(store).getUserByAccount?.({
        provider: "github",
        providerAccountId: "gh-last",
      }),
    ).toMatchObject({ id: userId });
  });

  it("counts a passkey as a way in: the last provider account goes when a passkey stays", async () => {
    const { client, userId } = await signedIn(config(), "pk@example.com");
    await link(userId, "github", "gh-pk");
    await MemoryAdapter(store).linkAccount?.({
      userId,
      provider: "passkey",
      providerAccountId: "cred-1",
      type: "webauthn",
    });
    // A passkey is its account and its stored credential, as a registration leaves them.
    await MemoryAdapter(store).createAuthenticator?.({
      credentialID: Buffer.from("cred-1").toString("base64"),
      userId,
      providerAccountId: "cred-1",
      counter: 0,
      credentialBackedUp: true,
      credentialPublicKey: Buffer.from("public key").toString("base64"),
      transports: "internal",
      credentialDeviceType: "multiDevice",
    });
    const response = await unlink(client, { provider: "github", providerAccountId: "gh-pk" });
    expect(response.status).toBe(200);
  });

  it("IDOR: another user's account is refused as unknown and stays linked", async () => {
    const victim = await signedIn(config(), "victim@example.com");
    await link(victim.userId, "github", "gh-victim");
    await link(victim.userId, "google", "g-victim");
    const { client, userId } = await signedIn(config(), "attacker@example.com");
    await link(userId, "google", "g-attacker");
    await link(userId, "github", "gh-attacker");
    const response = await unlink(client, { provider: "github", providerAccountId: "gh-victim" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "NotLinked" });
    expect(
      await MemoryAdapter(store).getUserByAccount?.({
        provider: "github",
        providerAccountId: "gh-victim",
      }),
    ).toMatchObject({ id: victim.userId });
  });

  it("CSRF: an unlink without the token is refused and the account stays", async () => {
    const { client, userId } = await signedIn(config(), "csrf@example.com");
    await link(userId, "github", "gh-csrf");
    await link(userId, "google", "g-csrf");
    const response = await client.post("/auth/account/unlink", {
      provider: "github",
      providerAccountId: "gh-csrf",
    });
    expect(response.status).toBe(403);
    expect((await overview(client)).linkedAccounts).toHaveLength(2);
  });

  it("step-up: a session signed in more than ten minutes ago must sign in again first", async () => {
    const { client, userId } = await signedIn(config(), "old@example.com");
    await link(userId, "github", "gh-old");
    await link(userId, "google", "g-old");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    const response = await unlink(client, { provider: "github", providerAccountId: "gh-old" });
    expect(response.status).toBe(403);
    const body = await response.json();
    expect(body.error).toBe("StepUpRequired");
    const again = new URL(body.url);
    expect(again.pathname).toBe("/auth/signin");
    expect(again.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/auth/account`);
    const page = await unlink(client, { provider: "github", providerAccountId: "gh-old" }, HTML);
    expect(page.headers.get("location")).toBe(body.url);
    expect((await overview(client)).linkedAccounts).toHaveLength(2);
  });

  it("step-up with a second factor goes through the two-factor extension's confirmation", async () => {
    const settings = config({
      experimental: { enableWebAuthn: true, extensions: [twoFactor()] },
    });
    const { client, userId } = await signedIn(settings, "mfa@example.com");
    await link(userId, "github", "gh-mfa");
    await link(userId, "google", "g-mfa");
    // An enrolled factor (its sealed secret is not read on this path).
    store.twoFactors.set(userId, {
      userId,
      secret: "sealed",
      enabledAt: new Date(),
      lastUsedStep: null,
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    const response = await unlink(client, { provider: "github", providerAccountId: "gh-mfa" });
    const body = await response.json();
    expect(body.error).toBe("StepUpRequired");
    const confirm = new URL(body.url);
    expect(confirm.pathname).toBe("/auth/two-factor/reauthenticate");
    expect(confirm.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/auth/account`);
  });

  it("step-up with JWT sessions: the sign-in's auth_time allows an unlink for ten minutes", async () => {
    const settings = config({ session: { strategy: "jwt" } });
    const { client, userId } = await signedIn(settings, "jwt-step@example.com");
    await link(userId, "github", "gh-jwt");
    await link(userId, "google", "g-jwt");
    await link(userId, "passkey", "cred-jwt");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 9 * 60 * 1000);
    expect((await unlink(client, { provider: "github", providerAccountId: "gh-jwt" })).status).toBe(
      200,
    );
    vi.setSystemTime(Date.now() + 2 * 60 * 1000);
    const late = await unlink(client, { provider: "google", providerAccountId: "g-jwt" });
    expect(late.status).toBe(403);
    expect((await late.json()).error).toBe("StepUpRequired");
  });

  it("refuses a malformed body", async () => {
    const { client } = await signedIn(config(), "bad@example.com");
    const response = await unlink(client, { provider: "github" });
    expect(response.status).toBe(400);
  });
});

describe("server functions", () => {
  it("getAccountOverview, updateAccountName and unlinkAccount act for the request's user", async () => {
    const settings = config();
    const { client, userId } = await signedIn(settings, "server@example.com");
    await link(userId, "github", "gh-s");
    await link(userId, "google", "g-s");
    const request = new Request(`${ORIGIN}/settings`, {
      headers: { cookie: client.cookieHeader() },
    });
    const before = await getAccountOverview(request, settings);
    expect(before?.linkedAccounts).toHaveLength(2);
    expect(before?.sessions).toHaveLength(1);
    expect(await updateAccountName(request, settings, "Ada L.")).toEqual({ ok: true });
    expect(
      await unlinkAccount(request, settings, { provider: "github", providerAccountId: "gh-s" }),
    ).toEqual({ ok: true });
    expect(
      await unlinkAccount(request, settings, { provider: "google", providerAccountId: "g-s" }),
    ).toEqual({ ok: false, error: "LastSignInMethod" });
    const after = await getAccountOverview(request, settings);
    expect(after?.profile.name).toBe("Ada L.");
    expect(await getAccountOverview(new Request(`${ORIGIN}/`), settings)).toBeNull();
  });
});
