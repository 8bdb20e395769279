/**
 * The e-mail link's security properties: single use (also under a race), expiry, tampering,
 * cross-address use, secret rotation, address normalisation at the door, and the `signIn`
 * callback's veto. Links are captured through `sendVerificationRequest`, the public hook.
 */
import { type AuthConfig, createMemoryAttemptStore } from "@tessera/core";
import type { AdapterUser } from "@tessera/core/adapters";
import Email from "@tessera/core/providers/email";
import { memoryStore } from "@tessera/core/store";
import { createMemoryStore, MemoryAdapter, type MemoryStore } from "@tessera/memory";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  baseConfig,
  EMAIL_SIGNIN_ERROR,
  followLink,
  ORIGIN,
  recordingSender,
  requestLink,
} from "./email-helpers.js";
import { Client, recordingLogger, SECRET } from "./helpers.js";

const OLD_SECRET = "old-secret-of-at-least-thirty-two-characters";
const NEW_SECRET = "new-secret-of-at-least-thirty-two-characters";
const ERROR_VERIFICATION = `${ORIGIN}/auth/error?error=Verification`;

function setup(
  overrides: Partial<AuthConfig> = {},
  options: { store?: MemoryStore; provider?: Parameters<typeof Email>[0] } = {},
) {
  const store = options.store ?? createMemoryStore();
  const sender = recordingSender();
  const { logger, errors } = recordingLogger();
  const config = baseConfig({
    secret: SECRET,
    adapter: MemoryAdapter(store),
    providers: [
      Email({ sendVerificationRequest: sender.sendVerificationRequest, ...options.provider }),
    ],
    logger,
    // Each test is an app of its own: without a store of its own, its sign-in rate-limit counts
    // would add up with the other tests' in the default store of the app their secret names.
    rateLimit: { storage: memoryStore() },
    ...overrides,
  });
  return { store, sender, config, errors, client: new Client(config) };
}

async function signedInEmail(client: Client): Promise<unknown> {
  return ((await client.session())?.user as { email?: string } | undefined)?.email;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a valid link", () => {
  it("signs in once, creates the user with emailVerified and emits events", async () => {
    const events: string[] = [];
    const { store, sender, client } = setup({
      session: { strategy: "database" },
      events: {
        createUser: ({ user }) => void events.push(`createUser:${user.email}`),
        signIn: ({ user, isNewUser, account }) =>
          void events.push(`signIn:${user.email}:${isNewUser}:${account?.type}`),
      },
    });
    await requestLink(client, "email", "ada@example.com");
    expect(sender.sent).toHaveLength(1);
    expect(sender.sent[0]?.identifier).toBe("ada@example.com");
    expect(sender.sent[0]?.provider.id).toBe("email");
    const expiresIn = (sender.sent[0]?.expires.valueOf() ?? 0) - Date.now();
    expect(expiresIn).toBeGreaterThan(86_390_000);
    expect(expiresIn).toBeLessThanOrEqual(86_400_000);

    const response = await followLink(client, sender.lastLink());
    expect(response.headers.get("location")).toBe(ORIGIN);
    expect(await signedInEmail(client)).toBe("ada@example.com");
    expect(events).toEqual(["createUser:ada@example.com", "signIn:ada@example.com:true:email"]);
    const [user] = [...store.users.values()];
    expect(user?.emailVerified).toBeInstanceOf(Date);
  });

  it("marks an existing unverified user verified on the first sign-in only", async () => {
    const store = createMemoryStore();
    const existing: AdapterUser = {
      id: "user-1",
      email: "bo@example.com",
      emailVerified: null,
      name: "Bo",
    };
    store.users.set(existing.id, existing);
    const updates: unknown[] = [];
    const { sender, client } = setup(
      { events: { updateUser: ({ user }) => void updates.push(user) } },
      { store },
    );

    await requestLink(client, "email", "bo@example.com");
    await followLink(client, sender.lastLink());
    const verifiedAt = store.users.get("user-1")?.emailVerified;
    expect(verifiedAt).toBeInstanceOf(Date);
    expect(store.users.size).toBe(1);
    expect(updates).toHaveLength(1);

    await requestLink(client, "email", "bo@example.com");
    await followLink(client, sender.lastLink());
    expect(store.users.get("user-1")?.emailVerified).toEqual(verifiedAt);
    expect(updates).toHaveLength(1);
    expect((await client.session())?.user).toMatchObject({ name: "Bo", email: "bo@example.com" });
  });

  it("honours `pages.verifyRequest` and a custom `maxAge`", async () => {
    const { sender, client } = setup(
      { pages: { verifyRequest: "/check-your-mail" } },
      { provider: { maxAge: 600 } },
    );
    const response = await requestLink(client, "email", "cy@example.com");
    expect(response.headers.get("location")).toBe(
      `${ORIGIN}/check-your-mail?provider=email&type=email`,
    );
    const expiresIn = (sender.sent[0]?.expires.valueOf() ?? 0) - Date.now();
    expect(expiresIn).toBeGreaterThan(590_000);
    expect(expiresIn).toBeLessThanOrEqual(600_000);
  });
});

describe("refused links", () => {
  it("refuses a reused link with Verification", async () => {
    const { sender, client } = setup();
    await requestLink(client, "email", "ada@example.com");
    const link = sender.lastLink();
    await followLink(client, link);
    const second = new Client(client.config);
    const response = await followLink(second, link);
    expect(response.headers.get("location")).toBe(ERROR_VERIFICATION);
    expect(await second.session()).toBeNull();
  });

  it("refuses an expired link even when the adapter still returns the token", async () => {
    const { store, sender, client } = setup();
    await requestLink(client, "email", "ada@example.com");
    for (const token of store.verificationTokens.values())
      token.expires = new Date(Date.now() - 1000);
    const response = await followLink(client, sender.lastLink());
    expect(response.headers.get("location")).toBe(ERROR_VERIFICATION);
    expect(await client.session()).toBeNull();
    expect(store.users.size).toBe(0);
    // The expired record is consumed too.
    expect(store.verificationTokens.size).toBe(0);
  });

  it("refuses a link once `maxAge` has passed on the clock", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { sender, client } = setup({}, { provider: { maxAge: 60 } });
    await requestLink(client, "email", "ada@example.com");
    vi.setSystemTime(Date.now() + 61_000);
    const response = await followLink(client, sender.lastLink());
    expect(response.headers.get("location")).toBe(ERROR_VERIFICATION);
  });

  it("refuses a tampered token and leaves the real one usable", async () => {
    const { sender, client } = setup();
    await requestLink(client, "email", "ada@example.com");
    const link = sender.lastLink();
    const token = link.searchParams.get("token") ?? "";
    const tampered = new URL(link);
    tampered.searchParams.set("token", token.slice(0, -1) + (token.endsWith("0") ? "1" : "0"));
    expect((await followLink(client, tampered)).headers.get("location")).toBe(ERROR_VERIFICATION);

    for (const broken of ["", "x".repeat(600)]) {
      const url = new URL(link);
      url.searchParams.set("token", broken);
      expect((await followLink(client, url)).headers.get("location")).toBe(ERROR_VERIFICATION);
    }
    const noEmail = new URL(link);
    noEmail.searchParams.delete("email");
    expect((await followLink(client, noEmail)).headers.get("location")).toBe(ERROR_VERIFICATION);

    await followLink(client, link);
    expect(await signedInEmail(client)).toBe("ada@example.com");
  });

  it("refuses a link used for another address (and does not burn the owner's link)", async () => {
    const { store, sender, client } = setup();
    await requestLink(client, "email", "victim@example.com");
    const victimLink = sender.lastLink("victim@example.com");
    await requestLink(client, "email", "attacker@example.com");

    const swapped = new URL(victimLink);
    swapped.searchParams.set("email", "attacker@example.com");
    expect((await followLink(client, swapped)).headers.get("location")).toBe(ERROR_VERIFICATION);
    expect(store.users.size).toBe(0);

    const owner = new Client(client.config);
    await followLink(owner, victimLink);
    expect(await signedInEmail(owner)).toBe("victim@example.com");
  });

  it("issues exactly one session when the same link is opened 40 times at once", async () => {
    // The race is under test: the default rate limit would refuse 30 of the 40 opens up front.
    const { store, sender, config } = setup({
      session: { strategy: "database" },
      rateLimit: false,
    });
    await requestLink(new Client(config), "email", "race@example.com");
    const link = sender.lastLink();
    const browsers = Array.from({ length: 40 }, () => new Client(config));
    const responses = await Promise.all(browsers.map((browser) => followLink(browser, link)));
    const locations = responses.map((r) => r.headers.get("location"));
    expect(locations.filter((l) => l === ORIGIN)).toHaveLength(1);
    expect(locations.filter((l) => l === ERROR_VERIFICATION)).toHaveLength(39);
    expect(store.sessions.size).toBe(1);
    expect(store.users.size).toBe(1);
    const signedIn = await Promise.all(browsers.map(signedInEmail));
    expect(signedIn.filter(Boolean)).toEqual(["race@example.com"]);
  });
});

describe("secret rotation", () => {
  it("keeps links pending across a rotation and refuses them once the old secret is gone", async () => {
    const store = createMemoryStore();
    const before = setup({ secret: OLD_SECRET }, { store });
    await requestLink(before.client, "email", "ada@example.com");
    await requestLink(before.client, "email", "bo@example.com");

    const rotated = setup({ secret: [NEW_SECRET, OLD_SECRET] }, { store });
    const ada = new Client(rotated.config);
    await followLink(ada, before.sender.lastLink("ada@example.com"));
    expect(await signedInEmail(ada)).toBe("ada@example.com");

    const retired = setup({ secret: [NEW_SECRET] }, { store });
    const bo = new Client(retired.config);
    const response = await followLink(bo, before.sender.lastLink("bo@example.com"));
    expect(response.headers.get("location")).toBe(ERROR_VERIFICATION);
  });

  it("hashes with the provider's own `secret` when it has one", async () => {
    const store = createMemoryStore();
    const provider = { secret: "provider-secret-of-at-least-32-chars!!" };
    const first = setup({ secret: OLD_SECRET }, { store, provider });
    await requestLink(first.client, "email", "ada@example.com");
    const later = setup({ secret: NEW_SECRET }, { store, provider });
    const browser = new Client(later.config);
    await followLink(browser, first.sender.lastLink());
    expect(await signedInEmail(browser)).toBe("ada@example.com");
  });
});

describe("the address at the door", () => {
  it("normalises the address before it is stored and sent", async () => {
    const { store, sender, client } = setup();
    await requestLink(client, "email", "  Ada@Example.COM ");
    expect(sender.sent[0]?.identifier).toBe("ada@example.com");
    expect([...store.verificationTokens.values()][0]?.identifier).toBe("ada@example.com");
  });

  it.each([
    ["several @", "a@b@c.test"],
    ["a quoted local part", '"a@evil.test"@example.com'],
    ["a fullwidth ＠", "ada＠example.com"],
    ["a recipient list", "ada@example.com,eve@evil.test"],
    ["a header injection", "ada@example.com\r\nBcc: eve@evil.test"],
    ["no address", ""],
  ])("refuses %s with EmailSignInError and sends nothing", async (_name, email) => {
    const { store, sender, client } = setup();
    const response = await requestLink(client, "email", email);
    const location = new URL(response.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${ORIGIN}/auth/signin`);
    expect(location.searchParams.get("error")).toBe("EmailSignin");
    // The page says why and shows the address again (email-address-refusal.test.ts).
    expect(location.searchParams.get("code")).toMatch(/^address-/);
    expect(sender.sent).toHaveLength(0);
    expect(store.verificationTokens.size).toBe(0);
  });

  it("uses the provider's `normalizeIdentifier` when given", async () => {
    const { sender, client } = setup(
      {},
      { provider: { normalizeIdentifier: (id) => id.trim().replace(/\+[^@]*@/, "@") } },
    );
    await requestLink(client, "email", "ada+news@example.com");
    expect(sender.sent[0]?.identifier).toBe("ada@example.com");
  });

  it("sends nothing without a valid CSRF token (login CSRF)", async () => {
    const { sender, client } = setup();
    const response = await client.post("/auth/signin/email", {
      csrfToken: "forged",
      email: "ada@example.com",
    });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`);
    expect(sender.sent).toHaveLength(0);
  });

  it("reports a failing sender as EmailSignInError with the cause in the log", async () => {
    const { errors, client } = setup(
      {},
      {
        provider: {
          sendVerificationRequest: () => {
            throw new Error("quota exceeded");
          },
        },
      },
    );
    const response = await requestLink(client, "email", "ada@example.com");
    expect(response.headers.get("location")).toMatch(EMAIL_SIGNIN_ERROR);
    expect(errors.at(-1)?.message).toContain("quota exceeded");
  });
});

describe("the signIn callback", () => {
  it("sees the request with verificationRequest and the link without it", async () => {
    const calls: { email?: unknown; user: unknown; account: unknown }[] = [];
    const { sender, client } = setup({
      callbacks: {
        signIn: (params) => {
          calls.push({ email: params.email, user: params.user, account: params.account });
          return true;
        },
      },
    });
    await requestLink(client, "email", "ada@example.com");
    expect(calls[0]?.email).toEqual({ verificationRequest: true });
    expect(calls[0]?.user).toMatchObject({ email: "ada@example.com", emailVerified: null });
    expect(calls[0]?.account).toMatchObject({
      providerAccountId: "ada@example.com",
      type: "email",
      provider: "email",
    });
    await followLink(client, sender.lastLink());
    expect(calls).toHaveLength(2);
    expect(calls[1]?.email).toBeUndefined();
    expect(await signedInEmail(client)).toBe("ada@example.com");
  });

  it("blocks an address with false: AccessDenied, no token, no e-mail", async () => {
    const { store, sender, client } = setup({
      callbacks: { signIn: ({ user }) => !user.email?.endsWith("@blocked.test") },
    });
    const response = await requestLink(client, "email", "eve@blocked.test");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`);
    expect(sender.sent).toHaveLength(0);
    expect(store.verificationTokens.size).toBe(0);
  });

  it("redirects where a returned string points, without sending", async () => {
    const { sender, client } = setup({
      callbacks: { signIn: () => "/waitlist" },
    });
    const response = await requestLink(client, "email", "ada@example.com");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/waitlist`);
    expect(sender.sent).toHaveLength(0);
  });

  it("can refuse when the link is followed, before any user is created", async () => {
    const { store, sender, client } = setup({
      callbacks: { signIn: ({ email }) => email?.verificationRequest === true },
    });
    await requestLink(client, "email", "ada@example.com");
    const response = await followLink(client, sender.lastLink());
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`);
    expect(store.users.size).toBe(0);
    expect(await client.session()).toBeNull();
  });
});

describe("brute force of short codes (maxAttempts)", () => {
  /** A 4-digit code, like an app's `generateVerificationToken` for typed-in codes. */
  const fourDigits = () => String(Math.floor(Math.random() * 10_000)).padStart(4, "0");

  /** The link `sender` last sent, with `code` in place of its token. */
  function withCode(link: URL, code: string): URL {
    const url = new URL(link);
    url.searchParams.set("token", code);
    return url;
  }

  /** `count` 4-digit codes that are not `right`. */
  function wrongCodes(right: string, count: number): string[] {
    return Array.from({ length: count }, (_, i) =>
      String((Number(right) + 1 + i) % 10_000).padStart(4, "0"),
    );
  }

  it("voids a 4-digit code after 5 wrong tries: the right code is then refused and consumed", async () => {
    const { store, sender, client } = setup(
      {},
      { provider: { generateVerificationToken: fourDigits } },
    );
    await requestLink(client, "email", "ada@example.com");
    const link = sender.lastLink();
    const right = link.searchParams.get("token") ?? "";
    expect(right).toMatch(/^\d{4}$/);
    for (const wrong of wrongCodes(right, 5))
      expect((await followLink(client, withCode(link, wrong))).headers.get("location")).toBe(
        ERROR_VERIFICATION,
      );
    expect((await followLink(client, link)).headers.get("location")).toBe(ERROR_VERIFICATION);
    expect(await signedInEmail(client)).toBeUndefined();
    // The right code was consumed: it stays void even once the count is forgotten.
    expect(store.verificationTokens.size).toBe(0);

    // A new e-mail starts over.
    await requestLink(client, "email", "ada@example.com");
    expect((await followLink(client, sender.lastLink())).headers.get("location")).toBe(ORIGIN);
    expect(await signedInEmail(client)).toBe("ada@example.com");
  });

  it("accepts the right code after fewer wrong tries than the limit", async () => {
    const { sender, client } = setup({}, { provider: { generateVerificationToken: fourDigits } });
    await requestLink(client, "email", "bo@example.com");
    const link = sender.lastLink();
    for (const wrong of wrongCodes(link.searchParams.get("token") ?? "", 4))
      await followLink(client, withCode(link, wrong));
    expect((await followLink(client, link)).headers.get("location")).toBe(ORIGIN);
  });

  it("counts per address: wrong tries for one address leave another's code valid", async () => {
    const { sender, client } = setup({}, { provider: { generateVerificationToken: fourDigits } });
    await requestLink(client, "email", "victim@example.com");
    await requestLink(client, "email", "other@example.com");
    const other = sender.lastLink("other@example.com");
    for (const wrong of wrongCodes(other.searchParams.get("token") ?? "", 5))
      await followLink(client, withCode(other, wrong));
    expect(
      (await followLink(client, sender.lastLink("victim@example.com"))).headers.get("location"),
    ).toBe(ORIGIN);
  });

  it("counts per app: wrong tries at one app leave another app's code for the address valid", async () => {
    // Two apps in one process, neither naming an attemptStore: each has its own default store.
    const generateVerificationToken = fourDigits;
    const first = setup({}, { provider: { generateVerificationToken } });
    const second = setup({ secret: NEW_SECRET }, { provider: { generateVerificationToken } });
    await requestLink(first.client, "email", "dee@example.com");
    await requestLink(second.client, "email", "dee@example.com");
    const link = first.sender.lastLink();
    for (const wrong of wrongCodes(link.searchParams.get("token") ?? "", 5))
      await followLink(first.client, withCode(link, wrong));
    expect((await followLink(first.client, link)).headers.get("location")).toBe(ERROR_VERIFICATION);
    const other = second.sender.lastLink();
    expect((await followLink(second.client, other)).headers.get("location")).toBe(ORIGIN);
  });

  it("counts the normalised address: case variants share one count", async () => {
    const { sender, client } = setup({}, { provider: { generateVerificationToken: fourDigits } });
    await requestLink(client, "email", "cy@example.com");
    const link = sender.lastLink();
    for (const [i, wrong] of wrongCodes(link.searchParams.get("token") ?? "", 5).entries()) {
      const url = withCode(link, wrong);
      url.searchParams.set("email", i % 2 ? "CY@Example.com" : "cy@EXAMPLE.COM");
      await followLink(client, url);
    }
    expect((await followLink(client, link)).headers.get("location")).toBe(ERROR_VERIFICATION);
  });

  it("counts guesses sent in parallel: 20 at once cannot get past the limit", async () => {
    const { sender, config } = setup({}, { provider: { generateVerificationToken: fourDigits } });
    await requestLink(new Client(config), "email", "race@example.com");
    const link = sender.lastLink();
    const guesses = [
      ...wrongCodes(link.searchParams.get("token") ?? "", 19),
      link.searchParams.get("token") ?? "",
    ];
    const responses = await Promise.all(
      guesses.map((code) => followLink(new Client(config), withCode(link, code))),
    );
    expect(responses.map((r) => r.headers.get("location"))).not.toContain(ORIGIN);
  });

  it("keeps the count in the store the app passes, shared by several instances", async () => {
    const counts = new Map<string, number>();
    const ttls: number[] = [];
    const shared = {
      increment(key: string, ttlSeconds: number) {
        ttls.push(ttlSeconds);
        const count = (counts.get(key) ?? 0) + 1;
        counts.set(key, count);
        return Promise.resolve(count);
      },
      reset(key: string) {
        counts.delete(key);
      },
    };
    const database = createMemoryStore();
    const provider = {
      generateVerificationToken: fourDigits,
      attemptStore: shared,
      maxAttempts: 3,
      maxAge: 600,
    };
    const first = setup({}, { store: database, provider });
    const second = setup({}, { store: database, provider });
    await requestLink(first.client, "email", "ada@example.com");
    const link = first.sender.lastLink();
    const [a, b, c] = wrongCodes(link.searchParams.get("token") ?? "", 3);
    await followLink(first.client, withCode(link, a ?? ""));
    await followLink(second.client, withCode(link, b ?? ""));
    await followLink(first.client, withCode(link, c ?? ""));
    expect((await followLink(second.client, link)).headers.get("location")).toBe(
      ERROR_VERIFICATION,
    );
    expect(ttls.every((ttl) => ttl === 600)).toBe(true);
    expect([...counts.keys()].some((key) => key.includes("ada@example.com"))).toBe(true);
  });

  it("refuses to sign in when the attempt store fails (fails closed, no stack trace)", async () => {
    const broken = {
      increment: () => Promise.reject(new Error("connection refused")),
      reset: () => {},
    };
    const { store, sender, client, errors } = setup({}, { provider: { attemptStore: broken } });
    await requestLink(client, "email", "ada@example.com");
    const response = await followLink(client, sender.lastLink());
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/\/auth\/error\?error=/);
    expect(await signedInEmail(client)).toBeUndefined();
    expect(store.users.size).toBe(0);
    expect(errors.map((e) => e.message).join("\n")).toMatch(/attempt store.*connection refused/);
  });

  it("the memory store forgets the oldest count rather than growing (memory exhaustion)", () => {
    const counts = createMemoryAttemptStore({ maxKeys: 3 });
    for (const key of ["a", "b", "c"]) counts.increment(key, 60);
    expect(counts.increment("a", 60)).toBe(2);
    expect(counts.increment("d", 60)).toBe(1);
    // "a" was the oldest: it is gone, "b" and "c" stay.
    expect(counts.increment("a", 60)).toBe(1);
    expect(counts.increment("c", 60)).toBe(2);
  });

  it("the memory store forgets a count after its ttl", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const counts = createMemoryAttemptStore();
    counts.increment("k", 60);
    expect(counts.increment("k", 60)).toBe(2);
    vi.setSystemTime(Date.now() + 60_001);
    expect(counts.increment("k", 60)).toBe(1);
  });

  it("refuses a maxAttempts that is not a positive integer (configuration error)", async () => {
    const { client, errors } = setup({}, { provider: { maxAttempts: 0 } });
    const response = await client.get("/auth/signin");
    expect(response.status).toBe(500);
    expect(errors.map((e) => e.message).join("\n")).toMatch(/maxAttempts/);
  });
});
