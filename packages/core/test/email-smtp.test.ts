/**
 * E-mail sign-in end to end over real SMTP: nodemailer hands the message to a local
 * `smtp-server`, the test reads the link out of the captured mail and follows it to a session.
 */
import type { AuthConfig } from "@tessera/core";
import Email from "@tessera/core/providers/email";
import Nodemailer from "@tessera/core/providers/nodemailer";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  baseConfig,
  EMAIL_SIGNIN_ERROR,
  followLink,
  linkIn,
  ORIGIN,
  requestLink,
  startSmtpServer,
} from "./email-helpers.js";
import { Client, recordingLogger, SECRET } from "./helpers.js";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer(new Set(["bounce@example.com"]));
});
afterAll(async () => {
  await smtp.close();
});

function smtpConfig(strategy: "jwt" | "database", overrides: Partial<AuthConfig> = {}) {
  const store = createMemoryStore();
  const config = baseConfig({
    secret: SECRET,
    adapter: MemoryAdapter(store),
    session: { strategy },
    providers: [Nodemailer({ server: smtp.url, from: "Tessera Test <no-reply@tessera.test>" })],
    ...overrides,
  });
  return { store, config };
}

describe.each(["database", "jwt"] as const)("SMTP magic link (%s sessions)", (strategy) => {
  it("delivers a well-formed e-mail whose link signs the user in", async () => {
    const { store, config } = smtpConfig(strategy);
    const client = new Client(config);

    const started = await requestLink(client, "nodemailer", " Grace@Example.COM ", {
      callbackUrl: `${ORIGIN}/dashboard`,
    });
    expect(started.status).toBe(302);
    expect(started.headers.get("location")).toBe(
      `${ORIGIN}/auth/verify-request?provider=nodemailer&type=email`,
    );

    const mail = await smtp.nextMail();
    expect(mail.to).toEqual(["grace@example.com"]);
    expect(mail.from).toBe("no-reply@tessera.test");
    expect(mail.raw).toMatch(/^From: Tessera Test <no-reply@tessera\.test>/m);
    expect(mail.subject).toBe("Sign in to localhost:3000");
    expect(mail.text).toContain("expires in 24 hours");
    expect(mail.html).toContain(">Sign in</a>");
    expect(mail.html).not.toMatch(/<img\b/i);

    const link = linkIn(mail.text);
    expect(link.origin).toBe(ORIGIN);
    expect(link.pathname).toBe("/auth/callback/nodemailer");
    expect(link.searchParams.get("email")).toBe("grace@example.com");
    expect(link.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`);
    expect(link.searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/);
    // The HTML button carries the same link.
    expect(mail.html).toContain(link.href.replace(/&/g, "&amp;"));
    // Only the hash is stored, never the raw token.
    const [stored] = [...store.verificationTokens.values()];
    expect(stored?.token).not.toBe(link.searchParams.get("token"));

    // A fresh browser (the mail may be opened elsewhere) follows the link.
    const browser = new Client(config);
    const landed = await followLink(browser, link);
    expect(landed.status).toBe(302);
    expect(landed.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    const session = await browser.session();
    expect(session?.user).toMatchObject({ email: "grace@example.com" });

    const [user] = [...store.users.values()];
    expect(user?.email).toBe("grace@example.com");
    expect(user?.emailVerified).toBeInstanceOf(Date);
    expect(store.verificationTokens.size).toBe(0);
    expect(store.sessions.size).toBe(strategy === "database" ? 1 : 0);
  });
});

describe("SMTP delivery failures", () => {
  it("sends the user back to the sign-in page when the server refuses the recipient", async () => {
    const { logger, errors } = recordingLogger();
    const { config } = smtpConfig("database", { logger });
    const client = new Client(config);
    const response = await requestLink(client, "nodemailer", "bounce@example.com");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(EMAIL_SIGNIN_ERROR);
    expect(errors.at(-1)?.name).toBe("EmailSignInError");
    expect(errors.at(-1)?.message).toContain("nodemailer");
  });

  it("names the missing `server` option in the log instead of failing obscurely", async () => {
    const { logger, errors } = recordingLogger();
    const config = baseConfig({
      secret: SECRET,
      adapter: MemoryAdapter(),
      providers: [Nodemailer({ from: "no-reply@tessera.test" })],
      logger,
    });
    const response = await requestLink(new Client(config), "nodemailer", "ada@example.com");
    expect(response.headers.get("location")).toMatch(EMAIL_SIGNIN_ERROR);
    expect(errors.at(-1)?.message).toMatch(/has no `server`/);
  });
});

describe("generic Email provider", () => {
  it("sends over SMTP under the id `email` and signs the user in", async () => {
    const store = createMemoryStore();
    const config = baseConfig({
      secret: SECRET,
      adapter: MemoryAdapter(store),
      providers: [Email({ server: smtp.url, from: "no-reply@tessera.test" })],
      theme: { brandColor: "#4f46e5" },
    });
    const client = new Client(config);
    await requestLink(client, "email", "lin@example.com");
    const mail = await smtp.nextMail();
    expect(mail.to).toEqual(["lin@example.com"]);
    expect(mail.html).toContain("#4f46e5");
    const link = linkIn(mail.text);
    expect(link.pathname).toBe("/auth/callback/email");
    await followLink(client, link);
    expect((await client.session())?.user).toMatchObject({ email: "lin@example.com" });
  });
});
