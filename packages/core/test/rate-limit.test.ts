/**
 * Sign-in rate limits: credentials, e-mail sign-in and e-mail callback counted per hashed
 * identifier and per client IP, answered with 429 + Retry-After (API clients) or the sign-in page
 * with error=RateLimited (browsers), reset by a successful sign-in, and shared by several
 * instances through one Redis or SQL store.
 */
import { randomUUID } from "node:crypto";
import { Auth, type AuthConfig } from "@tessera/core";
import Credentials, { type CredentialInput } from "@tessera/core/providers/credentials";
import Email from "@tessera/core/providers/email";
import { memoryStore, type SharedStore } from "@tessera/core/store";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { createRedisClient, redisStore } from "@tessera/redis";
import { createPostgresDb, dropSchema, migrate, sqlStore } from "@tessera/sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingSender, requestLink } from "./email-helpers.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const SIGNIN_RATE_LIMITED = `${ORIGIN}/auth/signin?error=RateLimited`;

function credentialsConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          password === "right" ? { id: String(username), name: String(username) } : null,
      }),
    ],
    ...overrides,
  };
}

async function attempt(
  client: Client,
  username: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return client.post(
    "/auth/callback/credentials",
    { csrfToken: await client.csrfToken(), username, password },
    headers,
  );
}

/** Like {@link attempt}, through `Auth()` given the client IP address (as an integration does). */
async function attemptFrom(config: AuthConfig, clientIp: string, username: string) {
  const client = new Client(config);
  const csrfToken = await client.csrfToken();
  return Auth(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: client.cookieHeader(),
      },
      body: new URLSearchParams({ csrfToken, username, password: "wrong" }),
    }),
    config,
    { clientIp },
  );
}

/**
 * A user name no other test uses: without `rateLimit.storage`, every config with the same secret
 * counts in one store in this process, as the configs of one app do.
 */
const uniqueName = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

/** A Credentials provider that refuses every sign-in and counts the calls that reach authorize. */
function refusingCredentials(credentials: Record<string, CredentialInput>) {
  const counted = {
    calls: 0,
    provider: Credentials({
      credentials,
      authorize: () => {
        counted.calls++;
        return null;
      },
    }),
  };
  return counted;
}

describe("credentials sign-in rate limit (defaults: 10 per identifier per minute)", () => {
  it("refuses the 11th attempt for one user name, sending the browser to the sign-in page with Retry-After", async () => {
    const config = credentialsConfig();
    const client = new Client(config);
    const ada = uniqueName("ada");
    for (let i = 0; i < 10; i++) {
      const response = await attempt(client, ada, "wrong");
      expect(response.headers.get("location")).toContain("error=CredentialsSignin");
    }
    const limited = await attempt(client, ada, "wrong");
    expect(limited.status).toBe(302);
    expect(limited.headers.get("location")).toBe(SIGNIN_RATE_LIMITED);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Nothing about the attempt is revealed: the right password gets the same answer now.
    const right = await attempt(client, ada, "right");
    expect(right.headers.get("location")).toBe(SIGNIN_RATE_LIMITED);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    // Another identifier is not affected, whatever the case or spacing of this one.
    expect((await attempt(client, uniqueName("grace"), "right")).headers.get("location")).toBe(
      ORIGIN,
    );
    expect((await attempt(client, ` ${ada.toUpperCase()} `, "wrong")).headers.get("location")).toBe(
      SIGNIN_RATE_LIMITED,
    );
  });

  it("another app in the process (another secret) keeps its own counts in its default store", async () => {
    const first = new Client(credentialsConfig());
    const second = new Client(
      credentialsConfig({ secret: `another-app-${randomUUID()}-secret-of-32+-characters` }),
    );
    const name = uniqueName("shared");
    for (let i = 0; i < 11; i++) await attempt(first, name, "wrong");
    expect((await attempt(first, name, "right")).headers.get("location")).toBe(SIGNIN_RATE_LIMITED);
    expect((await attempt(second, name, "right")).headers.get("location")).toBe(ORIGIN);
  });

  it("a lazy config still counts wrong passwords across requests", async () => {
    // A lazy config builds a new config object for every request (NextAuth((req) => …)).
    const client = new Client(() => credentialsConfig());
    const victim = uniqueName("lazy");
    const errors: (string | null)[] = [];
    for (let i = 0; i < 11; i++) {
      const location = (await attempt(client, victim, `guess-${i}`)).headers.get("location");
      errors.push(new URL(location ?? "", ORIGIN).searchParams.get("error"));
    }
    expect(errors.slice(0, 10)).toEqual(Array(10).fill("CredentialsSignin"));
    expect(errors[10]).toBe("RateLimited");
  });

  it("two config objects of one app (an integration's variants) count in one budget", async () => {
    const routes = credentialsConfig();
    const variants = [routes, { ...routes }];
    const victim = uniqueName("variants");
    for (let i = 0; i < 10; i++)
      await attempt(new Client(variants[i % 2] as AuthConfig), victim, "wrong");
    for (const config of variants)
      expect((await attempt(new Client(config), victim, "wrong")).headers.get("location")).toBe(
        SIGNIN_RATE_LIMITED,
      );
  });

  it("apps with different secrets in one process keep separate counts", async () => {
    const first = credentialsConfig({ rateLimit: { max: 2 } });
    const second = credentialsConfig({ secret: `${SECRET}-another-app`, rateLimit: { max: 2 } });
    const name = uniqueName("two-apps");
    for (let i = 0; i < 3; i++) await attempt(new Client(first), name, "wrong");
    expect((await attempt(new Client(first), name, "wrong")).headers.get("location")).toBe(
      SIGNIN_RATE_LIMITED,
    );
    expect((await attempt(new Client(second), name, "wrong")).headers.get("location")).toContain(
      "CredentialsSignin",
    );
  });

  it("answers X-Auth-Return-Redirect clients with 429, Retry-After and the sign-in URL in JSON", async () => {
    const config = credentialsConfig({ rateLimit: { max: 2 } });
    const client = new Client(config);
    const json = { "x-auth-return-redirect": "1" };
    const ada = uniqueName("ada");
    await attempt(client, ada, "wrong", json);
    await attempt(client, ada, "wrong", json);
    const limited = await attempt(client, ada, "wrong", json);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("location")).toBeNull();
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ url: SIGNIN_RATE_LIMITED });
  });

  it("shows a clear message on the built-in sign-in page", async () => {
    const page = await new Client(credentialsConfig()).get("/auth/signin?error=RateLimited");
    expect(await page.text()).toContain("Too many sign-in attempts");
  });

  it("forgets an identifier's count after a successful sign-in", async () => {
    const config = credentialsConfig({ rateLimit: { max: 3 } });
    const client = new Client(config);
    const ada = uniqueName("ada");
    await attempt(client, ada, "wrong");
    await attempt(client, ada, "wrong");
    expect((await attempt(client, ada, "right")).headers.get("location")).toBe(ORIGIN);
    for (let i = 0; i < 3; i++)
      expect((await attempt(client, ada, "wrong")).headers.get("location")).toContain(
        "CredentialsSignin",
      );
    expect((await attempt(client, ada, "wrong")).headers.get("location")).toBe(SIGNIN_RATE_LIMITED);
  });

  it("limits one client IP across identifiers (maxPerIp), leaving other addresses alone", async () => {
    const config = credentialsConfig({ rateLimit: { max: 100, maxPerIp: 4 } });
    for (let i = 0; i < 4; i++) {
      const response = await attemptFrom(config, "203.0.113.5", uniqueName("user"));
      expect(response.headers.get("location")).toContain("CredentialsSignin");
    }
    const limited = await attemptFrom(config, "203.0.113.5", uniqueName("user"));
    expect(limited.headers.get("location")).toBe(SIGNIN_RATE_LIMITED);
    const other = await attemptFrom(config, "203.0.113.6", uniqueName("user"));
    expect(other.headers.get("location")).toContain("CredentialsSignin");
  });

  it("IPv6 addresses of one /64 share a per-IP budget", async () => {
    // One customer's link or host has a whole /64: stepping through it must not buy more guesses.
    const config = credentialsConfig({ rateLimit: { max: 100, maxPerIp: 4 } });
    const sameNetwork = [
      "2001:db8:4:6::1",
      "2001:0db8:0004:0006:0000:0000:0000:0002",
      "2001:DB8:4:6:ffff:ffff:ffff:ffff",
      "2001:db8:4:6:a:b:198.51.100.1",
    ];
    for (const address of sameNetwork)
      expect(
        (await attemptFrom(config, address, uniqueName("user"))).headers.get("location"),
      ).toContain("CredentialsSignin");
    const limited = await attemptFrom(
      config,
      "2001:db8:4:6:dead:beef:0:1%eth0",
      uniqueName("user"),
    );
    expect(limited.headers.get("location")).toBe(SIGNIN_RATE_LIMITED);
    const nextNetwork = await attemptFrom(config, "2001:db8:4:7::1", uniqueName("user"));
    expect(nextNetwork.headers.get("location")).toContain("CredentialsSignin");
  });

  it("an IPv4-mapped IPv6 address shares the budget of its IPv4 address", async () => {
    const config = credentialsConfig({ rateLimit: { max: 100, maxPerIp: 2 } });
    await attemptFrom(config, "192.0.2.77", uniqueName("user"));
    await attemptFrom(config, "::ffff:192.0.2.77", uniqueName("user"));
    const limited = await attemptFrom(config, "::FFFF:c000:24d", uniqueName("user"));
    expect(limited.headers.get("location")).toBe(SIGNIN_RATE_LIMITED);
    const neighbour = await attemptFrom(config, "192.0.2.78", uniqueName("user"));
    expect(neighbour.headers.get("location")).toContain("CredentialsSignin");
  });

  it("flush attack: a flood of failed sign-ins for fresh user names leaves a locked-out account locked", async () => {
    // The store holds 50 keys; 200 fresh names are four times that. Before, the oldest keys went
    // first, the locked account's among them, and ten more guesses were evaluated.
    const storage = memoryStore({ maxKeys: 50 });
    const config = credentialsConfig({ rateLimit: { storage } });
    const client = new Client(config);
    const victim = uniqueName("victim");
    for (let i = 0; i < 11; i++) await attempt(client, victim, "wrong");
    for (let i = 0; i < 200; i++) await attempt(client, uniqueName("flood"), "wrong");
    for (const password of ["wrong", "right"])
      expect((await attempt(client, victim, password)).headers.get("location")).toBe(
        SIGNIN_RATE_LIMITED,
      );
  });

  it("rateLimit: false turns the limits off", async () => {
    const client = new Client(credentialsConfig({ rateLimit: false }));
    const ada = uniqueName("ada");
    for (let i = 0; i < 15; i++)
      expect((await attempt(client, ada, "wrong")).headers.get("location")).toContain(
        "CredentialsSignin",
      );
  });

  it("refuses a malformed rateLimit as a configuration error naming the option", async () => {
    const { logger, errors } = recordingLogger();
    const config = credentialsConfig({ logger, rateLimit: { max: 0 } });
    const response = await new Client(config).get("/auth/session");
    expect(response.status).toBe(500);
    expect(errors.map((e) => e.message).join()).toMatch(/rateLimit: max is 0/);
  });
});

describe("the identifier a credentials form is counted under", () => {
  /** Posts `fields` (with a fresh CSRF token) and answers the error code the browser lands with. */
  async function errorOf(config: AuthConfig, fields: Record<string, string>) {
    const client = new Client(config);
    const response = await client.post("/auth/callback/credentials", {
      csrfToken: await client.csrfToken(),
      ...fields,
    });
    return new URL(response.headers.get("location") ?? "", ORIGIN).searchParams.get("error");
  }

  /** The error codes of eleven wrong passwords, each posted with `fields(i)`. */
  async function elevenGuesses(config: AuthConfig, fields: (i: number) => Record<string, string>) {
    const errors = [];
    for (let i = 0; i < 11; i++) errors.push(await errorOf(config, fields(i)));
    return errors;
  }

  const TEN_WRONG_THEN_LIMITED = [...Array(10).fill("CredentialsSignin"), "RateLimited"];

  function providerConfig(
    credentials: Record<string, { type?: string; label?: string }>,
    authorize: (fields: Record<string, unknown>) => { id: string } | null = () => null,
  ): AuthConfig {
    return credentialsConfig({ providers: [Credentials({ credentials, authorize })] });
  }

  it("an undeclared email field does not reset the per-user password limit", async () => {
    // The provider reads `username`; the attacker adds a fresh `email` to every guess.
    const config = credentialsConfig();
    const victim = uniqueName("victim");
    const errors = await elevenGuesses(config, (i) => ({
      username: victim,
      password: `guess-${i}`,
      email: `${randomUUID()}@attacker.test`,
    }));
    expect(errors).toEqual(TEN_WRONG_THEN_LIMITED);
  });

  it("an undeclared username field does not reset the per-user password limit", async () => {
    const config = providerConfig({ email: {}, password: { type: "password" } });
    const victim = `${uniqueName("victim")}@example.com`;
    const errors = await elevenGuesses(config, (i) => ({
      email: victim,
      password: `guess-${i}`,
      username: randomUUID(),
    }));
    expect(errors).toEqual(TEN_WRONG_THEN_LIMITED);
  });

  it("another declared field the attacker varies does not reset the limit: the first declared one names the account", async () => {
    const config = providerConfig({
      username: {},
      code: { label: "One-time code" },
      password: { type: "password" },
    });
    const victim = uniqueName("victim");
    const errors = await elevenGuesses(config, (i) => ({
      code: randomUUID(),
      username: victim,
      password: `guess-${i}`,
    }));
    expect(errors).toEqual(TEN_WRONG_THEN_LIMITED);
  });

  it("invisible characters, compatibility forms and case do not give one user name a new budget", async () => {
    const config = credentialsConfig();
    const victim = uniqueName("victim");
    const fullwidth = [...victim]
      .map((c) =>
        c >= "!" && c <= "~" ? String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0) : c,
      )
      .join("");
    const disguises = [
      victim,
      `${victim.slice(0, 3)}\u200b${victim.slice(3)}`, // zero-width space
      `\u2060${victim.toUpperCase()}\u00ad`, // word joiner, soft hyphen
      fullwidth, // NFKC folds fullwidth letters into ASCII
      ` ${victim}\ufeff `,
    ];
    const errors = await elevenGuesses(config, (i) => ({
      username: disguises[i % disguises.length] as string,
      password: `guess-${i}`,
    }));
    expect(errors).toEqual(TEN_WRONG_THEN_LIMITED);
  });

  it("with no fields declared, guesses that vary only the password and callbackUrl are counted together", async () => {
    // authorize may read any field; without declarations all submitted fields but the password
    // and the form's own (csrfToken, callbackUrl) name the account.
    const config = providerConfig({});
    const victim = uniqueName("victim");
    const errors = await elevenGuesses(config, (i) => ({
      login: victim,
      tenant: "acme",
      password: `guess-${i}`,
      callbackUrl: `${ORIGIN}/page-${i}`,
    }));
    expect(errors).toEqual(TEN_WRONG_THEN_LIMITED);
    // Another tenant is another account.
    expect(await errorOf(config, { login: victim, tenant: "umbrella", password: "x" })).toBe(
      "CredentialsSignin",
    );
  });
});

describe("credentials fields posted as arrays, numbers or objects", () => {
  it("a locked-out account is not reached by 25 guesses whose user name is an array, a number or an object", async () => {
    // JSON bodies may hold any shape; authorize reading String(["ada"]) sees "ada", which the
    // limiter never counted, so 25 of 25 such guesses reached authorize before.
    const reached: unknown[] = [];
    const config = credentialsConfig({
      providers: [
        Credentials({
          credentials: { username: {}, password: { type: "password" } },
          authorize: ({ username, password }) => {
            reached.push(username);
            return password === "right" ? { id: String(username) } : null;
          },
        }),
      ],
    });
    const client = new Client(config);
    const victim = uniqueName("locked");
    for (let i = 0; i < 11; i++) await attempt(client, victim, "wrong");
    expect(reached).toHaveLength(10);
    const shapes: unknown[] = [[victim], [victim, "x"], { 0: victim }, 42, true, null, [[victim]]];
    const errors = [];
    for (let i = 0; i < 25; i++) {
      const response = await client.postJson("/auth/callback/credentials", {
        csrfToken: await client.csrfToken(),
        username: shapes[i % shapes.length],
        password: i % 2 ? "right" : `guess-${i}`,
      });
      errors.push(
        new URL(response.headers.get("location") ?? "", ORIGIN).searchParams.get("error"),
      );
    }
    expect(reached).toHaveLength(10);
    expect(errors).toEqual(Array(25).fill("CredentialsSignin"));
    expect(client.jar.has("authjs.session-token")).toBe(false);
    // The account is still locked for its own name.
    expect((await attempt(client, victim, "right")).headers.get("location")).toBe(
      SIGNIN_RATE_LIMITED,
    );
  });

  it("a password posted as an array is refused before authorize, with the field named in the log", async () => {
    const { logger, errors } = recordingLogger();
    const refusing = refusingCredentials({ username: {}, password: { type: "password" } });
    const config = credentialsConfig({ logger, providers: [refusing.provider] });
    const client = new Client(config);
    const response = await client.postJson("/auth/callback/credentials", {
      csrfToken: await client.csrfToken(),
      username: uniqueName("ada"),
      password: ["right"],
    });
    expect(response.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(refusing.calls).toBe(0);
    expect(errors.map((e) => e.message).join()).toMatch(/"password" was posted as an array/);
  });

  it("with no fields declared, any submitted field that is not a string is refused", async () => {
    const refusing = refusingCredentials({});
    const config = credentialsConfig({ providers: [refusing.provider] });
    const client = new Client(config);
    const response = await client.postJson("/auth/callback/credentials", {
      csrfToken: await client.csrfToken(),
      login: uniqueName("ada"),
      tenant: { $ne: "" },
      password: "x",
    });
    expect(response.headers.get("location")).toContain("error=CredentialsSignin");
    expect(refusing.calls).toBe(0);
    // The same fields as strings reach authorize.
    await client.postJson("/auth/callback/credentials", {
      csrfToken: await client.csrfToken(),
      login: uniqueName("ada"),
      tenant: "acme",
      password: "x",
    });
    expect(refusing.calls).toBe(1);
  });
});

describe("e-mail rate limits", () => {
  function emailConfig(rateLimit: AuthConfig["rateLimit"]) {
    const sender = recordingSender();
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(createMemoryStore()),
      logger: recordingLogger().logger,
      providers: [Email({ sendVerificationRequest: sender.sendVerificationRequest })],
      rateLimit,
    };
    return { sender, config };
  }

  it("stops sending links to one address (mail bombing) and names no reason beyond the limit", async () => {
    const { sender, config } = emailConfig({ max: 3 });
    const client = new Client(config);
    const ada = `${uniqueName("ada")}@example.com`;
    for (let i = 0; i < 3; i++) await requestLink(client, "email", ada);
    const limited = await requestLink(client, "email", ada.toUpperCase());
    expect(limited.headers.get("location")).toBe(SIGNIN_RATE_LIMITED);
    expect(sender.sent).toHaveLength(3);
    await requestLink(client, "email", `${uniqueName("bo")}@example.com`);
    expect(sender.sent).toHaveLength(4);
  });

  it("limits guesses at the e-mail callback per address, and a successful sign-in resets them", async () => {
    const { sender, config } = emailConfig({ max: 2 });
    const client = new Client(config);
    await requestLink(client, "email", `${uniqueName("ada")}@example.com`);
    const link = sender.lastLink();
    const guess = new URL(link);
    guess.searchParams.set("token", "wrong");
    const first = await client.get(`${guess.pathname}${guess.search}`);
    expect(first.headers.get("location")).toContain("error=Verification");
    const second = await client.get(`${link.pathname}${link.search}`);
    expect(second.headers.get("location")).toBe(ORIGIN);
    // Reset by the success: two more tries are counted afresh before the limit answers.
    await client.get(`${guess.pathname}${guess.search}`);
    await client.get(`${guess.pathname}${guess.search}`);
    const limited = await client.get(`${guess.pathname}${guess.search}`);
    expect(limited.headers.get("location")).toBe(SIGNIN_RATE_LIMITED);
  });
});

describe("limits shared by several instances", () => {
  const redis = createRedisClient("redis://127.0.0.1:6379");
  const prefix = `rl_${randomUUID().slice(0, 8)}:`;
  const db = createPostgresDb("postgres://postgres@127.0.0.1:5432/test");
  const tablePrefix = `rl_${randomUUID().replaceAll("-", "").slice(0, 8)}_`;

  beforeAll(() => migrate(db, { dialect: "postgres", tablePrefix }));
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await dropSchema(db, { dialect: "postgres", tablePrefix });
    await db.destroy();
  });

  const stores: [string, () => SharedStore][] = [
    ["Redis", () => redisStore(redis, { prefix })],
    ["PostgreSQL", () => sqlStore(db, { dialect: "postgres", tablePrefix })],
  ];
  for (const [label, store] of stores) {
    it(`counts attempts at two app instances together through one ${label} store`, async () => {
      // Two instances: two config objects (as two processes would have), one store.
      const storage = store();
      const instances = [
        credentialsConfig({ rateLimit: { max: 4, storage } }),
        credentialsConfig({ rateLimit: { max: 4, storage } }),
      ];
      const user = `shared-${randomUUID()}`;
      for (let i = 0; i < 4; i++)
        await attempt(new Client(instances[i % 2] as AuthConfig), user, "wrong");
      for (const config of instances)
        expect((await attempt(new Client(config), user, "wrong")).headers.get("location")).toBe(
          SIGNIN_RATE_LIMITED,
        );
      // Parallel attempts at both instances: the store is atomic, none slips through.
      const other = `parallel-${randomUUID()}`;
      const parallel = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          attempt(new Client(instances[i % 2] as AuthConfig), other, "wrong"),
        ),
      );
      const allowed = parallel.filter((r) =>
        r.headers.get("location")?.includes("CredentialsSignin"),
      );
      expect(allowed).toHaveLength(4);
    });
  }
});

describe("the client IP on plain node:http", () => {
  it("toNodeHandler counts per socket address when given clientIp, and per identifier only without it", async () => {
    const { createServer } = await import("node:http");
    const { toNodeHandler } = await import("@tessera/core/node");
    const config = credentialsConfig({ rateLimit: { max: 100, maxPerIp: 2 } });
    const serve = async (handler: ReturnType<typeof toNodeHandler>) => {
      const server = createServer(handler).listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      const { port } = server.address() as { port: number };
      return { server, origin: `http://127.0.0.1:${port}` };
    };
    const attemptAt = async (origin: string, username: string) => {
      const csrf = await fetch(`${origin}/auth/csrf`);
      const cookie = csrf.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const response = await fetch(`${origin}/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ csrfToken, username, password: "wrong" }),
      });
      return new URL(response.headers.get("location") ?? "").searchParams.get("error");
    };
    const withIp = await serve(
      toNodeHandler(config, { clientIp: (req) => req.socket.remoteAddress }),
    );
    const withoutIp = await serve(
      toNodeHandler(credentialsConfig({ rateLimit: { max: 100, maxPerIp: 2 } })),
    );
    try {
      const errors = [];
      for (const name of [uniqueName("a"), uniqueName("b"), uniqueName("c")])
        errors.push(await attemptAt(withIp.origin, name));
      expect(errors).toEqual(["CredentialsSignin", "CredentialsSignin", "RateLimited"]);
      const unlimited = [];
      for (const name of [uniqueName("a"), uniqueName("b"), uniqueName("c")])
        unlimited.push(await attemptAt(withoutIp.origin, name));
      expect(unlimited).toEqual(["CredentialsSignin", "CredentialsSignin", "CredentialsSignin"]);
    } finally {
      withIp.server.close();
      withoutIp.server.close();
    }
  });
});
