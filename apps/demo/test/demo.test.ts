/**
 * The demo over HTTP, without a browser: JWT sessions switched on by the strategy option, data
 * kept across restarts, the mailbox's handling of hostile mail, the scrypt password hashes, and
 * the demo IdP's access-token refresh, RP-initiated logout and back-channel logout.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decode } from "@tessera/core/jwt";
import { base32Decode, totp } from "@tessera/core/two-factor";
import { decodeJwt } from "jose";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_USER } from "../src/database.js";
import { type RunningDemo, startDemo } from "../src/demo.js";
import { IDP_ACCOUNT } from "../src/idp-account.js";
import { hashPassword, verifyPassword } from "../src/passwords.js";

const SECRET = "demo-http-test-secret-with-more-than-32-chars";
const running: RunningDemo[] = [];
const folders: string[] = [];

afterAll(async () => {
  for (const demo of running) await demo.close();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function start(options: Partial<Parameters<typeof startDemo>[0]> = {}): Promise<RunningDemo> {
  const demo = await startDemo({ port: 0, dataDir: null, secret: SECRET, ...options });
  running.push(demo);
  return demo;
}

/** A browser's cookie jar, reduced to what these tests need. */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly origin: string) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0)
      headers.set(
        "cookie",
        [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      );
    const response = await fetch(new URL(path, this.origin), {
      ...init,
      headers,
      redirect: "manual",
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value === "" || /max-age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async signInWithPassword(email: string, password: string): Promise<Response> {
    const { csrfToken } = (await (await this.fetch("/auth/csrf")).json()) as { csrfToken: string };
    return this.fetch("/auth/callback/password", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email, password, callbackUrl: "/" }),
    });
  }
}

async function countDemoUsers(demo: RunningDemo): Promise<number> {
  const rows = await demo.database.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", DEMO_USER.email)
    .execute();
  return rows.length;
}

describe("session strategy", () => {
  it("uses JWT sessions when asked: an encrypted cookie for the demo user and no session row", async () => {
    const demo = await start({ strategy: "jwt" });
    const browser = new Browser(demo.url);
    const response = await browser.signInWithPassword(DEMO_USER.email, DEMO_USER.password);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${demo.url}/`);

    const token = browser.cookies.get("authjs.session-token") ?? "";
    expect(token.split(".")).toHaveLength(5); // a JWE in compact form
    const payload = await decode({ token, secret: SECRET, salt: "authjs.session-token" });
    expect(payload?.sub).toBe(demo.database.demoUserId);
    expect(payload?.email).toBe(DEMO_USER.email);
    const rows = await demo.database.db.selectFrom("sessions").select("sessionToken").execute();
    expect(rows).toEqual([]);

    const home = await (await browser.fetch("/")).text();
    expect(home).toContain('data-testid="strategy">jwt<');
    expect(home).toContain(`Hello, ${DEMO_USER.name}`);
    const session = (await (await browser.fetch("/auth/session")).json()) as Record<
      string,
      unknown
    >;
    expect(session).toEqual({
      expires: expect.any(String),
      user: {
        id: demo.database.demoUserId,
        name: DEMO_USER.name,
        email: DEMO_USER.email,
        image: null,
      },
      // The demo configures two-factor authentication, which records how the user signed in.
      authentication: { amr: ["pwd"], authenticatedAt: expect.any(String) },
    });
  });

  it("never exposes the database session's token through GET /auth/session", async () => {
    const demo = await start();
    const browser = new Browser(demo.url);
    await browser.signInWithPassword(DEMO_USER.email, DEMO_USER.password);
    const token = browser.cookies.get("authjs.session-token") ?? "";
    expect(token.length).toBeGreaterThan(20);
    const body = await (await browser.fetch("/auth/session")).text();
    expect(body).not.toContain(token);
    expect(JSON.parse(body)).toEqual({
      expires: expect.any(String),
      user: {
        id: demo.database.demoUserId,
        name: DEMO_USER.name,
        email: DEMO_USER.email,
        image: null,
      },
      // Two-factor authentication records how the user signed in (database sessions too).
      authentication: { amr: ["pwd"], authenticatedAt: expect.any(String) },
    });
  });

  it("refuses a wrong password without saying which part was wrong", async () => {
    const demo = await start();
    for (const [email, password] of [
      [DEMO_USER.email, "wrong-password"],
      ["nobody@example.com", DEMO_USER.password],
    ] as const) {
      const browser = new Browser(demo.url);
      const response = await browser.signInWithPassword(email, password);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(
        `${demo.url}/auth/signin?error=CredentialsSignin&code=credentials`,
      );
      expect(browser.cookies.has("authjs.session-token")).toBe(false);
    }
  });
});

describe("password accounts", () => {
  /** Posts a form to the demo's auth routes with the browser's CSRF token. */
  async function postForm(browser: Browser, path: string, form: Record<string, string>) {
    const { csrfToken } = (await (await browser.fetch("/auth/csrf")).json()) as {
      csrfToken: string;
    };
    return browser.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: new URLSearchParams({ csrfToken, callbackUrl: "/", ...form }),
    });
  }
  const codeIn = (text: string) => /Or enter this code: (\d{6})/.exec(text)?.[1] ?? "";

  it("signs up with the e-mailed code, then forgot → reset signs in and ends the old session", async () => {
    const demo = await start();
    const browser = new Browser(demo.url);
    const email = "new-user@example.com";
    const signedUp = postForm(browser, "/auth/password/signup", {
      email,
      name: "New User",
      password: "a demo passphrase",
    });
    const welcome = await demo.mailbox.next();
    expect((await signedUp).status).toBe(200);
    expect(welcome.to).toEqual([email]);
    const verified = await postForm(browser, "/auth/password/verify", {
      email,
      code: codeIn(welcome.text),
    });
    expect(verified.status).toBe(302);
    const session = (await (await browser.fetch("/auth/session")).json()) as {
      user?: { email?: string };
    };
    expect(session.user?.email).toBe(email);

    const elsewhere = new Browser(demo.url);
    const again = await elsewhere.signInWithPassword(email, "a demo passphrase");
    expect(again.headers.get("location")).toBe(`${demo.url}/`);
    const resetting = new Browser(demo.url);
    const asked = postForm(resetting, "/auth/password/forgot", { email });
    const resetMail = await demo.mailbox.next();
    expect((await asked).status).toBe(200);
    const reset = await postForm(resetting, "/auth/password/reset", {
      email,
      code: codeIn(resetMail.text),
      password: "a new demo passphrase",
    });
    expect(reset.status).toBe(302);
    expect(await (await elsewhere.fetch("/auth/session")).json()).toBeNull();
    expect(await (await browser.fetch("/auth/session")).json()).toBeNull();
    const fresh = (await (await resetting.fetch("/auth/session")).json()) as {
      user?: { email?: string };
    };
    expect(fresh.user?.email).toBe(email);
  });

  it("the demo user's hash from before the password extension still signs in and is re-hashed", async () => {
    const demo = await start();
    await demo.database.db
      .updateTable("passwords")
      .set({ hash: await hashPassword(DEMO_USER.password) })
      .where("userId", "=", demo.database.demoUserId)
      .execute();
    const response = await new Browser(demo.url).signInWithPassword(
      DEMO_USER.email,
      DEMO_USER.password,
    );
    expect(response.headers.get("location")).toBe(`${demo.url}/`);
    const row = await demo.database.db
      .selectFrom("passwords")
      .select("hash")
      .where("userId", "=", demo.database.demoUserId)
      .executeTakeFirst();
    expect(row?.hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
  });
});

describe("two-factor authentication", () => {
  it("the home page offers it; once on, a password sign-in asks for a code", async () => {
    const demo = await start();
    const owner = new Browser(demo.url);
    await owner.signInWithPassword(DEMO_USER.email, DEMO_USER.password);
    const off = await (await owner.fetch("/")).text();
    expect(off).toContain('data-testid="two-factor"');
    expect(off).toContain('href="/auth/two-factor/enrol"');
    const post = async (path: string, fields: Record<string, string>) => {
      const { csrfToken } = (await (await owner.fetch("/auth/csrf")).json()) as {
        csrfToken: string;
      };
      return owner.fetch(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, ...fields }),
      });
    };
    const { secret } = (await (await post("/auth/two-factor/enrol", {})).json()) as {
      secret: string;
    };
    const key = base32Decode(secret) as Uint8Array;
    expect((await post("/auth/two-factor/activate", { code: await totp(key) })).status).toBe(200);
    const on = await (await owner.fetch("/")).text();
    expect(on).toContain("10 backup codes left");
    const other = new Browser(demo.url);
    const paused = await other.signInWithPassword(DEMO_USER.email, DEMO_USER.password);
    expect(paused.headers.get("location")).toBe(`${demo.url}/auth/two-factor/verify`);
  });
});

describe("account page", () => {
  it("the home page links to it, and it shows every section the demo enables", async () => {
    const demo = await start();
    const browser = new Browser(demo.url);
    await browser.signInWithPassword(DEMO_USER.email, DEMO_USER.password);
    const home = await (await browser.fetch("/")).text();
    expect(home).toContain('href="/auth/account" data-testid="account-link"');
    const response = await browser.fetch("/auth/account", { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    const page = await response.text();
    for (const id of ["profile", "sessions", "methods", "passkeys", "two-factor", "password"])
      expect(page).toContain(`id="${id}-heading"`);
    expect(page).toContain("Link Demo IdP");
  });
});

describe("GitHub and Google", () => {
  it("appear only when both their id and secret are in the environment", async () => {
    const plain = await start({ env: { AUTH_GITHUB_ID: "id-without-secret" } });
    const none = (await (await fetch(`${plain.url}/auth/providers`)).json()) as object;
    expect(Object.keys(none).sort()).toEqual(["demo-idp", "email", "passkey", "password"]);
    expect(await (await fetch(`${plain.url}/auth/signin`)).text()).not.toContain("GitHub");

    const demo = await start({
      env: {
        AUTH_GITHUB_ID: "gh-client",
        AUTH_GITHUB_SECRET: "gh-secret",
        AUTH_GOOGLE_ID: "google-client",
        AUTH_GOOGLE_SECRET: "google-secret",
      },
    });
    const providers = (await (await fetch(`${demo.url}/auth/providers`)).json()) as object;
    expect(Object.keys(providers)).toEqual([
      "demo-idp",
      "github",
      "google",
      "password",
      "email",
      "passkey",
    ]);
    const signIn = await (await fetch(`${demo.url}/auth/signin`)).text();
    expect(signIn).toContain("Sign in with GitHub");
    expect(signIn).toContain("Sign in with Google");
    // GitHub's endpoints are fixed (no discovery), so the redirect is checked without a network.
    const browser = new Browser(demo.url);
    const { csrfToken } = (await (await browser.fetch("/auth/csrf")).json()) as {
      csrfToken: string;
    };
    const started = await browser.fetch("/auth/signin/github", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, callbackUrl: "/" }),
    });
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(location.searchParams.get("client_id")).toBe("gh-client");
    expect(location.searchParams.get("redirect_uri")).toBe(`${demo.url}/auth/callback/github`);
  });
});

describe("data folder", () => {
  it("migrates once, keeps users across restarts and creates the demo user only once", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "tessera-demo-data-"));
    folders.push(dataDir);
    const first = await start({ dataDir });
    expect(first.database.applied.length).toBeGreaterThan(0);
    expect(first.database.filename).toBe(join(dataDir, "demo.sqlite"));
    const userId = first.database.demoUserId;
    await first.close();

    const second = await start({ dataDir });
    expect(second.database.applied).toEqual([]);
    expect(second.database.demoUserId).toBe(userId);
    expect(await countDemoUsers(second)).toBe(1);
    const browser = new Browser(second.url);
    expect((await browser.signInWithPassword(DEMO_USER.email, DEMO_USER.password)).status).toBe(
      302,
    );
    expect(browser.cookies.has("authjs.session-token")).toBe(true);
  });
});

describe("sign-in page", () => {
  it("never shows the demo password, and titles and labels its methods apart", async () => {
    const demo = await start();
    const page = await (await fetch(`${demo.url}/auth/signin`)).text();
    expect(page).not.toContain(DEMO_USER.password);
    expect(page).toContain('autocomplete="current-password"');
    const labels = [...page.matchAll(/<label for="[^"]+">([^<]+)<\/label>/g)].map((m) => m[1]);
    expect(new Set(labels).size).toBe(labels.length);
    expect(page.match(/class="group-title"/g)?.length).toBeGreaterThan(2);
  });

  it("speaks the browser's language: Japanese, Arabic right to left, English otherwise", async () => {
    const demo = await start();
    const signIn = async (acceptLanguage: string) =>
      (
        await fetch(`${demo.url}/auth/signin`, { headers: { "accept-language": acceptLanguage } })
      ).text();
    const japanese = await signIn("ja-JP,ja;q=0.9,en;q=0.5");
    expect(japanese).toContain('<html lang="ja">');
    expect(japanese).toContain("<h1>ログイン</h1>");
    const arabic = await signIn("ar");
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain("<h1>تسجيل الدخول</h1>");
    expect(await signIn("tlh")).toContain("<h1>Sign in</h1>");
  });
});

describe("mailbox", () => {
  it("shows hostile mail as text and only turns links back to the demo into buttons", async () => {
    const demo = await start();
    const transport = nodemailer.createTransport(demo.mailbox.url);
    const arrived = demo.mailbox.next();
    await transport.sendMail({
      from: "attacker@example.com",
      to: "victim@example.com",
      subject: '<img src=x onerror="alert(1)">',
      text: `Click javascript:alert(1) or https://evil.example/phish or ${demo.url}/auth/callback/email?token=abc`,
      html: '<p>hi</p><script>alert(1)</script><a href="https://evil.example/">x</a>',
    });
    const mail = await arrived;
    transport.close();

    const page = await fetch(`${demo.url}/dev/mailbox`);
    const body = await page.text();
    expect(body).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(body).not.toContain("<img src=x");
    const buttons = [...body.matchAll(/<a [^>]*data-testid="mail-link"[^>]*>/g)].map((m) => m[0]);
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toContain(`href="${demo.url}/auth/callback/email?token=abc"`);
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/);

    // The HTML part is served alone, in a sandbox without script.
    const preview = await fetch(`${demo.url}/dev/mailbox/${mail.id}`);
    expect(preview.headers.get("content-security-policy")).toMatch(/^sandbox[ ;]/);
    expect(preview.headers.get("content-security-policy")).not.toMatch(
      /allow-scripts|allow-same-origin/,
    );
    expect(preview.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    expect((await fetch(`${demo.url}/dev/mailbox/999`)).status).toBe(404);
    expect((await fetch(`${demo.url}/dev/mailbox/abc`)).status).toBe(404);
  });

  it("shows a sign-in link as used once it has signed someone in", async () => {
    const demo = await start();
    const browser = new Browser(demo.url);
    const arrived = demo.mailbox.next();
    const { csrfToken } = (await (await browser.fetch("/auth/csrf")).json()) as {
      csrfToken: string;
    };
    await browser.fetch("/auth/signin/email", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email: "grace@example.com", callbackUrl: "/" }),
    });
    await arrived;
    const mailLink = async () =>
      /<a [^>]*data-testid="mail-link"[^>]*>[^<]*<\/a>/.exec(
        await (await fetch(`${demo.url}/dev/mailbox`)).text(),
      )?.[0] ?? "";

    const fresh = await mailLink();
    expect(fresh).toContain('data-used="no"');
    expect(fresh).toContain("Open the sign-in link");
    const href = /href="([^"]+)"/.exec(fresh)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect((await browser.fetch(href)).status).toBe(302);
    expect(await (await browser.fetch("/auth/session")).json()).toMatchObject({
      user: { email: "grace@example.com" },
    });

    const used = await mailLink();
    expect(used).toContain('data-used="yes"');
    expect(used).toContain("Link used or expired");
    expect(used).toContain('class="button secondary used"');
  });

  it("the check-email page takes the e-mail's 6-digit code in the browser that asked for it", async () => {
    const demo = await start();
    const browser = new Browser(demo.url);
    const arrived = demo.mailbox.next();
    const { csrfToken } = (await (await browser.fetch("/auth/csrf")).json()) as {
      csrfToken: string;
    };
    const started = await browser.fetch("/auth/signin/email", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email: "hopper@example.com", callbackUrl: "/" }),
    });
    const mail = await arrived;
    const code = /Or enter this code: (\d{6})/.exec(mail.text)?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);
    const waiting = await (await browser.fetch(started.headers.get("location") ?? "")).text();
    expect(waiting).toContain('data-testid="email-code-form"');
    expect(waiting).toContain('action="/auth/callback/email"');
    // Another browser has no pending code: no form there.
    const other = await (await new Browser(demo.url).fetch("/check-email?provider=email")).text();
    expect(other).not.toContain('data-testid="email-code-form"');
    const formToken = /name="csrfToken" value="([^"]+)"/.exec(waiting)?.[1] ?? "";
    const signedIn = await browser.fetch("/auth/callback/email", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: formToken, code }),
    });
    expect(signedIn.status).toBe(302);
    expect(await (await browser.fetch("/auth/session")).json()).toMatchObject({
      user: { email: "hopper@example.com" },
    });
  });
});

describe("passwords", () => {
  it("hashes with scrypt, verifies the right password only, and never matches a malformed hash", async () => {
    const stored = await hashPassword("correct horse");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored).not.toBe(await hashPassword("correct horse")); // salted
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct horse ", stored)).toBe(false);
    for (const malformed of [
      "",
      "scrypt",
      "bcrypt$1$2$3$aa$bb",
      "scrypt$0$8$1$aa$bb",
      "scrypt$x$8$1$aa$bb",
    ])
      expect(await verifyPassword("correct horse", malformed)).toBe(false);
  });
});

/** Cookies of the demo IdP's origin, kept apart from the demo's (another site for the browser). */
class IdpBrowser extends Browser {
  readonly idpCookies = new Map<string, string>();
  constructor(
    origin: string,
    readonly idpOrigin: string,
  ) {
    super(origin);
  }

  async idpFetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.idpCookies.size > 0)
      headers.set(
        "cookie",
        [...this.idpCookies].map(([name, value]) => `${name}=${value}`).join("; "),
      );
    const response = await fetch(new URL(url, this.idpOrigin), {
      ...init,
      headers,
      redirect: "manual",
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(header))
        this.idpCookies.delete(name);
      else this.idpCookies.set(name, value);
    }
    return response;
  }

  /** Follows the IdP's redirects until the browser is sent elsewhere; returns the last answer. */
  async followAtIdp(start: string, init?: RequestInit): Promise<Response> {
    let response = await this.idpFetch(start, init);
    for (let hop = 0; hop < 10; hop++) {
      const location = response.headers.get("location");
      if (!location) return response;
      const next = new URL(location, this.idpOrigin);
      if (next.origin !== this.idpOrigin) return response;
      response = await this.idpFetch(next.href);
    }
    throw new Error("The IdP redirected too many times.");
  }

  /** Signs in through the demo IdP's login form, as a person would. */
  async signInWithIdp(): Promise<void> {
    const { csrfToken } = (await (await this.fetch("/auth/csrf")).json()) as { csrfToken: string };
    const started = await this.fetch("/auth/signin/demo-idp", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, callbackUrl: "/" }),
    });
    const loginPage = await this.followAtIdp(started.headers.get("location") ?? "");
    expect(loginPage.status).toBe(200);
    const action = /<form method="post" action="([^"]+)\/login">/.exec(await loginPage.text())?.[1];
    const answer = await this.followAtIdp(`${action}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: IDP_ACCOUNT.username, password: IDP_ACCOUNT.password }),
    });
    const callback = answer.headers.get("location") ?? "";
    expect(callback).toContain("/auth/callback/demo-idp?");
    const landed = await this.fetch(callback);
    expect(landed.headers.get("location")).toBe(`${this.origin}/`);
  }

  /** Confirms the IdP's "sign out?" page (oidc-provider's own form) and returns where it sends. */
  async confirmIdpLogout(endSessionUrl: string): Promise<string> {
    const page = await this.idpFetch(endSessionUrl);
    const body = await page.text();
    expect(page.status).toBe(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(body)?.[1] ?? "";
    const fields = new URLSearchParams({ logout: "yes" });
    for (const [, name = "", value = ""] of body.matchAll(
      /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
    ))
      fields.set(name, value);
    const confirmed = await this.followAtIdp(action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: fields,
    });
    return confirmed.headers.get("location") ?? "";
  }

  async sessionUser(): Promise<unknown> {
    const session = (await (await this.fetch("/auth/session")).json()) as {
      user?: { email?: string };
    } | null;
    return session?.user?.email ?? null;
  }
}

describe("demo IdP: access-token refresh and federated sign-out", () => {
  let demo: RunningDemo;
  beforeAll(async () => {
    demo = await start();
  });

  it("serves the access token at /token and refreshes it with the rotating refresh token once it expires", async () => {
    const browser = new IdpBrowser(demo.url, demo.idpIssuer);
    expect((await browser.fetch("/token")).status).toBe(401);
    await browser.signInWithIdp();
    expect(await browser.sessionUser()).toBe(IDP_ACCOUNT.claims.email);
    expect(await (await browser.fetch("/")).text()).toContain('data-testid="access-token-link"');

    const first = await browser.fetch("/token");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const before = (await first.json()) as Record<string, unknown>;
    expect(before).toEqual({
      provider: "demo-idp",
      accessToken: expect.any(String),
      tokenType: "bearer",
      scope: expect.stringContaining("openid"),
      expiresAt: expect.any(Number),
      expiresIn: expect.any(Number),
    });
    expect(before.expiresIn).toBeGreaterThan(50);
    expect(before.expiresIn).toBeLessThanOrEqual(60);
    const stored = () =>
      demo.database.db
        .selectFrom("accounts")
        .select(["refresh_token", "access_token"])
        .where("provider", "=", "demo-idp")
        .executeTakeFirstOrThrow();
    const { refresh_token: firstRefreshToken } = await stored();
    expect(firstRefreshToken).toEqual(expect.any(String));
    const page = JSON.stringify(before);
    expect(page).not.toContain(firstRefreshToken);
    // Read twice before expiry: the same token, no refresh.
    expect(
      ((await (await browser.fetch("/token")).json()) as { accessToken: string }).accessToken,
    ).toBe(before.accessToken);

    // The access token expires (its expiry moved into the past rather than waiting 60 s).
    await demo.database.db
      .updateTable("accounts")
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .where("provider", "=", "demo-idp")
      .execute();
    const after = (await (await browser.fetch("/token")).json()) as Record<string, unknown>;
    expect(after.accessToken).toEqual(expect.any(String));
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.expiresIn).toBeGreaterThan(50);
    const rotated = await stored();
    expect(rotated.access_token).toBe(after.accessToken);
    expect(rotated.refresh_token).toEqual(expect.any(String));
    expect(rotated.refresh_token).not.toBe(firstRefreshToken);
    expect(JSON.stringify(after)).not.toContain(rotated.refresh_token);
  });

  it("signs out of the IdP too: the sign-out lands on its end-session page with id_token_hint", async () => {
    const browser = new IdpBrowser(demo.url, demo.idpIssuer);
    await browser.signInWithIdp();
    const { csrfToken } = (await (await browser.fetch("/auth/csrf")).json()) as {
      csrfToken: string;
    };
    const signOut = await browser.fetch("/auth/signout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, callbackUrl: "/" }),
    });
    expect(await browser.sessionUser()).toBeNull();
    const endSession = new URL(signOut.headers.get("location") ?? "");
    expect(`${endSession.origin}${endSession.pathname}`).toBe(`${demo.idpIssuer}/session/end`);
    expect(endSession.searchParams.get("client_id")).toBe("tessera-demo");
    expect(endSession.searchParams.get("post_logout_redirect_uri")).toBe(`${demo.url}/`);
    const idToken = decodeJwt(endSession.searchParams.get("id_token_hint") ?? "");
    expect(idToken.iss).toBe(demo.idpIssuer);
    expect(idToken.sub).toBe(IDP_ACCOUNT.claims.sub);

    // Confirmed at the IdP, the browser comes back to the demo's home page, signed out there too.
    expect(await browser.confirmIdpLogout(endSession.href)).toBe(`${demo.url}/`);
    const again = await browser.followAtIdp(
      `/auth?client_id=tessera-demo&response_type=code&scope=openid&prompt=none&redirect_uri=${encodeURIComponent(`${demo.url}/auth/callback/demo-idp`)}`,
    );
    expect(new URL(again.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "login_required",
    );
  });

  it("ends the demo session when the user signs out at the IdP (back-channel logout), and only that user's", async () => {
    const browser = new IdpBrowser(demo.url, demo.idpIssuer);
    await browser.signInWithIdp();
    const bystander = new Browser(demo.url);
    await bystander.signInWithPassword(DEMO_USER.email, DEMO_USER.password);
    expect(await browser.sessionUser()).toBe(IDP_ACCOUNT.claims.email);

    // The user signs out at the IdP itself (no id_token_hint: the demo is not involved); the IdP
    // posts a logout token to the demo's /auth/backchannel-logout/demo-idp.
    await browser.confirmIdpLogout("/session/end");
    expect(await browser.sessionUser()).toBeNull();
    expect((await browser.fetch("/token")).status).toBe(401);
    const sessions = await demo.database.db.selectFrom("sessions").select("userId").execute();
    expect(sessions.map((row) => row.userId)).toEqual([demo.database.demoUserId]);
    expect(
      ((await (await bystander.fetch("/auth/session")).json()) as { user: { email: string } }).user
        .email,
    ).toBe(DEMO_USER.email);
  });
});

describe("demo IdP with JWT sessions", () => {
  it("keeps the tokens in the session JWT, refreshes the expired access token, and ends the session on a back-channel logout", async () => {
    // 11-second access tokens, refreshed from 10 seconds before expiry: stale after one second.
    const demo = await start({ strategy: "jwt", idpAccessTokenTtl: 11 });
    const browser = new IdpBrowser(demo.url, demo.idpIssuer);
    await browser.signInWithIdp();
    const cookieBefore = browser.cookies.get("authjs.session-token");
    const before = (await (await browser.fetch("/token")).json()) as { accessToken: string };
    expect(before.accessToken).toEqual(expect.any(String));

    await new Promise((resolve) => setTimeout(resolve, 2100));
    const after = (await (await browser.fetch("/token")).json()) as {
      accessToken: string;
      expiresIn: number;
    };
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.expiresIn).toBeGreaterThan(8);
    // The refreshed tokens went back to the browser in a re-issued session cookie.
    expect(browser.cookies.get("authjs.session-token")).not.toBe(cookieBefore);
    const again = (await (await browser.fetch("/token")).json()) as { accessToken: string };
    expect(again.accessToken).toBe(after.accessToken);

    // Signed out at the IdP: the logout token puts the session's sid on the revocation list.
    await browser.confirmIdpLogout("/session/end");
    expect(await browser.sessionUser()).toBeNull();
  });
});
