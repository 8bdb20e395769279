/**
 * Two-factor authentication (`@tessera/core/two-factor`) over HTTP and in-process, with the
 * in-memory adapter. The RFC 6238 vectors, enrolment, the challenge after a first factor, and the
 * attacks: replay, brute force, a paused sign-in taken elsewhere, skipping the challenge, CSRF.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type AuthConfig, actionRunner, assertStartupConfig } from "@tessera/core";
import { InvalidExtension } from "@tessera/core/errors";
import { nodeActionRunner, toNodeHandler } from "@tessera/core/node";
import Credentials from "@tessera/core/providers/credentials";
import Email from "@tessera/core/providers/email";
import Nodemailer from "@tessera/core/providers/nodemailer";
import Passkey from "@tessera/core/providers/passkey";
import { memoryStore } from "@tessera/core/store";
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  otpauthUri,
  requireRecentAuthentication,
  type TwoFactorOptions,
  totp,
  twoFactor,
  twoFactorApi,
} from "@tessera/core/two-factor";
import { MemoryAdapter } from "@tessera/memory";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import {
  PASSKEY_CHALLENGE_SCRIPT,
  PASSKEY_CHALLENGE_SCRIPT_HASH,
} from "../src/extensions/two-factor/passkey-script.js";
import { followLink, recordingSender, requestLink, startSmtpServer } from "./email-helpers.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("TOTP (RFC 6238)", () => {
  // RFC 6238 Appendix B: 8 digits, 30 s steps, one seed per algorithm.
  const seeds = {
    SHA1: utf8("12345678901234567890"),
    SHA256: utf8("12345678901234567890123456789012"),
    SHA512: utf8("1234567890123456789012345678901234567890123456789012345678901234"),
  } as const;
  const vectors: [number, string, keyof typeof seeds][] = [
    [59, "94287082", "SHA1"],
    [59, "46119246", "SHA256"],
    [59, "90693936", "SHA512"],
    [1111111109, "07081804", "SHA1"],
    [1111111109, "68084774", "SHA256"],
    [1111111109, "25091201", "SHA512"],
    [1111111111, "14050471", "SHA1"],
    [1111111111, "67062674", "SHA256"],
    [1111111111, "99943326", "SHA512"],
    [1234567890, "89005924", "SHA1"],
    [1234567890, "91819424", "SHA256"],
    [1234567890, "93441116", "SHA512"],
    [2000000000, "69279037", "SHA1"],
    [2000000000, "90698825", "SHA256"],
    [2000000000, "38618901", "SHA512"],
    [20000000000, "65353130", "SHA1"],
    [20000000000, "77737706", "SHA256"],
    [20000000000, "47863826", "SHA512"],
  ];
  it.each(vectors)(
    "passes the Appendix B vector at T=%i: %s (%s)",
    async (time, code, algorithm) => {
      const options = { algorithm, digits: 8, period: 30, time: time * 1000 } as const;
      expect(await totp(seeds[algorithm], options)).toBe(code);
      expect(await matchTotp(seeds[algorithm], code, { ...options, drift: 0 })).toBe(
        Math.floor(time / 30),
      );
    },
  );

  it("passes the RFC 4226 HOTP vectors", async () => {
    const expected = ["755224", "287082", "359152", "969429", "338314"];
    for (const [counter, code] of expected.entries())
      expect(await hotp(seeds.SHA1, counter)).toBe(code);
  });

  it("accepts one step of drift either side and nothing beyond", async () => {
    const key = seeds.SHA1;
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    const at = (offset: number) => totp(key, { time: now + offset * 30_000 });
    expect(await matchTotp(key, await at(-1), { time: now })).toBe(step - 1);
    expect(await matchTotp(key, await at(1), { time: now })).toBe(step + 1);
    expect(await matchTotp(key, await at(-2), { time: now })).toBeNull();
    expect(await matchTotp(key, "12345", { time: now })).toBeNull();
    expect(await matchTotp(key, "abcdef", { time: now })).toBeNull();
  });

  it("round-trips base32 and builds the otpauth URI authenticator apps read", () => {
    expect(base32Encode(utf8("foobar"))).toBe("MZXW6YTBOI");
    expect(base32Decode("mzxw 6ytb oi==")).toEqual(utf8("foobar"));
    expect(base32Decode("not base32!")).toBeNull();
    expect(otpauthUri({ issuer: "Ex ample", account: "ada@example.com", secret: "ABC" })).toBe(
      "otpauth://totp/Ex%20ample:ada%40example.com?secret=ABC&issuer=Ex+ample&algorithm=SHA1&digits=6&period=30",
    );
  });
});

const USERS = {
  ada: { id: "ada", email: "ada@example.com", name: "Ada", emailVerified: null },
  eve: { id: "eve", email: "eve@example.com", name: "Eve", emailVerified: null },
};

function setup(options: TwoFactorOptions = {}, extra: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter();
  for (const user of Object.values(USERS)) void adapter.createUser(user);
  // One store per test, shared by its "instances": counts do not leak between tests.
  const storage = memoryStore();
  const make = (): AuthConfig => ({
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    logger: recordingLogger().logger,
    rateLimit: { storage },
    experimental: { extensions: [twoFactor({ issuer: "Tessera tests", ...options })] },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (credentials) => {
          const user = USERS[credentials.username as keyof typeof USERS];
          return user && credentials.password === "pw" ? user : null;
        },
      }),
    ],
    ...extra,
  });
  return { adapter, config: make(), make };
}

async function signInFirstFactor(client: Client, username = "ada") {
  const csrfToken = await client.csrfToken();
  return client.post("/auth/callback/credentials", {
    csrfToken,
    username,
    password: "pw",
    callbackUrl: `${ORIGIN}/dashboard`,
  });
}

async function post(client: Client, path: string, form: Record<string, string>) {
  const csrfToken = await client.csrfToken();
  return client.post(path, { csrfToken, ...form });
}

/** Signs `username` in (first factor only, no factor yet), enrols and activates a factor. */
async function enrolled(client: Client, username = "ada") {
  await signInFirstFactor(client, username);
  const enrolment = await post(client, "/auth/two-factor/enrol", {});
  expect(enrolment.status).toBe(200);
  const { secret, uri, qrSvg } = (await enrolment.json()) as {
    secret: string;
    uri: string;
    qrSvg: string;
  };
  expect(uri).toContain(`secret=${secret}`);
  expect(qrSvg).toMatch(/^<svg /);
  const key = base32Decode(secret) as Uint8Array;
  const activation = await post(client, "/auth/two-factor/activate", { code: await totp(key) });
  expect(activation.status).toBe(200);
  const { backupCodes } = (await activation.json()) as { backupCodes: string[] };
  return { key, backupCodes };
}

/** The code of the next time step (accepted within the drift, and not yet used). */
const nextCode = (key: Uint8Array, steps = 1) => totp(key, { time: Date.now() + steps * 30_000 });

describe("the two-factor extension", () => {
  it("names the missing adapter method and the packages that have it, at start-up", () => {
    const { make } = setup();
    const { getTwoFactor: _, ...partial } = MemoryAdapter();
    const config = { ...make(), adapter: partial };
    expect(() => assertStartupConfig(config)).toThrow(InvalidExtension);
    expect(() => assertStartupConfig(config)).toThrow(
      /needs the adapter method getTwoFactor.*@tessera\/memory, @tessera\/sql, @tessera\/redis/,
    );
    expect(() => assertStartupConfig({ ...make(), adapter: undefined })).toThrow(/has none/);
  });

  it("enrols: the factor is pending until a first valid code, then gives 10 backup codes once", async () => {
    const { config, adapter } = setup();
    const client = new Client(config);
    await signInFirstFactor(client);
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
    const enrolment = await post(client, "/auth/two-factor/enrol", {});
    const { secret } = (await enrolment.json()) as { secret: string };
    const stored = await adapter.getTwoFactor("ada");
    expect(stored?.enabledAt).toBeNull();
    // Encrypted at rest: the stored secret is a JWE, not the key.
    expect(stored?.secret).not.toContain(secret);
    expect(stored?.secret.split(".")).toHaveLength(5);
    const wrong = await post(client, "/auth/two-factor/activate", { code: "000000" });
    expect(wrong.status).toBe(400);
    expect((await adapter.getTwoFactor("ada"))?.enabledAt).toBeNull();
    const key = base32Decode(secret) as Uint8Array;
    const activation = await post(client, "/auth/two-factor/activate", { code: await totp(key) });
    const { backupCodes } = (await activation.json()) as { backupCodes: string[] };
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    expect(await adapter.countBackupCodes("ada")).toBe(10);
    const status = await client.get("/auth/two-factor/status");
    expect(await status.json()).toEqual({ enabled: true, pending: false, backupCodesLeft: 10 });
  });

  it("pauses the next sign-in at the challenge: no session until a code passes", async () => {
    const { make } = setup();
    const { key } = await enrolled(new Client(make()));
    const browser = new Client(make());
    const first = await signInFirstFactor(browser);
    expect(first.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/verify`);
    expect(browser.jar.has("authjs.session-token")).toBe(false);
    expect(await browser.session()).toBeNull();
    const page = await browser.get("/auth/two-factor/verify", { accept: "text/html" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('autocomplete="one-time-code"');
    const passed = await post(browser, "/auth/two-factor/verify", { code: await nextCode(key) });
    expect(passed.status).toBe(302);
    expect(passed.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(browser.jar.has("authjs.paused-sign-in")).toBe(false);
    expect(await browser.session()).toMatchObject({ user: { email: "ada@example.com" } });
  });

  it("refuses a replayed code (and an earlier one) on another instance sharing the adapter", async () => {
    const { make } = setup();
    const { key } = await enrolled(new Client(make()));
    const code = await nextCode(key);
    const one = new Client(make());
    await signInFirstFactor(one);
    expect((await post(one, "/auth/two-factor/verify", { code })).status).toBe(302);
    // Another app instance (another config object), the same shared adapter.
    const two = new Client(make());
    await signInFirstFactor(two);
    const replay = await post(two, "/auth/two-factor/verify", { code });
    expect(replay.status).toBe(401);
    const earlier = await post(two, "/auth/two-factor/verify", { code: await totp(key) });
    expect(earlier.status).toBe(401);
    expect(await two.session()).toBeNull();
  });

  it("brute force: over the rate limit even the right code is refused", async () => {
    const { make } = setup({}, { rateLimit: { max: 3, window: 60, storage: memoryStore() } });
    const { key } = await enrolled(new Client(make()));
    const attacker = new Client(make());
    await signInFirstFactor(attacker);
    for (const guess of ["111111", "222222", "333333"])
      expect((await post(attacker, "/auth/two-factor/verify", { code: guess })).status).toBe(401);
    const limited = await post(attacker, "/auth/two-factor/verify", {
      code: await nextCode(key),
    });
    expect(limited.status).toBe(429);
    expect(await attacker.session()).toBeNull();
  });

  it("a backup code signs in once: two parallel uses of one code sign in exactly once", async () => {
    const { make, adapter } = setup();
    const { backupCodes } = await enrolled(new Client(make()));
    const code = backupCodes[0] as string;
    const browsers = [new Client(make()), new Client(make())];
    for (const browser of browsers) await signInFirstFactor(browser);
    const answers = await Promise.all(
      browsers.map((browser) => post(browser, "/auth/two-factor/verify", { backupCode: code })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 401]);
    expect(await adapter.countBackupCodes("ada")).toBe(9);
    // Typed in lower case with spaces: the same code, already used.
    const third = new Client(make());
    await signInFirstFactor(third);
    const again = await post(third, "/auth/two-factor/verify", {
      backupCode: ` ${code.toLowerCase()} `,
    });
    expect(again.status).toBe(401);
  });

  it("a paused sign-in moved to another browser or user still needs that user's code", async () => {
    const { make } = setup();
    await enrolled(new Client(make()), "ada");
    const eve = await enrolled(new Client(make()), "eve");
    const victim = new Client(make());
    await signInFirstFactor(victim);
    const thief = new Client(make());
    thief.jar.set("authjs.paused-sign-in", victim.jar.get("authjs.paused-sign-in") as string);
    // Eve's own valid code does not open Ada's paused sign-in.
    const answer = await post(thief, "/auth/two-factor/verify", { code: await nextCode(eve.key) });
    expect(answer.status).toBe(401);
    expect(await thief.session()).toBeNull();
  });

  it("skipping the challenge: the session and callback actions issue nothing, verify needs the paused sign-in", async () => {
    const { make } = setup();
    const { key } = await enrolled(new Client(make()));
    const browser = new Client(make());
    await signInFirstFactor(browser);
    expect(await browser.session()).toBeNull();
    const csrfToken = await browser.csrfToken();
    const update = await browser.postJson("/auth/session", { csrfToken, data: {} });
    expect(await update.json()).toBeNull();
    // The first factor again just pauses again.
    const again = await signInFirstFactor(browser);
    expect(again.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/verify`);
    // A valid code without the paused cookie signs nobody in.
    const stranger = new Client(make());
    const answer = await post(stranger, "/auth/two-factor/verify", { code: await nextCode(key) });
    expect(answer.status).toBe(401);
    expect(await stranger.session()).toBeNull();
  });

  it("CSRF: enrol, activate and disable refuse a post without the token", async () => {
    const { make } = setup();
    const { key } = await enrolled(new Client(make()));
    const browser = new Client(make());
    await signInFirstFactor(browser);
    await post(browser, "/auth/two-factor/verify", { code: await nextCode(key) });
    for (const path of ["enrol", "activate", "disable", "backup-codes"]) {
      const forged = await browser.post(`/auth/two-factor/${path}`, { code: "123456" });
      expect(forged.status).toBe(403);
    }
    expect(await (await browser.get("/auth/two-factor/status")).json()).toMatchObject({
      enabled: true,
    });
  });

  it("disables with a valid code only; sign-ins then need no challenge", async () => {
    const events: string[] = [];
    const { make } = setup({
      events: {
        twoFactorDisabled: ({ userId }) => void events.push(`disabled ${userId}`),
        twoFactorChallengeFailed: ({ userId }) => void events.push(`failed ${userId}`),
      },
    });
    const owner = new Client(make());
    const { key } = await enrolled(owner);
    expect((await post(owner, "/auth/two-factor/disable", { code: "000000" })).status).toBe(401);
    expect(
      (await post(owner, "/auth/two-factor/disable", { code: await nextCode(key) })).status,
    ).toBe(200);
    expect(events).toEqual(["failed ada", "disabled ada"]);
    const later = new Client(make());
    const first = await signInFirstFactor(later);
    expect(first.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
  });

  it("required: a user without a factor enrols before the session exists", async () => {
    const { make } = setup({ required: true });
    const browser = new Client(make());
    const first = await signInFirstFactor(browser);
    expect(first.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/enrol`);
    expect(await browser.session()).toBeNull();
    const enrolment = await post(browser, "/auth/two-factor/enrol", {});
    const { secret } = (await enrolment.json()) as { secret: string };
    const key = base32Decode(secret) as Uint8Array;
    const activation = await post(browser, "/auth/two-factor/activate", { code: await totp(key) });
    const body = (await activation.json()) as { backupCodes: string[]; url: string };
    expect(body.backupCodes).toHaveLength(10);
    expect(body.url).toBe(`${ORIGIN}/dashboard`);
    expect(await browser.session()).toMatchObject({ user: { email: "ada@example.com" } });
  });

  it("the session knows how and when its user authenticated (amr, time), whatever the jwt callback returns", async () => {
    // A jwt callback that builds a new token: the claims are added after it, so they stay.
    const { make } = setup(
      {},
      {
        callbacks: { jwt: ({ token }) => ({ sub: token.sub, email: token.email }) },
      },
    );
    const owner = new Client(make());
    const { key } = await enrolled(owner);
    const onePassword = (await owner.session()) as Record<string, unknown>;
    expect(onePassword.authentication).toMatchObject({ amr: ["pwd"] });
    expect(requireRecentAuthentication(onePassword as never, { maxAge: 300 })).toBe(true);
    expect(requireRecentAuthentication(onePassword as never, { maxAge: 300, factor: "mfa" })).toBe(
      false,
    );
    const browser = new Client(make());
    await signInFirstFactor(browser);
    await post(browser, "/auth/two-factor/verify", { code: await nextCode(key) });
    const both = (await browser.session()) as {
      authentication: { amr: string[]; authenticatedAt: string };
    };
    expect(both.authentication.amr).toEqual(["pwd", "otp", "mfa"]);
    expect(Date.now() - Date.parse(both.authentication.authenticatedAt)).toBeLessThan(10_000);
    expect(requireRecentAuthentication(both as never, { maxAge: 300, factor: "mfa" })).toBe(true);
    const stale = {
      ...both,
      authentication: {
        ...both.authentication,
        authenticatedAt: new Date(Date.now() - 600_000).toISOString(),
      },
    };
    expect(requireRecentAuthentication(stale as never, { maxAge: 300 })).toBe(false);
    expect(requireRecentAuthentication(null, { maxAge: 300 })).toBe(false);
  });

  it("step-up: a code renews the session's authentication time and returns to the callback URL", async () => {
    const { make } = setup();
    const owner = new Client(make());
    const { key, backupCodes } = await enrolled(owner);
    // Signed in with the password alone (before the factor existed): not enough for "mfa".
    const before = (await owner.session()) as Record<string, unknown>;
    expect(requireRecentAuthentication(before as never, { maxAge: 300, factor: "mfa" })).toBe(
      false,
    );
    const page = await owner.get("/auth/two-factor/reauthenticate?callbackUrl=%2Fsettings", {
      accept: "text/html",
    });
    expect(await page.text()).toContain('value="http://localhost:3000/settings"');
    const wrong = await post(owner, "/auth/two-factor/reauthenticate", { code: "000000" });
    expect(wrong.status).toBe(401);
    const stepped = await post(owner, "/auth/two-factor/reauthenticate", {
      code: await nextCode(key),
      callbackUrl: "/settings",
    });
    expect(stepped.status).toBe(302);
    expect(stepped.headers.get("location")).toBe(`${ORIGIN}/settings`);
    const after = (await owner.session()) as Record<string, unknown>;
    expect(after.authentication).toMatchObject({ amr: ["pwd", "otp", "mfa"] });
    expect(requireRecentAuthentication(after as never, { maxAge: 300, factor: "mfa" })).toBe(true);
    // A hostile callback URL goes where the redirect callback allows: the site itself.
    const hostile = await post(owner, "/auth/two-factor/reauthenticate", {
      code: backupCodes[0] as string,
      callbackUrl: "https://evil.example/",
    });
    expect(hostile.headers.get("location")).toBe(ORIGIN);
  });

  it("step-up without a factor goes through the sign-in page", async () => {
    const { make } = setup();
    const browser = new Client(make());
    await signInFirstFactor(browser);
    const answer = await browser.get("/auth/two-factor/reauthenticate?callbackUrl=%2Fsettings");
    expect(answer.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/settings`)}`,
    );
  });

  it("a session callback's own authentication field is kept", async () => {
    const { make } = setup(
      {},
      {
        callbacks: { session: ({ session }) => ({ ...session, authentication: "mine" }) },
      },
    );
    const browser = new Client(make());
    await signInFirstFactor(browser);
    expect(await browser.session()).toMatchObject({ authentication: "mine" });
  });

  it("pauses an e-mail link sign-in too: the link alone signs nobody in", async () => {
    const { make } = setup();
    const sender = recordingSender();
    const withEmail = (): AuthConfig => {
      const config = make();
      return {
        ...config,
        providers: [
          ...config.providers,
          Email({ sendVerificationRequest: sender.sendVerificationRequest }),
        ],
      };
    };
    const { key } = await enrolled(new Client(withEmail()));
    const browser = new Client(withEmail());
    await requestLink(browser, "email", "ada@example.com");
    const landed = await followLink(browser, sender.lastLink());
    expect(landed.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/verify`);
    expect(await browser.session()).toBeNull();
    await post(browser, "/auth/two-factor/verify", { code: await nextCode(key) });
    expect(await browser.session()).toMatchObject({
      user: { email: "ada@example.com" },
      authentication: { amr: ["email", "otp", "mfa"] },
    });
  });

  it("a trusted browser skips the challenge; other browsers do not", async () => {
    const { make } = setup();
    const { key } = await enrolled(new Client(make()));
    const laptop = new Client(make());
    await signInFirstFactor(laptop);
    await post(laptop, "/auth/two-factor/verify", { code: await nextCode(key), trustDevice: "1" });
    const trust = laptop.jar.get("authjs.two-factor-trust");
    expect(trust?.split(".")).toHaveLength(5);
    // Signed out, the trust cookie stays: the next sign-in on this browser needs no code.
    laptop.jar.delete("authjs.session-token");
    const again = await signInFirstFactor(laptop);
    expect(again.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(await laptop.session()).toMatchObject({ authentication: { amr: ["pwd"] } });
    const phone = new Client(make());
    const challenged = await signInFirstFactor(phone);
    expect(challenged.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/verify`);
  });

  it("a trusted-device cookie of another user opens nothing", async () => {
    const { make } = setup();
    await enrolled(new Client(make()), "ada");
    const eve = await enrolled(new Client(make()), "eve");
    const eveBrowser = new Client(make());
    await signInFirstFactor(eveBrowser, "eve");
    await post(eveBrowser, "/auth/two-factor/verify", {
      code: await nextCode(eve.key),
      trustDevice: "1",
    });
    const stolen = new Client(make());
    stolen.jar.set(
      "authjs.two-factor-trust",
      eveBrowser.jar.get("authjs.two-factor-trust") as string,
    );
    const answer = await signInFirstFactor(stolen, "ada");
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/verify`);
    expect(await stolen.session()).toBeNull();
  });

  it("trust ends when the user forgets their devices (after a password change, say)", async () => {
    const { make } = setup();
    const owner = new Client(make());
    const { key } = await enrolled(owner);
    const laptop = new Client(make());
    await signInFirstFactor(laptop);
    await post(laptop, "/auth/two-factor/verify", { code: await nextCode(key), trustDevice: "1" });
    expect((await post(owner, "/auth/two-factor/forget-devices", {})).status).toBe(200);
    laptop.jar.delete("authjs.session-token");
    const forgotten = await signInFirstFactor(laptop);
    expect(forgotten.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/verify`);
  });

  it("trust ends when the user signs out everywhere else (database sessions)", async () => {
    const { make } = setup({}, { session: { strategy: "database" } });
    const owner = new Client(make());
    const { key } = await enrolled(owner);
    const laptop = new Client(make());
    await signInFirstFactor(laptop);
    await post(laptop, "/auth/two-factor/verify", { code: await nextCode(key), trustDevice: "1" });
    expect(await laptop.session()).toMatchObject({ user: { email: "ada@example.com" } });
    const revoked = await post(owner, "/auth/sessions/revoke", { others: "true" });
    expect(await revoked.json()).toEqual({ revoked: 1 });
    expect(await laptop.session()).toBeNull();
    const answer = await signInFirstFactor(laptop);
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/verify`);
  });

  it("trust ends when the factor is turned off and a new one enrolled", async () => {
    const { make } = setup();
    const owner = new Client(make());
    const { key, backupCodes } = await enrolled(owner);
    const laptop = new Client(make());
    await signInFirstFactor(laptop);
    await post(laptop, "/auth/two-factor/verify", { code: await nextCode(key), trustDevice: "1" });
    const disabled = await post(owner, "/auth/two-factor/disable", {
      code: backupCodes[0] as string,
    });
    expect(disabled.status).toBe(200);
    const enrolment = await post(owner, "/auth/two-factor/enrol", {});
    const { secret } = (await enrolment.json()) as { secret: string };
    const fresh = base32Decode(secret) as Uint8Array;
    await post(owner, "/auth/two-factor/activate", { code: await totp(fresh) });
    laptop.jar.delete("authjs.session-token");
    const answer = await signInFirstFactor(laptop);
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/verify`);
  });

  it("works with database sessions, which know how their user authenticated too", async () => {
    const { make } = setup({}, { session: { strategy: "database" } });
    const owner = new Client(make());
    const { key, backupCodes } = await enrolled(owner);
    expect(await owner.session()).toMatchObject({ authentication: { amr: ["pwd"] } });
    const browser = new Client(make());
    await signInFirstFactor(browser);
    expect(await browser.session()).toBeNull();
    await post(browser, "/auth/two-factor/verify", { code: await nextCode(key) });
    const session = (await browser.session()) as Record<string, unknown>;
    expect(session).toMatchObject({
      user: { email: "ada@example.com" },
      authentication: { amr: ["pwd", "otp", "mfa"] },
    });
    expect(requireRecentAuthentication(session as never, { maxAge: 60, factor: "mfa" })).toBe(true);
    // Step-up on the password-only session renews its claims in place.
    const stepped = await post(owner, "/auth/two-factor/reauthenticate", {
      code: backupCodes[1] as string,
      callbackUrl: "/settings",
    });
    expect(stepped.headers.get("location")).toBe(`${ORIGIN}/settings`);
    expect(await owner.session()).toMatchObject({ authentication: { amr: ["pwd", "otp", "mfa"] } });
  });

  it("serves its server functions in-process through any integration's runner", async () => {
    const { make } = setup();
    const browser = new Client(make());
    await signInFirstFactor(browser);
    const request = { url: ORIGIN, headers: new Headers({ cookie: browser.cookieHeader() }) };
    const api = twoFactorApi(actionRunner(request, make()));
    expect(await api.status()).toEqual({ enabled: false, pending: false, backupCodesLeft: 0 });
    const { secret } = await api.enrol();
    const key = base32Decode(secret) as Uint8Array;
    expect(await api.activate(await totp(key))).toHaveLength(10);
    const fresh = await api.regenerateBackupCodes(await nextCode(key));
    expect(fresh).toHaveLength(10);
    await expect(api.disable("000000")).rejects.toThrow(/refused/);
    await api.disable(fresh[0] as string);
    expect(await api.status()).toMatchObject({ enabled: false });
    const signedOut = twoFactorApi(actionRunner({ url: ORIGIN, headers: new Headers() }, make()));
    expect(await signedOut.status()).toBeNull();
  });

  it("renders the enrolment page with a server-drawn QR code and the key to type", async () => {
    const { make } = setup();
    const browser = new Client(make());
    await signInFirstFactor(browser);
    const csrfToken = await browser.csrfToken();
    const page = await browser.post(
      "/auth/two-factor/enrol",
      { csrfToken },
      { accept: "text/html" },
    );
    const markup = await page.text();
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(markup).toContain("<svg");
    expect(markup).toMatch(/data-secret="[A-Z2-7]{32}"/);
    expect(markup).not.toContain('style="');
  });
});

describe("a code by e-mail as another way through the challenge", () => {
  function withEmailCode() {
    const { make } = setup({ emailCode: true });
    const sender = recordingSender();
    const configure = (): AuthConfig => {
      const config = make();
      const email = Email({ sendVerificationRequest: sender.sendVerificationRequest });
      return { ...config, providers: [...config.providers, email] };
    };
    return { configure, sender };
  }

  it("sends a code through the e-mail provider; the code signs in once", async () => {
    const { configure, sender } = withEmailCode();
    await enrolled(new Client(configure()));
    const browser = new Client(configure());
    await signInFirstFactor(browser);
    const page = await browser.get("/auth/two-factor/verify", { accept: "text/html" });
    expect(await page.text()).toContain("E-mail me a code");
    const sent = await post(browser, "/auth/two-factor/email-code", {});
    expect(await sent.json()).toEqual({ sent: true });
    const mail = sender.sent.at(-1);
    expect(mail?.identifier).toBe("ada@example.com");
    expect(mail?.token).toMatch(/^\d{6}$/);
    expect(mail?.url).toBe(`${ORIGIN}/auth/two-factor/verify?emailCode=${mail?.token}`);
    // The link fills the code in; opening it signs nobody in.
    const linked = await browser.get(
      new URL(mail?.url as string).pathname + new URL(mail?.url as string).search,
      {
        accept: "text/html",
      },
    );
    expect(await linked.text()).toContain(`value="${mail?.token}"`);
    expect(await browser.session()).toBeNull();
    const passed = await post(browser, "/auth/two-factor/verify", {
      emailCode: mail?.token as string,
    });
    expect(passed.status).toBe(302);
    expect(await browser.session()).toMatchObject({
      authentication: { amr: ["pwd", "otp", "mfa"] },
    });
    // Spent: the same code opens no other paused sign-in of that user.
    const second = new Client(configure());
    await signInFirstFactor(second);
    const replay = await post(second, "/auth/two-factor/verify", {
      emailCode: mail?.token as string,
    });
    expect(replay.status).toBe(401);
  });

  it("two parallel uses of one e-mailed code sign in once", async () => {
    const { configure, sender } = withEmailCode();
    await enrolled(new Client(configure()));
    const browsers = [new Client(configure()), new Client(configure())];
    for (const browser of browsers) await signInFirstFactor(browser);
    await post(browsers[0] as Client, "/auth/two-factor/email-code", {});
    const code = sender.sent.at(-1)?.token as string;
    const answers = await Promise.all(
      browsers.map((browser) => post(browser, "/auth/two-factor/verify", { emailCode: code })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 401]);
  });

  it("is not offered after an e-mail link sign-in: the same mailbox twice is one factor", async () => {
    const { configure, sender } = withEmailCode();
    await enrolled(new Client(configure()));
    const browser = new Client(configure());
    await requestLink(browser, "email", "ada@example.com");
    await followLink(browser, sender.lastLink());
    const page = await browser.get("/auth/two-factor/verify", { accept: "text/html" });
    expect(await page.text()).not.toContain("E-mail me a code");
    const refused = await post(browser, "/auth/two-factor/email-code", {});
    expect(refused.status).toBe(404);
  });

  it("arrives over real SMTP through the Nodemailer provider", async () => {
    const smtp = await startSmtpServer();
    try {
      const { make } = setup({ emailCode: true });
      const configure = (): AuthConfig => {
        const config = make();
        const mailer = Nodemailer({ server: smtp.url, from: "no-reply@app.example" });
        return { ...config, providers: [...config.providers, mailer] };
      };
      await enrolled(new Client(configure()));
      const browser = new Client(configure());
      await signInFirstFactor(browser);
      await post(browser, "/auth/two-factor/email-code", {});
      const mail = await smtp.nextMail();
      expect(mail.to).toEqual(["ada@example.com"]);
      const code = /emailCode=(\d{6})/.exec(mail.text)?.[1] as string;
      expect(code).toMatch(/^\d{6}$/);
      expect((await post(browser, "/auth/two-factor/verify", { emailCode: code })).status).toBe(
        302,
      );
      expect(await browser.session()).toMatchObject({ user: { email: "ada@example.com" } });
    } finally {
      await smtp.close();
    }
  });
});

describe("a passkey as another way through the challenge", () => {
  function withPasskeys() {
    const { make } = setup();
    return (): AuthConfig => {
      const config = make();
      return {
        ...config,
        experimental: { ...config.experimental, enableWebAuthn: true },
        providers: [...config.providers, Passkey({ relayingParty: { name: "Tessera tests" } })],
      };
    };
  }

  it("offers no options to a user without a passkey, and refuses a forged assertion", async () => {
    const configure = withPasskeys();
    await enrolled(new Client(configure()));
    const browser = new Client(configure());
    await signInFirstFactor(browser);
    const options = await browser.get("/auth/two-factor/passkey-options");
    expect(options.status).toBe(404);
    expect(await options.json()).toEqual({ error: "NoPasskey" });
    // No challenge was issued and the credential is made up: no session.
    const forged = {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: "e30" },
    };
    const answer = await post(browser, "/auth/two-factor/verify", {
      passkey: JSON.stringify(forged),
    });
    expect(answer.status).toBe(401);
    expect(await browser.session()).toBeNull();
  });

  it("the challenge page's passkey helper is allowed by its hash, and by nothing broader", () => {
    const digest = createHash("sha256").update(PASSKEY_CHALLENGE_SCRIPT, "utf8").digest("base64");
    expect(PASSKEY_CHALLENGE_SCRIPT_HASH).toBe(`sha256-${digest}`);
  });

  it("asks for the options of a paused sign-in only", async () => {
    const configure = withPasskeys();
    const stranger = new Client(configure());
    expect((await stranger.get("/auth/two-factor/passkey-options")).status).toBe(401);
  });
});

describe("node:http", () => {
  it("toNodeHandler serves the rows, and nodeActionRunner runs them for the app's own routes", async () => {
    const { make } = setup();
    const config = make();
    const handler = toNodeHandler(config);
    const server = createServer((req, res) => {
      if (req.url?.startsWith("/auth/")) return void handler(req, res);
      void twoFactorApi(nodeActionRunner(req, config, res, { origin: ORIGIN }))
        .status()
        .then((status) =>
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(status)),
        );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const csrf = await fetch(`${origin}/auth/csrf`);
      const cookie = csrf.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const signIn = await fetch(`${origin}/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, username: "ada", password: "pw" }),
      });
      const session = signIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .find((c) => c?.startsWith("authjs.session-token="));
      const status = await fetch(`${origin}/auth/two-factor/status`, {
        headers: { cookie: `${session}` },
      });
      expect(await status.json()).toEqual({ enabled: false, pending: false, backupCodesLeft: 0 });
      const viaRunner = await fetch(`${origin}/account`, { headers: { cookie: `${session}` } });
      expect(await viaRunner.json()).toEqual({
        enabled: false,
        pending: false,
        backupCodesLeft: 0,
      });
      expect(await (await fetch(`${origin}/account`)).json()).toBeNull();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("loading", () => {
  it("an app that does not import @tessera/core/two-factor never loads it nor the QR encoder", async () => {
    const entries = ["index", "node", "client", "jwt", "store"].map(
      (name) => new URL(`../src/${name}.ts`, import.meta.url).pathname,
    );
    const { metafile } = await build({
      entryPoints: entries,
      bundle: true,
      write: false,
      metafile: true,
      format: "esm",
      platform: "node",
      outdir: "/tmp/unused",
      packages: "external",
      logLevel: "silent",
    });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((path) => path.includes("lib/in-process.ts"))).toBe(true);
    expect(inputs.filter((path) => path.includes("extensions/"))).toEqual([]);
    const imported = Object.values(metafile.outputs).flatMap((output) =>
      output.imports.map((entry) => entry.path),
    );
    expect(imported).not.toContain("uqr");
    // The entry itself does load both.
    const own = await build({
      entryPoints: [new URL("../src/extensions/two-factor/index.ts", import.meta.url).pathname],
      bundle: true,
      write: false,
      metafile: true,
      format: "esm",
      platform: "node",
      packages: "external",
      logLevel: "silent",
    });
    const ownImports = Object.values(own.metafile.outputs).flatMap((output) =>
      output.imports.map((entry) => entry.path),
    );
    expect(ownImports).toContain("uqr");
  });
});
