/**
 * Password accounts end to end in Chromium, on the built-in pages, against a real HTTP server
 * running Tessera with the memory adapter and a real SMTP server catching the e-mails: sign-up →
 * the e-mailed code → signed in → sign out → "Forgot password?" → the e-mailed reset link →
 * new password → signed in, and the session from before the reset is gone. Once with database
 * sessions, once with JWT sessions and a revocation store. Then e-mail code sign-in (the code of
 * the magic-link e-mail typed on the waiting page) and the change of e-mail address.
 */
import type { AuthConfig } from "@tessera/core";
import { Password, password } from "@tessera/core/password";
import type { PasswordClient } from "@tessera/core/password/client";
import Nodemailer from "@tessera/core/providers/nodemailer";
import { memoryStore } from "@tessera/core/store";
import { MemoryAdapter } from "@tessera/memory";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CapturedMail, startSmtpServer } from "../packages/core/test/email-helpers.js";
import { type AuthServer, startAuthServer } from "./auth-server.js";
import { type LaunchedBrowser, launchBrowser, type Page } from "./browser.js";

const SECRET = "e2e-password-secret-with-32-characters-or-more";
// Cheap scrypt parameters: the browser flow is under test here, not the hashing cost.
const FAST = { ln: 10, r: 8, p: 1 };

let browser: LaunchedBrowser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const servers: AuthServer[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  smtp = await startSmtpServer();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await smtp?.close();
  await Promise.all(servers.map((server) => server.close()));
});

async function passwordServer(strategy: "database" | "jwt") {
  const adapter = MemoryAdapter();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    ...(strategy === "jwt" && { jwt: { revocation: memoryStore(), revocationCacheSeconds: 0 } }),
    logger: { warn() {}, debug() {} },
    providers: [
      Password({ adapter, scrypt: FAST }),
      Nodemailer({ server: smtp.url, from: "no-reply@app.example" }),
    ],
    // Offline: the breached-password check has its own tests against a local range server.
    experimental: { extensions: [password({ scrypt: FAST, breachedPasswords: false })] },
  };
  const server = await startAuthServer(config);
  servers.push(server);
  return server;
}

/** The link in an e-mail to the password pages, and the code it carries. */
function linkIn(mail: CapturedMail, path: string): { link: URL; code: string } {
  const match = new RegExp(`https?://\\S+/auth/password/${path}\\?\\S+`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in:\n${mail.text}`);
  const link = new URL(match[0]);
  return { link, code: link.searchParams.get("code") ?? "" };
}

async function session(page: Page): Promise<{ user?: { email?: string } } | null> {
  return page.evaluate(async () => (await fetch("/auth/session")).json());
}

/** The session as a browser holding only `cookie` would see it. */
async function sessionWith(origin: string, cookie: string): Promise<unknown> {
  const response = await fetch(`${origin}/auth/session`, { headers: { cookie } });
  return response.json();
}

/** Signs in over plain HTTP, as another device would; returns that device's cookies. */
async function signInElsewhere(origin: string, email: string, pw: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const csrf = await fetch(`${origin}/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signedIn = await fetch(`${origin}/auth/callback/password`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email, password: pw }),
  });
  keep(signedIn);
  return cookie();
}

describe.each(["database", "jwt"] as const)(
  "password accounts in Chromium (%s sessions)",
  (strategy) => {
    it("sign-up → code → signed in → sign out → forgot → reset link → signed in, old session gone", async () => {
      const { origin } = await passwordServer(strategy);
      await browser.context.clearCookies();
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(String(error)));
      const email = `ada-${strategy}@example.com`;

      await page.goto(`${origin}/auth/password/signin`);
      await page.getByRole("link", { name: "Create account" }).click();
      await page.fill("#email", email);
      await page.fill("#name", "Ada");
      await page.fill("#password", "correct horse battery staple");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
      const welcome = await smtp.nextMail();
      expect(welcome.to).toEqual([email]);
      const { code } = linkIn(welcome, "verify");
      await page.fill("#code", code);
      await Promise.all([
        page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
        page.getByRole("button", { name: "Continue" }).click(),
      ]);
      expect(await session(page)).toMatchObject({ user: { email, name: "Ada" } });
      // Another device signs in too; the reset must end its session.
      const elsewhere = await signInElsewhere(origin, email, "correct horse battery staple");
      expect(await sessionWith(origin, elsewhere)).toMatchObject({ user: { email } });

      await page.goto(`${origin}/auth/signout`);
      await Promise.all([
        page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
        page.getByRole("button", { name: "Sign out" }).click(),
      ]);
      expect(await session(page)).toBeNull();

      await page.goto(`${origin}/auth/password/signin`);
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await page.fill("#email", email);
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
      const resetMail = await smtp.nextMail();
      const { link } = linkIn(resetMail, "reset");
      await page.goto(link.href);
      expect(await page.inputValue("#code")).toMatch(/^\d{6}$/);
      await page.fill("#password", "a brand new passphrase");
      await Promise.all([
        page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
        page.getByRole("button", { name: "Set password and sign in" }).click(),
      ]);
      expect(await session(page)).toMatchObject({ user: { email } });
      expect(await sessionWith(origin, elsewhere)).toBeNull();

      // The old password no longer signs in; the new one does.
      await page.goto(`${origin}/auth/signout`);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.goto(`${origin}/auth/password/signin`);
      await page.fill("#email", email);
      await page.fill("#password", "correct horse battery staple");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/error=CredentialsSignin/);
      await page.goto(`${origin}/auth/password/signin`);
      await page.fill("#email", email);
      await page.fill("#password", "a brand new passphrase");
      await Promise.all([
        page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
        page.getByRole("button", { name: "Sign in" }).click(),
      ]);
      expect(await session(page)).toMatchObject({ user: { email } });
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
  },
);

describe("e-mail codes and the e-mail change in Chromium (database sessions)", () => {
  let origin = "";
  beforeAll(async () => {
    ({ origin } = await passwordServer("database"));
  });

  it("e-mail code sign-in: the code from the sign-in e-mail, typed on the waiting page, signs in there", async () => {
    await browser.context.clearCookies();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(String(error)));
    await page.goto(`${origin}/auth/signin`);
    const form = page.locator('form[data-provider-id="nodemailer"]');
    await form.locator('input[type="email"]').fill("code-user@example.com");
    await form.getByRole("button").click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    const mail = await smtp.nextMail();
    const code = /Or enter this code: (\d{6})/.exec(mail.text)?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);
    // A wrong code keeps the form, with the reason.
    await page.fill("#code", code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("That code is not right.").waitFor();
    await page.fill("#code", code);
    await Promise.all([
      page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    expect(await session(page)).toMatchObject({ user: { email: "code-user@example.com" } });
    // The same e-mail's link is spent with the code.
    const link = /https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(mail.text)?.[0] ?? "";
    const followed = await fetch(link, { redirect: "manual" });
    expect(followed.headers.get("location")).toContain("error=Verification");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("change e-mail: password, code from the new address, the account moves and the old address is told", async () => {
    await browser.context.clearCookies();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(String(error)));
    await page.goto(`${origin}/auth/password/signup`);
    await page.fill("#email", "mover@example.com");
    await page.fill("#password", "correct horse battery staple");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
    await page.fill("#code", linkIn(await smtp.nextMail(), "verify").code);
    await Promise.all([
      page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
      page.getByRole("button", { name: "Continue" }).click(),
    ]);

    await page.goto(`${origin}/auth/password/change-email`);
    await page.fill("#email", "moved@example.com");
    await page.fill("#currentPassword", "correct horse battery staple");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByRole("heading", { name: "Confirm your new address" }).waitFor();
    const confirmation = await smtp.nextMail();
    expect(confirmation.to).toEqual(["moved@example.com"]);
    // Still the old address until the code is entered.
    expect(await session(page)).toMatchObject({ user: { email: "mover@example.com" } });
    const { link } = linkIn(confirmation, "confirm-email");
    await page.goto(link.href);
    await Promise.all([
      page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
      page.getByRole("button", { name: "Confirm" }).click(),
    ]);
    const notice = await smtp.nextMail();
    expect(notice.to).toEqual(["mover@example.com"]);
    expect(notice.text).toContain("/auth/password/forgot");
    // The new address signs in with the password; the old one no longer does.
    await page.goto(`${origin}/auth/signout`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.goto(`${origin}/auth/password/signin`);
    await page.fill("#email", "mover@example.com");
    await page.fill("#password", "correct horse battery staple");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/error=CredentialsSignin/);
    await page.goto(`${origin}/auth/password/signin`);
    await page.fill("#email", "moved@example.com");
    await page.fill("#password", "correct horse battery staple");
    await Promise.all([
      page.waitForURL((url) => !url.pathname.startsWith("/auth/")),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    expect(await session(page)).toMatchObject({ user: { email: "moved@example.com" } });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

/** The client module as an app's bundler builds it for the browser, on `window.accounts`. */
async function browserBundle(): Promise<string> {
  const bundled = await build({
    stdin: {
      contents: [
        'import { passwordClient } from "@tessera/core/password/client";',
        'window.accounts = passwordClient({ baseUrl: "", basePath: "/auth" });',
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
  return bundled.outputFiles[0]?.text ?? "";
}

type AppWindow = { accounts: PasswordClient };

describe("the password client in Chromium", () => {
  it("signs up, verifies, resets and changes the password from page script", async () => {
    const { origin } = await passwordServer("database");
    await browser.context.clearCookies();
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.addScriptTag({ content: await browserBundle() });
    const email = "grace-client@example.com";
    const call = <T>(
      script: (w: AppWindow, arg: Record<string, string>) => Promise<T>,
      arg: Record<string, string>,
    ) =>
      page.evaluate(
        ([source, input]) => {
          const run = new Function("w", "arg", `return (${source})(w, arg)`);
          return run(window, input) as Promise<T>;
        },
        [script.toString(), arg] as const,
      );
    expect(
      await call(
        (w, a) => w.accounts.signUp({ email: a.email ?? "", password: "client passphrase" }),
        { email },
      ),
    ).toEqual({ ok: true });
    const { code } = linkIn(await smtp.nextMail(), "verify");
    expect(
      await call((w, a) => w.accounts.verify({ email: a.email ?? "", code: "000000" }), { email }),
    ).toMatchObject({
      ok: false,
      error: "CodeInvalid",
    });
    const verified = await call(
      (w, a) => w.accounts.verify({ email: a.email ?? "", code: a.code ?? "" }),
      {
        email,
        code,
      },
    );
    expect(verified).toMatchObject({ ok: true, url: origin });
    expect(await session(page)).toMatchObject({ user: { email } });
    expect(
      await call(
        (w, a) => w.accounts.change({ currentPassword: "a guess", password: a.next ?? "" }),
        {
          next: "changed passphrase",
        },
      ),
    ).toMatchObject({ ok: false, error: "CurrentPasswordWrong" });
    expect(
      await call(
        (w, a) =>
          w.accounts.change({ currentPassword: "client passphrase", password: a.next ?? "" }),
        {
          next: "changed passphrase",
        },
      ),
    ).toEqual({ ok: true });
    expect(await session(page)).toMatchObject({ user: { email } });
    expect(await call((w, a) => w.accounts.requestReset(a.email ?? ""), { email })).toEqual({
      ok: true,
    });
    const reset = linkIn(await smtp.nextMail(), "reset");
    expect(
      await call(
        (w, a) =>
          w.accounts.reset({
            email: a.email ?? "",
            code: a.code ?? "",
            password: "reset passphrase",
          }),
        {
          email,
          code: reset.code,
        },
      ),
    ).toMatchObject({ ok: true });
    expect(await session(page)).toMatchObject({ user: { email } });
    await page.close();
  }, 60_000);
});
