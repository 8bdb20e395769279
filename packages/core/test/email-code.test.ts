/**
 * E-mail code sign-in: the magic-link e-mail also carries a 6-digit code, which the
 * verify-request page takes in the browser where the sign-in started. Over real SMTP for the
 * e-mail itself; the attacks: a code from another browser, guessing (the link's `maxAttempts`),
 * reuse (with the link, and in a race), CSRF.
 */
import type { AuthConfig } from "@tessera/core";
import Nodemailer from "@tessera/core/providers/nodemailer";
import { MemoryAdapter } from "@tessera/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  baseConfig,
  followLink,
  linkIn,
  ORIGIN,
  recordingSender,
  requestLink,
  startSmtpServer,
} from "./email-helpers.js";
import { Client, SECRET } from "./helpers.js";

const PAGE = { accept: "text/html" };
const VERIFY_REQUEST = "/auth/verify-request?provider=mailbox&type=email";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

function setup(options: { signInCode?: boolean; maxAttempts?: number } = {}) {
  const recorder = recordingSender();
  const adapter = MemoryAdapter();
  const config: AuthConfig = baseConfig({
    secret: SECRET,
    adapter,
    session: { strategy: "database" },
    providers: [
      Nodemailer({
        id: "mailbox",
        server: "smtp://127.0.0.1:1",
        sendVerificationRequest: recorder.sendVerificationRequest,
        ...options,
      }),
    ],
  });
  const lastCode = (email: string) => {
    const params = [...recorder.sent].reverse().find((p) => p.identifier === email);
    if (!params?.code) throw new Error(`no code was sent to ${email}`);
    return params.code;
  };
  return { config, recorder, lastCode, adapter };
}

async function enterCode(client: Client, code: string, headers: Record<string, string> = PAGE) {
  const csrfToken = await client.csrfToken();
  return client.post("/auth/callback/mailbox", { csrfToken, code }, headers);
}

describe("e-mail code sign-in", () => {
  it("the default e-mail carries the link and a 6-digit code (real SMTP)", async () => {
    const config = baseConfig({
      secret: SECRET,
      adapter: MemoryAdapter(),
      session: { strategy: "database" },
      providers: [Nodemailer({ server: smtp.url, from: "no-reply@tessera.test" })],
    });
    const client = new Client(config);
    await requestLink(client, "nodemailer", "ada@example.com");
    const mail = await smtp.nextMail();
    const code = /Or enter this code: (\d{6})/.exec(mail.text)?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.html).toContain(`>${code}</p>`);
    expect(linkIn(mail.text).searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/);
    // The code signs in where the sign-in started.
    const csrfToken = await client.csrfToken();
    const answer = await client.post("/auth/callback/nodemailer", { csrfToken, code }, PAGE);
    expect(answer.status).toBe(302);
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
  });

  it("the verify-request page takes the code and signs in; the link is spent with it", async () => {
    const { config, recorder, lastCode } = setup();
    const client = new Client(config);
    const started = await requestLink(client, "mailbox", "ada@example.com", {
      callbackUrl: `${ORIGIN}/dashboard`,
    });
    expect(started.headers.get("location")).toBe(`${ORIGIN}${VERIFY_REQUEST}`);
    const page = await (await client.get(VERIFY_REQUEST, PAGE)).text();
    expect(page).toContain(`action="${ORIGIN}/auth/callback/mailbox"`);
    expect(page).toContain('autocomplete="one-time-code"');
    const answer = await enterCode(client, lastCode("ada@example.com"));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
    // One sign-in, used once: the link of the same e-mail no longer works.
    const other = new Client(config);
    const viaLink = await followLink(other, recorder.lastLink("ada@example.com"));
    expect(viaLink.headers.get("location")).toContain("error=Verification");
    expect(await other.session()).toBeNull();
  });

  it("a code typed in another browser (no binding cookie) is refused, and no form is offered there", async () => {
    const { config, lastCode } = setup();
    await requestLink(new Client(config), "mailbox", "ada@example.com");
    const elsewhere = new Client(config);
    const page = await (await elsewhere.get(VERIFY_REQUEST, PAGE)).text();
    expect(page).not.toContain('name="code"');
    const answer = await enterCode(elsewhere, lastCode("ada@example.com"));
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("can no longer be used");
    expect(await elsewhere.session()).toBeNull();
  });

  it("a link used first voids the code", async () => {
    const { config, recorder, lastCode } = setup();
    const client = new Client(config);
    await requestLink(client, "mailbox", "ada@example.com");
    await followLink(new Client(config), recorder.lastLink("ada@example.com"));
    const answer = await enterCode(client, lastCode("ada@example.com"));
    expect(answer.status).toBe(400);
    expect(await client.session()).toBeNull();
  });

  it("guessing the code: a wrong one keeps the form; after maxAttempts even the right code and the link are void", async () => {
    const { config, recorder, lastCode } = setup({ maxAttempts: 3 });
    const client = new Client(config);
    await requestLink(client, "mailbox", "ada@example.com");
    const code = lastCode("ada@example.com");
    const wrong = code === "000000" ? "111111" : "000000";
    const first = await enterCode(client, wrong);
    expect(first.status).toBe(400);
    const body = await first.text();
    expect(body).toContain("That code is not right.");
    expect(body).toContain('name="code"');
    await enterCode(client, wrong);
    await enterCode(client, wrong);
    const right = await enterCode(client, code);
    expect(right.status).toBe(400);
    expect(await right.text()).toContain("can no longer be used");
    expect(await client.session()).toBeNull();
    const viaLink = await followLink(new Client(config), recorder.lastLink("ada@example.com"));
    expect(viaLink.headers.get("location")).toContain("error=Verification");
  });

  it("code reuse in a race: of parallel posts of the right code exactly one signs in", async () => {
    const { config, lastCode } = setup();
    const client = new Client(config);
    await requestLink(client, "mailbox", "ada@example.com");
    const code = lastCode("ada@example.com");
    const csrfToken = await client.csrfToken();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.post("/auth/callback/mailbox", { csrfToken, code }, { accept: "application/json" }),
      ),
    );
    // The others are refused (400, or 429 once the address's callback limit is reached).
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 302)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 302).every((s) => s === 400 || s === 429)).toBe(
      true,
    );
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
    // Spent: the code does not work a second time either.
    expect((await enterCode(client, code)).status).toBe(400);
  });

  it("CSRF: a code posted without the token is refused", async () => {
    const { config, lastCode } = setup();
    const client = new Client(config);
    await requestLink(client, "mailbox", "ada@example.com");
    const answer = await client.post(
      "/auth/callback/mailbox",
      { code: lastCode("ada@example.com") },
      PAGE,
    );
    expect(answer.status).not.toBe(200);
    expect(answer.headers.get("location") ?? "").not.toBe(`${ORIGIN}/`);
    expect(await client.session()).toBeNull();
  });

  it("signInCode: false sends the link alone, sets no cookie and shows no code form (as Auth.js)", async () => {
    const { config, recorder } = setup({ signInCode: false });
    const client = new Client(config);
    const started = await requestLink(client, "mailbox", "ada@example.com");
    expect(started.headers.getSetCookie().some((c) => c.includes("email-code"))).toBe(false);
    expect(recorder.sent.at(-1)?.code).toBeUndefined();
    const page = await (await client.get(VERIFY_REQUEST, PAGE)).text();
    expect(page).not.toContain('name="code"');
  });

  it("malformed codes (letters, arrays, huge strings) are refused with a page, never a 500", async () => {
    const { config } = setup();
    const client = new Client(config);
    await requestLink(client, "mailbox", "ada@example.com");
    for (const code of ["abcdef", "1".repeat(100_000), ""]) {
      const answer = await enterCode(client, code);
      expect(answer.status).toBe(400);
    }
    const csrfToken = await client.csrfToken();
    const array = await client.postJson(
      "/auth/callback/mailbox",
      { csrfToken, code: ["123456"] },
      PAGE,
    );
    expect(array.status).toBe(400);
  });
});
