/**
 * Password accounts (`@tessera/core/password`) over HTTP with the in-memory adapter and a real
 * SMTP server: sign-up with an e-mailed code, sign-in through the `Password` provider, forgot →
 * reset, and the attacks: account enumeration by status and body, code reuse and expiry, a code
 * for another address, brute force of the code, CSRF, a weak password.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Auth, type AuthConfig, actionRunner, assertStartupConfig } from "@tessera/core";
import { InvalidExtension, PasswordRefused } from "@tessera/core/errors";
import {
  hashPassword,
  Password,
  type PasswordEmail,
  type PasswordOptions,
  password,
  passwordApi,
} from "@tessera/core/password";
import Credentials from "@tessera/core/providers/credentials";
import Nodemailer from "@tessera/core/providers/nodemailer";
import { memoryStore } from "@tessera/core/store";
import { MemoryAdapter } from "@tessera/memory";
import { describe, expect, it } from "vitest";
import { startSmtpServer } from "./email-helpers.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

// Cheap scrypt parameters for the flows; the hashing tests run OWASP's defaults.
const FAST = { ln: 10, r: 8, p: 1 };
const PAGE = { accept: "text/html" };

/**
 * The e-mails being sent: they leave off the response path, so the helpers below wait for them
 * after each request, as a user waits for the e-mail.
 */
const deliveries: Promise<void>[] = [];
const delivered = () => Promise.all(deliveries.splice(0));

function setup(
  options: PasswordOptions = {},
  extra: Partial<AuthConfig> = {},
  strategy: "jwt" | "database" = "database",
) {
  const adapter = MemoryAdapter();
  const storage = memoryStore();
  const mails: PasswordEmail[] = [];
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    adapter,
    session: { strategy },
    logger: recordingLogger().logger,
    rateLimit: { storage },
    providers: [Password({ adapter, scrypt: FAST })],
    experimental: {
      extensions: [
        password({
          scrypt: FAST,
          // Offline: the breached-password tests run their own range server.
          breachedPasswords: false,
          send: async (mail) => {
            mails.push(mail);
          },
          deliver: (sending) => void deliveries.push(sending),
          ...options,
        }),
      ],
    },
    ...extra,
  };
  const lastMail = (to: string) => {
    const mail = [...mails].reverse().find((m) => m.to === to);
    if (!mail) throw new Error(`no mail to ${to}`);
    return mail;
  };
  return { adapter, config, mails, lastMail };
}

async function post(client: Client, path: string, form: Record<string, string>, html = true) {
  const csrfToken = await client.csrfToken();
  const answer = await client.post(path, { csrfToken, ...form }, html ? PAGE : {});
  await delivered();
  return answer;
}

async function signUp(client: Client, email: string, pw = "a long passphrase") {
  return post(client, "/auth/password/signup", { email, password: pw, name: "Ada" });
}

async function signIn(client: Client, email: string, pw: string) {
  return post(client, "/auth/callback/password", {
    email,
    password: pw,
    callbackUrl: `${ORIGIN}/dashboard`,
  });
}

/** A page's text without the parts that differ per request (CSRF token, nonces). */
const comparable = (body: string) =>
  body
    .replace(/name="csrfToken" value="[^"]*"/g, "")
    .replace(/nonce="[^"]*"/g, "")
    .replace(/nonce-[A-Za-z0-9+/=_-]+/g, "");

describe("the password extension", () => {
  it("names the missing adapter method and the packages that have it, at start-up", () => {
    const { config } = setup();
    const { getPasswordHash: _, ...partial } = MemoryAdapter();
    expect(() => assertStartupConfig({ ...config, adapter: partial })).toThrow(InvalidExtension);
    expect(() => assertStartupConfig({ ...config, adapter: partial })).toThrow(
      /needs the adapter method getPasswordHash.*@tessera\/memory, @tessera\/sql, @tessera\/redis/,
    );
    expect(() => Password({ adapter: partial as never })).toThrow(/getPasswordHash/);
  });

  it("signs up, e-mails a code over real SMTP, and the code signs the new user in", async () => {
    const smtp = await startSmtpServer();
    try {
      const adapter = MemoryAdapter();
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        basePath: "/auth",
        adapter,
        session: { strategy: "database" },
        providers: [
          Password({ adapter, scrypt: FAST }),
          Nodemailer({ server: smtp.url, from: "no-reply@app.example" }),
        ],
        experimental: { extensions: [password({ scrypt: FAST, breachedPasswords: false })] },
      };
      const client = new Client(config);
      const answer = await signUp(client, "Ada@Example.com");
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain("Check your e-mail");
      const mail = await smtp.nextMail();
      expect(mail.to).toEqual(["ada@example.com"]);
      const link = new URL(
        /https?:\/\/\S+\/auth\/password\/verify\?\S+/.exec(mail.text)?.[0] ?? "",
      );
      const code = link.searchParams.get("code") ?? "";
      expect(code).toMatch(/^\d{6}$/);
      // One e-mail carries both: the link, and the code to type where the link cannot go.
      expect(mail.text).toContain(`Or enter this code: ${code}`);
      expect(mail.html).toContain(`>${code}</p>`);
      // Not verified yet: the password does not sign in (the same refusal as a wrong one).
      const early = await signIn(client, "ada@example.com", "a long passphrase");
      expect(early.headers.get("location")).toContain("error=CredentialsSignin");
      // The link fills the code in; only the post spends it.
      const filled = await client.get(`${link.pathname}${link.search}`, PAGE);
      expect(await filled.text()).toContain(`value="${code}"`);
      const verified = await post(client, "/auth/password/verify", {
        email: "ada@example.com",
        code,
      });
      expect(verified.status).toBe(302);
      expect(await client.session()).toMatchObject({
        user: { email: "ada@example.com", name: "Ada" },
      });
      const stored = await adapter.getUserByEmail("ada@example.com");
      expect(stored?.emailVerified).toBeInstanceOf(Date);
      expect(await adapter.getPasswordHash(stored?.id ?? "")).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
    } finally {
      await smtp.close();
    }
  });

  it("change e-mail over real SMTP: the new address gets its own confirmation e-mail, the old one a notice that names the new address and the way back", async () => {
    const smtp = await startSmtpServer();
    try {
      const adapter = MemoryAdapter();
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        basePath: "/auth",
        adapter,
        session: { strategy: "database" },
        providers: [
          Password({ adapter, scrypt: FAST }),
          Nodemailer({ server: smtp.url, from: "no-reply@app.example" }),
        ],
        experimental: {
          extensions: [
            password({
              scrypt: FAST,
              breachedPasswords: false,
              deliver: (sending) => void deliveries.push(sending),
              emailMessages: { emailChangedHeading: "Adresse geändert" },
            }),
          ],
        },
      };
      await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
      await adapter.setPasswordHash("u1", await hashPassword("a long passphrase", FAST));
      const client = new Client(config);
      await signIn(client, "ada@example.com", "a long passphrase");
      await post(client, "/auth/password/change-email", {
        email: "countess@example.com",
        currentPassword: "a long passphrase",
      });
      const confirmation = await smtp.nextMail();
      expect(confirmation.to).toEqual(["countess@example.com"]);
      expect(confirmation.subject).toBe("Confirm your new address for localhost:3000");
      expect(confirmation.text).toContain("Confirm your new e-mail address");
      expect(confirmation.text).toContain("You asked to use countess@example.com");
      expect(confirmation.text).not.toContain("Sign in");
      const code = /Or enter this code: (\d{6})/.exec(confirmation.text)?.[1] ?? "";
      expect(code).toMatch(/^\d{6}$/);
      expect(confirmation.text).toContain(
        `Confirm new address: ${ORIGIN}/auth/password/confirm-email?email=countess%40example.com&code=${code}`,
      );
      expect(confirmation.html).toContain(">Confirm new address</a>");
      expect(confirmation.html).toContain(`>${code}</p>`);
      const confirmed = await post(client, "/auth/password/confirm-email", {
        email: "countess@example.com",
        code,
      });
      expect(confirmed.status).toBe(302);
      const notice = await smtp.nextMail();
      expect(notice.to).toEqual(["ada@example.com"]);
      expect(notice.subject).toBe("Your address for localhost:3000 was changed");
      // The app's wording replaces the keyed default.
      expect(notice.text.startsWith("Adresse geändert\n")).toBe(true);
      expect(notice.text).toContain("was changed to countess@example.com");
      expect(notice.text).toContain(`Reset password: ${ORIGIN}/auth/password/forgot`);
      expect(notice.html).toContain("countess@example.com");
      // A notice carries no code: nothing in it signs in.
      expect(notice.text).not.toMatch(/\b\d{6}\b/);
    } finally {
      await smtp.close();
    }
  });

  it("change e-mail in the reader's language: Arabic e-mails are right to left, the lifetime in Arabic, password({ messages }) overrides a text", async () => {
    const smtp = await startSmtpServer();
    try {
      const adapter = MemoryAdapter();
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        basePath: "/auth",
        adapter,
        session: { strategy: "database" },
        locale: "ar",
        providers: [
          Password({ adapter, scrypt: FAST }),
          Nodemailer({ server: smtp.url, from: "no-reply@app.example" }),
        ],
        experimental: {
          extensions: [
            password({
              scrypt: FAST,
              breachedPasswords: false,
              deliver: (sending) => void deliveries.push(sending),
              messages: { ar: { "password.emailChangedMail.heading": "تغيّر العنوان" } },
            }),
          ],
        },
      };
      await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
      await adapter.setPasswordHash("u1", await hashPassword("a long passphrase", FAST));
      const client = new Client(config);
      await signIn(client, "ada@example.com", "a long passphrase");
      await post(client, "/auth/password/change-email", {
        email: "countess@example.com",
        currentPassword: "a long passphrase",
      });
      const confirmation = await smtp.nextMail();
      expect(confirmation.subject).toBe("أكّد عنوانك الجديد لدى localhost:3000");
      expect(confirmation.html).toContain('<html lang="ar" dir="rtl">');
      expect(confirmation.text).toContain("أكّد عنوان بريدك الإلكتروني الجديد");
      // 15 minutes, worded in Arabic by Intl.NumberFormat.
      const lifetime = new Intl.NumberFormat("ar", {
        style: "unit",
        unit: "minute",
        unitDisplay: "long",
      }).format(15);
      expect(confirmation.text).toContain(`خلال ${lifetime}`);
      expect(confirmation.text).not.toContain("minutes");
      const code = /(\d{6})/.exec(confirmation.text)?.[1] ?? "";
      await post(client, "/auth/password/confirm-email", { email: "countess@example.com", code });
      const notice = await smtp.nextMail();
      expect(notice.subject).toBe("تم تغيير عنوانك لدى localhost:3000");
      expect(notice.text.startsWith("تغيّر العنوان\n")).toBe(true);
      expect(notice.text).toContain("countess@example.com");
    } finally {
      await smtp.close();
    }
  });

  it("signs in with the password once verified; a wrong password and an unknown user get one answer", async () => {
    const { config, lastMail } = setup();
    const client = new Client(config);
    await signUp(client, "ada@example.com");
    await post(client, "/auth/password/verify", {
      email: "ada@example.com",
      code: lastMail("ada@example.com").code,
    });
    const other = new Client(config);
    const good = await signIn(other, "ada@example.com", "a long passphrase");
    expect(good.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    const wrong = await signIn(new Client(config), "ada@example.com", "not the passphrase");
    const unknown = await signIn(new Client(config), "nobody@example.com", "not the passphrase");
    expect(wrong.status).toBe(unknown.status);
    expect(wrong.headers.get("location")).toBe(unknown.headers.get("location"));
  });

  it("re-hashes a hash made with older parameters at the next sign-in", async () => {
    const { config, adapter } = setup();
    const user = await adapter.createUser({
      id: "old",
      email: "old@example.com",
      emailVerified: new Date(),
    });
    await adapter.setPasswordHash(
      user.id,
      await hashPassword("an older passphrase", { ln: 9, r: 8, p: 1 }),
    );
    const answer = await signIn(new Client(config), "old@example.com", "an older passphrase");
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(await adapter.getPasswordHash(user.id)).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
  });

  it("an imported Argon2id user signs in with their old password and is re-hashed to scrypt", async () => {
    const { config, adapter } = setup();
    await adapter.createUser({ id: "imp", email: "imp@example.com", emailVerified: new Date() });
    // Made by the Argon2 reference implementation (see password-hash.test.ts).
    await adapter.setPasswordHash(
      "imp",
      "$argon2id$v=19$m=1024,t=2,p=1$dGVzc2VyYS1zYWx0LTE2Yg$Zw/ApUYMeXaLXdwOKLE6fejsJaXkBWxbcp05z5ICC1U",
    );
    const answer = await signIn(
      new Client(config),
      "imp@example.com",
      "correct horse battery staple",
    );
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(await adapter.getPasswordHash("imp")).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
    const again = await signIn(
      new Client(config),
      "imp@example.com",
      "correct horse battery staple",
    );
    expect(again.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
  });

  it("an imported bcrypt user signs in with their old password and is re-hashed to scrypt", async () => {
    const { config, adapter } = setup();
    await adapter.createUser({ id: "bc", email: "bc@example.com", emailVerified: new Date() });
    // Openwall's crypt_blowfish test vector for the password "U*U".
    await adapter.setPasswordHash(
      "bc",
      "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
    );
    const wrong = await signIn(new Client(config), "bc@example.com", "U*V");
    expect(wrong.headers.get("location")).toContain("error=CredentialsSignin");
    expect(await adapter.getPasswordHash("bc")).toMatch(/^\$2a\$/);
    const answer = await signIn(new Client(config), "bc@example.com", "U*U");
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(await adapter.getPasswordHash("bc")).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
    const again = await signIn(new Client(config), "bc@example.com", "U*U");
    expect(again.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
  });

  it("account enumeration by status and body: sign-up and forgot answer the same for a taken and a free address", async () => {
    const { config, mails, lastMail } = setup();
    await signUp(new Client(config), "taken@example.com");
    const taken = await signUp(new Client(config), "taken@example.com");
    const free = await signUp(new Client(config), "free@example.com");
    expect(taken.status).toBe(free.status);
    const takenBody = comparable(await taken.text()).replace(/taken@/g, "X@");
    const freeBody = comparable(await free.text()).replace(/free@/g, "X@");
    expect(takenBody).toBe(freeBody);
    // The e-mail says what happened: the owner of the taken address is told.
    expect(lastMail("taken@example.com").kind).toBe("exists");
    expect(lastMail("free@example.com").kind).toBe("verify");
    const known = await post(new Client(config), "/auth/password/forgot", {
      email: "taken@example.com",
    });
    const unknown = await post(new Client(config), "/auth/password/forgot", {
      email: "nobody@example.com",
    });
    expect(known.status).toBe(unknown.status);
    expect(comparable(await known.text()).replace(/taken@/g, "X@")).toBe(
      comparable(await unknown.text()).replace(/nobody@/g, "X@"),
    );
    expect(mails.some((mail) => mail.to === "nobody@example.com")).toBe(false);
  });

  it("account enumeration by timing: sign-up and forgot answer before the e-mail is sent, for a taken and a free address alike", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sent: string[] = [];
    const handed: Promise<void>[] = [];
    const { config, adapter } = setup({
      // The mail server has not answered yet: an answer that waited for it would never come.
      send: async (mail) => {
        await held;
        sent.push(`${mail.kind} ${mail.to}`);
      },
      deliver: (sending) => void handed.push(sending),
    });
    await adapter.createUser({ id: "t", email: "taken@example.com", emailVerified: new Date() });
    const answers = [
      await signUp(new Client(config), "taken@example.com"),
      await signUp(new Client(config), "free@example.com"),
      await post(new Client(config), "/auth/password/forgot", { email: "taken@example.com" }),
      await post(new Client(config), "/auth/password/forgot", { email: "nobody@example.com" }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(sent).toEqual([]);
    // Three e-mails (none to the address without an account), handed to `deliver`.
    expect(handed).toHaveLength(3);
    release();
    await Promise.all(handed);
    expect(sent.sort()).toEqual([
      "exists taken@example.com",
      "reset taken@example.com",
      "verify free@example.com",
    ]);
  });

  it("a failing mail server is logged, and the answer is the one a delivered e-mail gets", async () => {
    const { errors, logger } = recordingLogger();
    const handed: Promise<void>[] = [];
    const { config, adapter } = setup(
      {
        send: async () => {
          throw new Error("550 mailbox unavailable");
        },
        deliver: (sending) => void handed.push(sending),
      },
      { logger },
    );
    await adapter.createUser({ id: "t", email: "taken@example.com", emailVerified: new Date() });
    const known = await post(new Client(config), "/auth/password/forgot", {
      email: "taken@example.com",
    });
    const unknown = await post(new Client(config), "/auth/password/forgot", {
      email: "nobody@example.com",
    });
    expect(known.status).toBe(200);
    expect(comparable(await known.text()).replace(/taken@/g, "X@")).toBe(
      comparable(await unknown.text()).replace(/nobody@/g, "X@"),
    );
    await Promise.all(handed);
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringContaining("550 mailbox unavailable"),
    ]);
  });

  it("extra sign-up fields are drawn, validated by the app, and reach the signUp event; every flow has its event", async () => {
    const events: string[] = [];
    let company: string | undefined;
    const { config, lastMail } = setup({
      signUpFields: {
        fields: {
          company: { label: "Company", required: true, autocomplete: "organization" },
          terms: { label: "I accept the terms", type: "checkbox", required: true },
        },
        validate: ({ company, terms }) =>
          company && terms === "on"
            ? { data: { company } }
            : { error: "Name your company and accept the terms." },
      },
      events: {
        signUp: ({ user, fields }) => {
          events.push(`signUp ${user.email}`);
          company = fields?.company;
        },
        emailVerified: ({ user }) => void events.push(`emailVerified ${user.email}`),
        passwordReset: ({ user }) => void events.push(`passwordReset ${user.email}`),
        passwordChanged: ({ user }) => void events.push(`passwordChanged ${user.email}`),
        accountDeleted: ({ user }) => void events.push(`accountDeleted ${user.email}`),
      },
    } satisfies PasswordOptions<{ company: string }> as PasswordOptions);
    const client = new Client(config);
    const page = await (await client.get("/auth/password/signup", PAGE)).text();
    expect(page).toContain('name="company"');
    expect(page).toContain('autocomplete="organization"');
    expect(page).toContain('name="terms" type="checkbox" required');
    // The app's validation refuses; the typed values come back in the form, no account is made.
    const refused = await post(client, "/auth/password/signup", {
      email: "ada@example.com",
      password: "a long passphrase",
      company: "Analytical <Engines>",
    });
    expect(refused.status).toBe(400);
    const again = await refused.text();
    expect(again).toContain("Name your company and accept the terms.");
    expect(again).toContain('value="Analytical &lt;Engines&gt;"');
    expect(events).toEqual([]);
    await post(client, "/auth/password/signup", {
      email: "ada@example.com",
      password: "a long passphrase",
      company: "Analytical Engines",
      terms: "on",
    });
    expect(company).toBe("Analytical Engines");
    await post(client, "/auth/password/verify", {
      email: "ada@example.com",
      code: lastMail("ada@example.com").code,
    });
    await post(client, "/auth/password/forgot", { email: "ada@example.com" });
    await post(client, "/auth/password/reset", {
      email: "ada@example.com",
      code: lastMail("ada@example.com").code,
      password: "another long passphrase",
    });
    await post(client, "/auth/password/change", {
      currentPassword: "another long passphrase",
      password: "a third long passphrase",
    });
    await post(client, "/auth/password/delete", { currentPassword: "a third long passphrase" });
    expect(events).toEqual([
      "signUp ada@example.com",
      "emailVerified ada@example.com",
      "passwordReset ada@example.com",
      "passwordChanged ada@example.com",
      "accountDeleted ada@example.com",
    ]);
  });

  it("a weak password is refused at sign-up (NIST length), and no account is made", async () => {
    const { config, adapter } = setup({ policy: { minLength: 10 } });
    const answer = await signUp(new Client(config), "short@example.com", "123456789");
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("at least 10 characters");
    expect(await adapter.getUserByEmail("short@example.com")).toBeNull();
  });

  it("CSRF: sign-up, verify, forgot and reset posted without the token are refused", async () => {
    const { config } = setup();
    const client = new Client(config);
    for (const sub of [
      "signup",
      "verify",
      "forgot",
      "reset",
      "change",
      "change-email",
      "confirm-email",
      "delete",
    ]) {
      const answer = await client.post(`/auth/password/${sub}`, {
        email: "ada@example.com",
        password: "a long passphrase",
        code: "123456",
      });
      expect(answer.status).toBe(403);
    }
  });

  it("change e-mail: the password is required, the new address is verified by its code before it replaces the old, and the old one is told", async () => {
    const changes: string[] = [];
    const { config, adapter, mails, lastMail } = setup({
      events: {
        emailChanged: ({ user, previousEmail }) =>
          void changes.push(`${previousEmail} → ${user.email}`),
      },
    });
    const client = new Client(config);
    await signUp(client, "ada@example.com");
    await post(client, "/auth/password/verify", {
      email: "ada@example.com",
      code: lastMail("ada@example.com").code,
    });
    const id = (await adapter.getUserByEmail("ada@example.com"))?.id ?? "";
    // Step-up: a session alone (left open, or stolen) cannot move the account.
    const without = await post(client, "/auth/password/change-email", {
      email: "countess@example.com",
      currentPassword: "not the password",
    });
    expect(without.status).toBe(403);
    expect(mails.some((mail) => mail.to === "countess@example.com")).toBe(false);
    const asked = await post(client, "/auth/password/change-email", {
      email: "Countess@Example.com",
      currentPassword: "a long passphrase",
    });
    expect(asked.status).toBe(200);
    const mail = lastMail("countess@example.com");
    expect(mail.kind).toBe("change-email");
    expect(new URL(mail.url).pathname).toBe("/auth/password/confirm-email");
    // Not moved until the new address proves itself.
    expect((await adapter.getUser(id))?.email).toBe("ada@example.com");
    const wrong = await post(client, "/auth/password/confirm-email", {
      email: "countess@example.com",
      code: mail.code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    // The link may open on another device, not signed in: the code alone confirms.
    const elsewhere = new Client(config);
    const filled = await elsewhere.get(new URL(mail.url).pathname + new URL(mail.url).search, PAGE);
    expect(await filled.text()).toContain(`value="${mail.code}"`);
    const confirmed = await post(elsewhere, "/auth/password/confirm-email", {
      email: "countess@example.com",
      code: mail.code,
    });
    expect(confirmed.status).toBe(302);
    expect((await adapter.getUser(id))?.email).toBe("countess@example.com");
    expect(lastMail("ada@example.com")).toMatchObject({
      kind: "email-changed",
      newEmail: "countess@example.com",
    });
    expect(changes).toEqual(["ada@example.com → countess@example.com"]);
    // Spent: the code does not work twice.
    const reuse = await post(elsewhere, "/auth/password/confirm-email", {
      email: "countess@example.com",
      code: mail.code,
    });
    expect(reuse.status).toBe(400);
    const signedIn = await signIn(new Client(config), "countess@example.com", "a long passphrase");
    expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
  });

  for (const strategy of ["jwt", "database"] as const) {
    it(`a confirmed change of e-mail re-issues the confirming browser's ${strategy} session with the new address and ends the others`, async () => {
      const revocation = memoryStore();
      const { config, adapter, lastMail } = setup(
        {},
        strategy === "jwt" ? { jwt: { revocation, revocationCacheSeconds: 0 } } : {},
        strategy,
      );
      await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
      await adapter.setPasswordHash("u1", await hashPassword("a long passphrase", FAST));
      const laptop = new Client(config);
      await signIn(laptop, "ada@example.com", "a long passphrase");
      const phone = new Client(config);
      await signIn(phone, "ada@example.com", "a long passphrase");
      expect(await phone.session()).toMatchObject({ user: { email: "ada@example.com" } });
      await post(laptop, "/auth/password/change-email", {
        email: "countess@example.com",
        currentPassword: "a long passphrase",
      });
      const confirmed = await post(laptop, "/auth/password/confirm-email", {
        email: "countess@example.com",
        code: lastMail("countess@example.com").code,
      });
      expect(confirmed.status).toBe(302);
      // Without the re-issue a JWT would still say the old address until it is refreshed.
      expect(await laptop.session()).toMatchObject({ user: { email: "countess@example.com" } });
      expect(await phone.session()).toBeNull();
      if (strategy === "database") expect(await adapter.listSessionsByUserId("u1")).toHaveLength(1);
    });
  }

  it("a change of e-mail confirmed in a browser signed in as nobody ends every session and signs nobody in", async () => {
    const { config, adapter, lastMail } = setup();
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
    await adapter.setPasswordHash("u1", await hashPassword("a long passphrase", FAST));
    const laptop = new Client(config);
    await signIn(laptop, "ada@example.com", "a long passphrase");
    await post(laptop, "/auth/password/change-email", {
      email: "countess@example.com",
      currentPassword: "a long passphrase",
    });
    const elsewhere = new Client(config);
    const confirmed = await post(elsewhere, "/auth/password/confirm-email", {
      email: "countess@example.com",
      code: lastMail("countess@example.com").code,
    });
    expect(confirmed.status).toBe(302);
    // A code from the mailbox alone is no sign-in.
    expect(await elsewhere.session()).toBeNull();
    expect(await laptop.session()).toBeNull();
    expect(await adapter.listSessionsByUserId("u1")).toHaveLength(0);
  });

  it("account enumeration by change e-mail: a taken new address gets the same answer and no e-mail, and is never taken over", async () => {
    const { config, adapter, mails, lastMail } = setup();
    await adapter.createUser({ id: "b", email: "babbage@example.com", emailVerified: new Date() });
    const client = new Client(config);
    await signUp(client, "ada@example.com");
    await post(client, "/auth/password/verify", {
      email: "ada@example.com",
      code: lastMail("ada@example.com").code,
    });
    const taken = await post(client, "/auth/password/change-email", {
      email: "babbage@example.com",
      currentPassword: "a long passphrase",
    });
    const free = await post(client, "/auth/password/change-email", {
      email: "lovelace@example.com",
      currentPassword: "a long passphrase",
    });
    expect(taken.status).toBe(free.status);
    expect(comparable(await taken.text()).replace(/babbage@/g, "X@")).toBe(
      comparable(await free.text()).replace(/lovelace@/g, "X@"),
    );
    expect(mails.some((mail) => mail.to === "babbage@example.com")).toBe(false);
    // Every code is refused for the taken address (the code was never sent; guess a few).
    for (const code of ["000000", "123456"]) {
      const answer = await post(client, "/auth/password/confirm-email", {
        email: "babbage@example.com",
        code,
      });
      expect(answer.status).toBe(400);
    }
    expect((await adapter.getUser("b"))?.email).toBe("babbage@example.com");
  });

  it("forgot → reset: the code sets the password, signs in, and ends every other session", async () => {
    const { config, adapter, lastMail } = setup();
    const first = new Client(config);
    await signUp(first, "ada@example.com");
    await post(first, "/auth/password/verify", {
      email: "ada@example.com",
      code: lastMail("ada@example.com").code,
    });
    const second = new Client(config);
    await signIn(second, "ada@example.com", "a long passphrase");
    expect(await second.session()).not.toBeNull();
    const user = await adapter.getUserByEmail("ada@example.com");
    expect(await adapter.listSessionsByUserId(user?.id ?? "")).toHaveLength(2);

    const resetting = new Client(config);
    await post(resetting, "/auth/password/forgot", { email: "ada@example.com" });
    const mail = lastMail("ada@example.com");
    expect(mail.kind).toBe("reset");
    expect(new URL(mail.url).pathname).toBe("/auth/password/reset");
    const reset = await post(resetting, "/auth/password/reset", {
      email: "ada@example.com",
      code: mail.code,
      password: "a brand new passphrase",
    });
    expect(reset.status).toBe(302);
    expect(await resetting.session()).toMatchObject({ user: { email: "ada@example.com" } });
    // Old sessions gone.
    expect(await first.session()).toBeNull();
    expect(await second.session()).toBeNull();
    expect(await adapter.listSessionsByUserId(user?.id ?? "")).toHaveLength(1);
    const old = await signIn(new Client(config), "ada@example.com", "a long passphrase");
    expect(old.headers.get("location")).toContain("error=CredentialsSignin");
    const fresh = await signIn(new Client(config), "ada@example.com", "a brand new passphrase");
    expect(fresh.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
  });

  it("a reset ends every JWT session of the user through the revocation store; the new one lives", async () => {
    const revocation = memoryStore();
    const { config, adapter } = setup(
      {},
      { jwt: { revocation, revocationCacheSeconds: 0 } },
      "jwt",
    );
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
    await adapter.setPasswordHash("u1", await hashPassword("the old passphrase", FAST));
    const laptop = new Client(config);
    await signIn(laptop, "ada@example.com", "the old passphrase");
    expect(await laptop.session()).toMatchObject({ user: { email: "ada@example.com" } });
    const phone = new Client(config);
    const mails: PasswordEmail[] = [];
    const resetConfig: AuthConfig = {
      ...config,
      experimental: {
        extensions: [
          password({
            scrypt: FAST,
            breachedPasswords: false,
            send: async (mail) => void mails.push(mail),
            deliver: (sending) => void deliveries.push(sending),
          }),
        ],
      },
    };
    const resetting = new Client(resetConfig);
    await post(resetting, "/auth/password/forgot", { email: "ada@example.com" });
    const reset = await post(resetting, "/auth/password/reset", {
      email: "ada@example.com",
      code: mails[0]?.code ?? "",
      password: "the new passphrase",
    });
    expect(reset.status).toBe(302);
    expect(await laptop.session()).toBeNull();
    expect(await phone.session()).toBeNull();
    expect(await resetting.session()).toMatchObject({ user: { email: "ada@example.com" } });
    // Signing in again afterwards makes a session the cut-off does not touch.
    const later = new Client(config);
    await signIn(later, "ada@example.com", "the new passphrase");
    expect(await later.session()).toMatchObject({ user: { email: "ada@example.com" } });
  });

  it("password change without the current password is refused; with it, other devices are signed out", async () => {
    const { config, adapter } = setup();
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
    await adapter.setPasswordHash("u1", await hashPassword("the old passphrase", FAST));
    const here = new Client(config);
    const there = new Client(config);
    await signIn(here, "ada@example.com", "the old passphrase");
    await signIn(there, "ada@example.com", "the old passphrase");
    // A borrowed (or stolen) session alone cannot set a password.
    const without = await post(here, "/auth/password/change", { password: "attacker passphrase" });
    expect(without.status).toBe(403);
    const wrong = await post(here, "/auth/password/change", {
      currentPassword: "a guess",
      password: "attacker passphrase",
    });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain("not your current password");
    const signedOut = await post(new Client(config), "/auth/password/change", {
      currentPassword: "the old passphrase",
      password: "attacker passphrase",
    });
    expect(signedOut.status).toBe(401);

    const changed = await post(here, "/auth/password/change", {
      currentPassword: "the old passphrase",
      password: "the new passphrase",
    });
    expect(changed.status).toBe(302);
    expect(await here.session()).toMatchObject({ user: { email: "ada@example.com" } });
    expect(await there.session()).toBeNull();
    const old = await signIn(new Client(config), "ada@example.com", "the old passphrase");
    expect(old.headers.get("location")).toContain("error=CredentialsSignin");
    const fresh = await signIn(new Client(config), "ada@example.com", "the new passphrase");
    expect(fresh.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
  });

  it("account deletion needs the password; then the user, the hash and every session are gone", async () => {
    const deleted: string[] = [];
    const { config, adapter } = setup({
      events: { accountDeleted: ({ user }) => void deleted.push(user.id) },
    });
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
    await adapter.setPasswordHash("u1", await hashPassword("the passphrase", FAST));
    const here = new Client(config);
    const there = new Client(config);
    await signIn(here, "ada@example.com", "the passphrase");
    await signIn(there, "ada@example.com", "the passphrase");
    const borrowed = await post(here, "/auth/password/delete", { currentPassword: "a guess" });
    expect(borrowed.status).toBe(403);
    expect(await adapter.getUser("u1")).not.toBeNull();
    const gone = await post(here, "/auth/password/delete", { currentPassword: "the passphrase" });
    expect(gone.status).toBe(302);
    expect(await adapter.getUser("u1")).toBeNull();
    expect(await adapter.getPasswordHash("u1")).toBeNull();
    expect(await here.session()).toBeNull();
    expect(await there.session()).toBeNull();
    expect(deleted).toEqual(["u1"]);
    const again = await signIn(new Client(config), "ada@example.com", "the passphrase");
    expect(again.headers.get("location")).toContain("error=CredentialsSignin");
  });

  it("reset-token reuse: a spent code does not work a second time", async () => {
    const { config, adapter, lastMail } = setup();
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
    await post(new Client(config), "/auth/password/forgot", { email: "ada@example.com" });
    const { code } = lastMail("ada@example.com");
    const form = { email: "ada@example.com", code, password: "first new passphrase" };
    expect((await post(new Client(config), "/auth/password/reset", form)).status).toBe(302);
    const again = await post(new Client(config), "/auth/password/reset", {
      ...form,
      password: "attacker passphrase",
    });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("did not work");
  });

  it("reset-token reuse in a race: of parallel resets with one code exactly one passes", async () => {
    const { config, adapter, lastMail } = setup();
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
    await post(new Client(config), "/auth/password/forgot", { email: "ada@example.com" });
    const { code } = lastMail("ada@example.com");
    const clients = Array.from({ length: 5 }, () => new Client(config));
    const tokens = await Promise.all(clients.map((client) => client.csrfToken()));
    const answers = await Promise.all(
      clients.map((client, index) =>
        client.post(
          "/auth/password/reset",
          {
            csrfToken: tokens[index] ?? "",
            email: "ada@example.com",
            code,
            password: `racing passphrase ${index}`,
          },
          PAGE,
        ),
      ),
    );
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
  });

  it("reset-token expiry: a code past its lifetime is refused", async () => {
    const { config, adapter, lastMail } = setup({ codeMaxAge: 1 / 60 });
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
    await post(new Client(config), "/auth/password/forgot", { email: "ada@example.com" });
    const { code } = lastMail("ada@example.com");
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const late = await post(new Client(config), "/auth/password/reset", {
      email: "ada@example.com",
      code,
      password: "too late passphrase",
    });
    expect(late.status).toBe(400);
  });

  it("a reset code for one address does not reset another address", async () => {
    const { config, adapter, lastMail } = setup();
    await adapter.createUser({ id: "u1", email: "eve@example.com", emailVerified: new Date() });
    await adapter.createUser({ id: "u2", email: "ada@example.com", emailVerified: new Date() });
    await adapter.setPasswordHash("u2", await hashPassword("ada's passphrase", FAST));
    // Eve asks for her own code, then also asks for Ada's (so Ada's address has a live code).
    await post(new Client(config), "/auth/password/forgot", { email: "eve@example.com" });
    await post(new Client(config), "/auth/password/forgot", { email: "ada@example.com" });
    const eves = lastMail("eve@example.com").code;
    const answer = await post(new Client(config), "/auth/password/reset", {
      email: "ada@example.com",
      code: eves,
      password: "eve owns ada now",
    });
    // (Two random codes are equal once in a million runs; the hash binds each to its user anyway.)
    expect(answer.status).toBe(400);
    const signedIn = await signIn(new Client(config), "ada@example.com", "ada's passphrase");
    expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
  });

  it("brute force of the 6-digit code: attempts per address are limited (429)", async () => {
    const { config, adapter } = setup({}, { rateLimit: { storage: memoryStore(), max: 3 } });
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: new Date() });
    await post(new Client(config), "/auth/password/forgot", { email: "ada@example.com" });
    const statuses: number[] = [];
    for (let guess = 0; guess < 5; guess++) {
      const answer = await post(new Client(config), "/auth/password/reset", {
        email: "ada@example.com",
        code: String(guess).padStart(6, "0"),
        password: "guessing passphrase",
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 3)).toEqual([400, 400, 400]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });

  it("mail bombing and mass sign-up: sign-up, forgot and change e-mail are limited per address (429) through the shared store", async () => {
    const storage = memoryStore();
    const { config, mails, lastMail } = setup({}, { rateLimit: { storage, max: 3 } });
    const statuses = async (path: string, form: Record<string, string>, client?: Client) => {
      const seen: number[] = [];
      for (let attempt = 0; attempt < 4; attempt++)
        seen.push((await post(client ?? new Client(config), path, form)).status);
      return seen;
    };
    expect(
      await statuses("/auth/password/signup", {
        email: "target@example.com",
        password: "a long passphrase",
      }),
    ).toEqual([200, 200, 200, 429]);
    expect(await statuses("/auth/password/forgot", { email: "victim@example.com" })).toEqual([
      200, 200, 200, 429,
    ]);
    const client = new Client(config);
    await signUp(client, "ada@example.com");
    await post(client, "/auth/password/verify", {
      email: "ada@example.com",
      code: lastMail("ada@example.com").code,
    });
    const before = mails.length;
    expect(
      await statuses(
        "/auth/password/change-email",
        { email: "bombed@example.com", currentPassword: "a long passphrase" },
        client,
      ),
    ).toEqual([200, 200, 200, 429]);
    expect(mails.length - before).toBe(3);
  });

  it("mass sign-up, mail bombing and code guessing from one IP over many addresses: sign-up, forgot, reset and change e-mail are limited per IP (429 page, RateLimited answer)", async () => {
    // A high per-address limit keeps that count out of the way: only the IP's count refuses. Sign-up,
    // forgot and change e-mail share one budget (they all send e-mail), so each flow gets its own
    // store here.
    const limited = () =>
      setup({}, { rateLimit: { storage: memoryStore(), max: 100, maxPerIp: 3 } });
    let { config, lastMail } = limited();
    let n = 0;
    const fromIp = async (
      client: Client,
      path: string,
      form: Record<string, string>,
      html = true,
    ) => {
      const csrfToken = await client.csrfToken();
      const answer = await Auth(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            cookie: client.cookieHeader(),
            ...(html ? PAGE : {}),
          },
          body: new URLSearchParams({ csrfToken, ...form }),
        }),
        config,
        { clientIp: "203.0.113.7" },
      );
      client.store(answer);
      await delivered();
      return answer;
    };
    const fresh = () => `user${n++}@example.com`;
    const fromOneIp = async (path: string, form: () => Record<string, string>, client?: Client) => {
      const seen: number[] = [];
      for (let attempt = 0; attempt < 4; attempt++)
        seen.push((await fromIp(client ?? new Client(config), path, form())).status);
      return seen;
    };
    expect(
      await fromOneIp("/auth/password/signup", () => ({
        email: fresh(),
        password: "a long passphrase",
      })),
    ).toEqual([200, 200, 200, 429]);
    ({ config, lastMail } = limited());
    expect(await fromOneIp("/auth/password/forgot", () => ({ email: fresh() }))).toEqual([
      200, 200, 200, 429,
    ]);
    ({ config, lastMail } = limited());
    expect(
      await fromOneIp("/auth/password/reset", () => ({
        email: fresh(),
        code: "123456",
        password: "a brand new passphrase",
      })),
    ).toEqual([400, 400, 400, 429]);
    // Change e-mail, signed in from another IP (so the sign-up is not counted against this one).
    ({ config, lastMail } = limited());
    const client = new Client(config);
    await signUp(client, "ada@example.com");
    await post(client, "/auth/password/verify", {
      email: "ada@example.com",
      code: lastMail("ada@example.com").code,
    });
    const changes = await fromOneIp(
      "/auth/password/change-email",
      () => ({ email: fresh(), currentPassword: "a long passphrase" }),
      client,
    );
    expect(changes.slice(0, 3)).toEqual([200, 200, 200]);
    expect(changes[3]).toBe(429);
    // The documented answers: the page says to wait, a JSON client gets RateLimited.
    const page = await fromIp(new Client(config), "/auth/password/forgot", { email: fresh() });
    expect(page.status).toBe(429);
    expect(page.headers.get("content-type")).toContain("text/html");
    const answer = await fromIp(
      new Client(config),
      "/auth/password/signup",
      { email: fresh(), password: "a long passphrase" },
      false,
    );
    expect(answer.status).toBe(429);
    expect(await answer.json()).toMatchObject({ error: "RateLimited" });
  });

  it("malformed bodies (arrays, objects, huge strings) get a 400 page, never a 500", async () => {
    const { config } = setup();
    const client = new Client(config);
    const csrfToken = await client.csrfToken();
    for (const body of [
      { csrfToken, email: ["a@example.com"], password: { x: 1 } },
      { csrfToken, email: "x".repeat(10_000), password: "a long passphrase" },
      { csrfToken, email: "ada@example.com", password: "p".repeat(100_000) },
    ]) {
      const answer = await client.postJson("/auth/password/signup", body);
      expect(answer.status).toBe(400);
    }
  });

  it("serves its server functions in-process through any integration's runner", async () => {
    const { config, lastMail } = setup();
    const anonymous = passwordApi(actionRunner({ url: ORIGIN, headers: new Headers() }, config));
    await anonymous.signUp({ email: "ada@example.com", password: "a long passphrase" });
    await delivered();
    await expect(anonymous.verify({ email: "ada@example.com", code: "000000" })).rejects.toThrow(
      PasswordRefused,
    );
    const verified = await anonymous.verify({
      email: "ada@example.com",
      code: lastMail("ada@example.com").code,
    });
    expect(verified.url).toBe(ORIGIN);
    await anonymous.requestReset("ada@example.com");
    await anonymous.requestReset("nobody@example.com");
    await delivered();
    await expect(
      anonymous.reset({
        email: "ada@example.com",
        code: "000000",
        password: "whatever passphrase",
      }),
    ).rejects.toThrow(/CodeInvalid/);
    await anonymous.reset({
      email: "ada@example.com",
      code: lastMail("ada@example.com").code,
      password: "the reset passphrase",
    });
    await expect(
      anonymous.change({ currentPassword: "the reset passphrase", password: "x".repeat(12) }),
    ).rejects.toThrow(/NotSignedIn/);
    const browser = new Client(config);
    await signIn(browser, "ada@example.com", "the reset passphrase");
    const signedIn = passwordApi(
      actionRunner(
        { url: ORIGIN, headers: new Headers({ cookie: browser.cookieHeader() }) },
        config,
      ),
    );
    await expect(
      signedIn.change({ currentPassword: "wrong", password: "the changed passphrase" }),
    ).rejects.toThrow(/CurrentPasswordWrong/);
    await signedIn.change({
      currentPassword: "the reset passphrase",
      password: "the changed passphrase",
    });
    const fresh = await signIn(new Client(config), "ada@example.com", "the changed passphrase");
    expect(fresh.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
  });

  it("the core's sign-in page shows Create account and Forgot password? under the password form", async () => {
    const { config } = setup();
    const page = await (await new Client(config).get("/auth/signin", PAGE)).text();
    expect(page).toContain('action="http://localhost:3000/auth/callback/password"');
    expect(page).toContain(
      '<a href="http://localhost:3000/auth/password/signup">Create account</a>',
    );
    expect(page).toContain(
      '<a href="http://localhost:3000/auth/password/forgot">Forgot password?</a>',
    );
  });

  it("open redirect and script links: a credentials provider's links stay relative paths under the base path", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers: [
        Credentials({
          credentials: { username: {} },
          links: [
            { label: "Off-site", path: "//evil.example/phish" },
            { label: "Script", path: "javascript:alert(1)" },
            { label: "Help", path: "help" },
          ],
        }),
      ],
    };
    const page = await (await new Client(config).get("/auth/signin", PAGE)).text();
    expect(page).not.toContain("evil.example");
    expect(page).not.toContain("javascript:");
    expect(page).toContain('<a href="http://localhost:3000/auth/help">Help</a>');
  });

  it("the sign-in page offers Create account and Forgot password?", async () => {
    const { config } = setup();
    const page = await (await new Client(config).get("/auth/password/signin", PAGE)).text();
    expect(page).toContain("/auth/callback/password");
    expect(page).toContain(">Create account</a>");
    expect(page).toContain(">Forgot password?</a>");
  });
});

describe("loading", () => {
  it("an app that does not import @tessera/core/password never loads it; the entry does not load two-factor", async () => {
    const { build } = await import("esbuild");
    const bundle = async (entries: string[]) => {
      const { metafile } = await build({
        entryPoints: entries.map((name) => new URL(`../src/${name}.ts`, import.meta.url).pathname),
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
    };
    const core = await bundle(["index", "node", "client", "jwt", "store"]);
    expect(core.filter((path) => path.includes("extensions/password"))).toEqual([]);
    const own = await bundle(["extensions/password/index"]);
    expect(own.some((path) => path.includes("extensions/password/hash.ts"))).toBe(true);
    expect(own.filter((path) => path.includes("extensions/two-factor"))).toEqual([]);
  });
});

/**
 * A local server speaking the Pwned Passwords range API (`GET /range/<5 hex>` → `SUFFIX:COUNT`
 * lines, padded with zero-count lines), holding `breached`. Records the paths it was asked.
 */
async function startRangeServer(breached: string[]) {
  const hashes = breached.map((pw) =>
    createHash("sha1").update(pw.normalize("NFKC")).digest("hex").toUpperCase(),
  );
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? "");
    const prefix = /^\/range\/([0-9A-F]{5})$/.exec(req.url ?? "")?.[1];
    if (!prefix) {
      res.writeHead(400).end();
      return;
    }
    const lines = hashes.filter((h) => h.startsWith(prefix)).map((h) => `${h.slice(5)}:42`);
    lines.push(`${"0".repeat(35)}:0`, `${"F".repeat(35)}:0`);
    res.writeHead(200, { "content-type": "text/plain" }).end(lines.join("\r\n"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("breached passwords (Pwned Passwords range API, local server)", () => {
  it("a breached password is refused at sign-up, reset and change; only a 5-character prefix leaves", async () => {
    const range = await startRangeServer(["password1234", "correct horse battery staple"]);
    try {
      const { config, adapter, lastMail } = setup({ breachedPasswords: { apiUrl: range.url } });
      const refused = await signUp(new Client(config), "ada@example.com", "password1234");
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("known data breaches");
      expect(await adapter.getUserByEmail("ada@example.com")).toBeNull();
      // k-anonymity: the server saw a 5-hex prefix, never the password or its full hash.
      const full = createHash("sha1").update("password1234").digest("hex").toUpperCase();
      expect(range.asked).toEqual([`/range/${full.slice(0, 5)}`]);

      const accepted = await signUp(new Client(config), "ada@example.com", "a fresh passphrase");
      expect(accepted.status).toBe(200);
      await post(new Client(config), "/auth/password/verify", {
        email: "ada@example.com",
        code: lastMail("ada@example.com").code,
      });
      await post(new Client(config), "/auth/password/forgot", { email: "ada@example.com" });
      const { code } = lastMail("ada@example.com");
      const reset = await post(new Client(config), "/auth/password/reset", {
        email: "ada@example.com",
        code,
        password: "correct horse battery staple",
      });
      expect(reset.status).toBe(400);
      // The refused password did not spend the code.
      const kept = await post(new Client(config), "/auth/password/reset", {
        email: "ada@example.com",
        code,
        password: "another fresh passphrase",
      });
      expect(kept.status).toBe(302);
    } finally {
      await range.close();
    }
  });

  it("fails open with a warning when the service is unreachable, or refuses with failOpen: false", async () => {
    const range = await startRangeServer([]);
    const down = range.url;
    await range.close();
    const logger = recordingLogger();
    const open = setup({ breachedPasswords: { apiUrl: down } }, { logger: logger.logger });
    const accepted = await signUp(new Client(open.config), "ada@example.com", "a fresh passphrase");
    expect(accepted.status).toBe(200);
    expect(logger.warnings).toContain("breached-password-check-unavailable");
    const closed = setup({ breachedPasswords: { apiUrl: down, failOpen: false } });
    const refused = await signUp(
      new Client(closed.config),
      "ada@example.com",
      "a fresh passphrase",
    );
    expect(refused.status).toBe(503);
    expect(await closed.adapter.getUserByEmail("ada@example.com")).toBeNull();
  });
});
