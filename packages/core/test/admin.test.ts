/**
 * The admin extension (`@tessera/core/admin`) over HTTP and in-process, with the in-memory
 * adapter (the adapters' own behaviour is the conformance suite's): user listing, roles, bans,
 * ending sessions, two-factor reset and impersonation on JWT and database sessions, and the
 * attacks, each test named after one.
 */
import { type AuthConfig, actionRunner, assertStartupConfig } from "@tessera/core";
import {
  type AdminEvent,
  type AdminOptions,
  admin,
  adminApi,
  impersonatorOf,
} from "@tessera/core/admin";
import { AdminActionRefused, InvalidExtension } from "@tessera/core/errors";
import { decode, getToken } from "@tessera/core/jwt";
import Credentials from "@tessera/core/providers/credentials";
import { memoryStore } from "@tessera/core/store";
import { base32Decode, totp, twoFactor } from "@tessera/core/two-factor";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { build } from "esbuild";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const USERS = {
  root: { id: "root", email: "root@example.com", name: "Root", emailVerified: null },
  ada: { id: "ada", email: "ada@example.com", name: "Ada Lovelace", emailVerified: null },
  bob: { id: "bob", email: "bob@example.com", name: "Bob", emailVerified: null },
  eve: { id: "eve", email: "eve@example.com", name: "Eve", emailVerified: null },
};
type Name = keyof typeof USERS;

function setup(strategy: "jwt" | "database" = "jwt", options: AdminOptions = {}) {
  const data = createMemoryStore();
  const adapter = MemoryAdapter(data);
  for (const user of Object.values(USERS)) void adapter.createUser(user);
  void adapter.setUserRole("root", "admin");
  const storage = memoryStore();
  const revocation = memoryStore();
  const events: AdminEvent[] = [];
  const { logger, errors, warnings } = recordingLogger();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    jwt: { revocation, revocationCacheSeconds: 0 },
    logger,
    rateLimit: { storage },
    experimental: {
      extensions: [
        admin({
          onEvent: (event) => {
            events.push(event);
          },
          ...options,
        }),
      ],
    },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (credentials) => USERS[credentials.username as Name] ?? null,
      }),
    ],
  };
  return { adapter, data, config, events, errors, warnings };
}

async function signIn(client: Client, name: Name): Promise<Response> {
  const csrfToken = await client.csrfToken();
  return client.post("/auth/callback/credentials", { csrfToken, username: name, password: "pw" });
}

async function signedIn(config: AuthConfig, name: Name): Promise<Client> {
  const client = new Client(config);
  await signIn(client, name);
  expect(await client.session()).toMatchObject({ user: { email: USERS[name].email } });
  return client;
}

/** A POST with the CSRF token, as the client functions send it. */
async function post(client: Client, subPath: string, body: Record<string, string> = {}) {
  const csrfToken = await client.csrfToken();
  const response = await client.post(`/auth/admin/${subPath}`, { csrfToken, ...body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function get(client: Client, subPath: string) {
  const response = await client.get(`/auth/admin/${subPath}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The claims of the browser's JWT session cookie. */
async function sessionClaims(client: Client) {
  const token = client.jar.get("authjs.session-token");
  if (!token) return null;
  return decode({ token, secret: SECRET, salt: "authjs.session-token" });
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(["jwt", "database"] as const)("admin with %s sessions", (strategy) => {
  it("lists users a page at a time, searches by e-mail or name, creates a user and sets roles", async () => {
    const { config, events } = setup(strategy);
    const root = await signedIn(config, "root");
    const first = await get(root, "list-users?limit=2&offset=0");
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(4);
    expect((first.body.users as { id: string }[]).map((user) => user.id)).toEqual(["ada", "bob"]);
    const second = await get(root, "list-users?limit=2&offset=2");
    expect((second.body.users as { id: string }[]).map((user) => user.id)).toEqual(["eve", "root"]);
    const byName = await get(root, "list-users?search=LOVELACE");
    expect(byName.body).toMatchObject({ total: 1, users: [{ id: "ada", role: null, ban: null }] });
    const byEmail = await get(root, "list-users?search=bob%40");
    expect(byEmail.body).toMatchObject({ total: 1, users: [{ id: "bob" }] });

    const created = await post(root, "create-user", {
      email: "New@Example.com",
      name: "New",
      role: "user",
    });
    expect(created.status).toBe(200);
    expect(created.body.user).toMatchObject({ email: "new@example.com", role: "user" });
    expect((await post(root, "create-user", { email: "new@example.com" })).status).toBe(409);
    expect((await post(root, "create-user", { email: "not an address" })).status).toBe(400);

    expect((await post(root, "set-role", { userId: "ada", role: "admin" })).status).toBe(200);
    expect((await get(root, "get-user?userId=ada")).body.user).toMatchObject({ role: "admin" });
    expect((await post(root, "set-role", { userId: "ada", role: "emperor" })).body).toEqual({
      error: "UnknownRole",
    });
    expect(events.map((event) => event.type)).toEqual(["userCreated", "userRoleChanged"]);
  });

  it("impersonation: the session says so, stopping returns to the administrator's own session, and both emit events", async () => {
    const { config, events } = setup(strategy);
    const root = await signedIn(config, "root");
    const started = await post(root, "impersonate", { userId: "bob" });
    expect(started.status).toBe(200);
    const session = await root.session();
    expect(session).toMatchObject({ user: { email: "bob@example.com" }, impersonatedBy: "root" });
    expect(impersonatorOf(session as never)).toBe("root");
    if (strategy === "jwt")
      // RFC 8693 §4.1: the actor claim names the administrator.
      expect(await sessionClaims(root)).toMatchObject({ sub: "bob", act: { sub: "root" } });

    const stopped = await post(root, "stop-impersonating");
    expect(stopped.body).toEqual({ restored: true });
    const own = await root.session();
    expect(own).toMatchObject({ user: { email: "root@example.com" } });
    expect(own).not.toHaveProperty("impersonatedBy");
    expect(impersonatorOf(own as never)).toBeNull();
    // The administrator's session is theirs again: administration works.
    expect((await get(root, "list-users")).status).toBe(200);
    expect(events).toMatchObject([
      { type: "impersonationStarted", actorId: "root", userId: "bob" },
      { type: "impersonationStopped", actorId: "root", userId: "bob" },
    ]);
  });

  it("an impersonation ends by itself at its time limit, though reads past updateAge roll ordinary sessions on", async () => {
    const { config } = setup(strategy, { impersonationMaxAge: 600 });
    config.session = { strategy, updateAge: 60 };
    const root = await signedIn(config, "root");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect((await post(root, "impersonate", { userId: "bob" })).status).toBe(200);
    vi.setSystemTime(Date.now() + 300 * 1000);
    expect(await root.session()).toMatchObject({ impersonatedBy: "root" });
    vi.setSystemTime(Date.now() + 301 * 1000);
    expect(await root.session()).toBeNull();
  });

  it("a banned user's existing session stops working, and their sign-in is refused with UserBanned on the error page", async () => {
    const { config, events } = setup(strategy);
    const root = await signedIn(config, "root");
    const eve = await signedIn(config, "eve");
    const banned = await post(root, "ban", { userId: "eve", reason: "spam" });
    expect(banned.status).toBe(200);
    expect(await eve.session()).toBeNull();

    const again = new Client(config);
    const refused = await signIn(again, "eve");
    const target = new URL(refused.headers.get("location") ?? "");
    expect(target.pathname).toBe("/auth/error");
    expect(target.searchParams.get("error")).toBe("UserBanned");
    const page = await again.get(`${target.pathname}${target.search}`);
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain("Account suspended");
    // The reason is for administrators only.
    expect(html).not.toContain("spam");
    expect(await again.session()).toBeNull();

    expect((await post(root, "unban", { userId: "eve" })).status).toBe(200);
    expect(await signedIn(config, "eve")).toBeInstanceOf(Client);
    expect(events.map((event) => event.type)).toEqual(["userBanned", "userUnbanned"]);
  });

  it("ending a user's sessions signs them out everywhere", async () => {
    const { config } = setup(strategy);
    const root = await signedIn(config, "root");
    const phone = await signedIn(config, "bob");
    const laptop = await signedIn(config, "bob");
    expect((await post(root, "revoke-sessions", { userId: "bob" })).status).toBe(200);
    expect(await phone.session()).toBeNull();
    expect(await laptop.session()).toBeNull();
    expect(await root.session()).toMatchObject({ user: { email: "root@example.com" } });
  });
});

describe("admin attacks", () => {
  it("an impersonated JWT past its end is refused by getToken too (edge middleware cannot keep it alive)", async () => {
    const { config } = setup("jwt", { impersonationMaxAge: 600 });
    const root = await signedIn(config, "root");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    await post(root, "impersonate", { userId: "bob" });
    const req = new Request(ORIGIN, { headers: { cookie: root.cookieHeader() } });
    expect(await getToken({ req, secret: SECRET })).toMatchObject({ act: { sub: "root" } });
    vi.setSystemTime(Date.now() + 601 * 1000);
    expect(await getToken({ req, secret: SECRET })).toBeNull();
  });

  it("a banned user's existing JWT session stops working (revoked through jwt.revocation)", async () => {
    const { config } = setup("jwt");
    const root = await signedIn(config, "root");
    const eve = await signedIn(config, "eve");
    const stolenCopy = new Client(config);
    for (const [name, value] of eve.jar) stolenCopy.jar.set(name, value);
    await post(root, "ban", { userId: "eve" });
    expect(await eve.session()).toBeNull();
    expect(await stolenCopy.session()).toBeNull();
  });

  it("a banned user with a second factor is refused with UserBanned before any challenge, even with twoFactor() listed first", async () => {
    const { config: base } = setup("jwt");
    const root = await signedIn(base, "root");
    const config: AuthConfig = {
      ...base,
      // twoFactor() first: the ban check is a gate step and runs before its challenge anyway.
      experimental: { extensions: [twoFactor({ issuer: "Tessera tests" }), admin()] },
    };
    const eve = await signedIn(config, "eve");
    const enrolment = await post(eve, "../two-factor/enrol");
    const key = base32Decode(enrolment.body.secret as string) as Uint8Array;
    expect((await post(eve, "../two-factor/activate", { code: await totp(key) })).status).toBe(200);
    // Enrolled: an ordinary sign-in of Eve now pauses at the second factor.
    const challenged = await signIn(new Client(config), "eve");
    expect(challenged.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/verify`);

    expect((await post(root, "ban", { userId: "eve" })).status).toBe(200);
    const browser = new Client(config);
    const refused = await signIn(browser, "eve");
    const target = new URL(refused.headers.get("location") ?? "");
    expect(target.pathname).toBe("/auth/error");
    expect(target.searchParams.get("error")).toBe("UserBanned");
    // Never asked for a code: no sign-in waits for the second factor.
    expect(browser.jar.has("authjs.paused-sign-in")).toBe(false);
    expect(await browser.session()).toBeNull();
  });

  it("a user banned while their sign-in waits for the second factor gets no session when the code passes", async () => {
    const { config: base } = setup("jwt");
    const root = await signedIn(base, "root");
    const config: AuthConfig = {
      ...base,
      experimental: { extensions: [admin(), twoFactor({ issuer: "Tessera tests" })] },
    };
    const eve = await signedIn(config, "eve");
    const enrolment = await post(eve, "../two-factor/enrol");
    const key = base32Decode(enrolment.body.secret as string) as Uint8Array;
    expect((await post(eve, "../two-factor/activate", { code: await totp(key) })).status).toBe(200);
    const browser = new Client(config);
    const challenged = await signIn(browser, "eve");
    expect(challenged.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor/verify`);

    expect((await post(root, "ban", { userId: "eve" })).status).toBe(200);
    const csrfToken = await browser.csrfToken();
    const code = await totp(key, { time: Date.now() + 30_000 });
    const verified = await browser.post("/auth/two-factor/verify", { csrfToken, code });
    expect(verified.headers.get("location")).toContain("error=UserBanned");
    expect(await browser.session()).toBeNull();
  });

  it("ban expiry lets the user in again", async () => {
    const { config, adapter } = setup();
    const root = await signedIn(config, "root");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    await post(root, "ban", { userId: "eve", expiresIn: "3600" });
    const early = new Client(config);
    const refused = await signIn(early, "eve");
    expect(refused.headers.get("location")).toContain("error=UserBanned");
    vi.setSystemTime(Date.now() + 3601 * 1000);
    expect(await signedIn(config, "eve")).toBeInstanceOf(Client);
    // The expired ban was lifted on the way in.
    expect((await adapter.getAdminUser("eve"))?.ban).toBeNull();
  });

  it("impersonation without the admin role is refused", async () => {
    const { config, events } = setup();
    const eve = await signedIn(config, "eve");
    const attempt = await post(eve, "impersonate", { userId: "bob" });
    expect(attempt).toEqual({ status: 403, body: { error: "Forbidden" } });
    expect(await eve.session()).toMatchObject({ user: { email: "eve@example.com" } });
    expect(await eve.session()).not.toHaveProperty("impersonatedBy");
    expect(events).toEqual([]);
  });

  it("an impersonated session starting another impersonation is refused", async () => {
    // Even when the impersonated user is an administrator themselves.
    const { config, adapter } = setup("jwt", { impersonateAdmins: true });
    await adapter.setUserRole("ada", "admin");
    const root = await signedIn(config, "root");
    await post(root, "impersonate", { userId: "ada" });
    expect(await root.session()).toMatchObject({ impersonatedBy: "root" });
    const chained = await post(root, "impersonate", { userId: "bob" });
    expect(chained).toEqual({ status: 403, body: { error: "ImpersonationActive" } });
    // Nor does it administer as the impersonated administrator.
    expect((await post(root, "ban", { userId: "bob" })).body).toEqual({
      error: "ImpersonationActive",
    });
    expect((await adapter.getAdminUser("bob"))?.ban).toBeNull();
  });

  it("an administrator cannot impersonate another administrator unless allowed", async () => {
    const { config, adapter } = setup();
    await adapter.setUserRole("ada", "admin");
    const root = await signedIn(config, "root");
    expect((await post(root, "impersonate", { userId: "ada" })).body).toEqual({
      error: "CannotImpersonateAdmin",
    });
  });

  it("a non-admin calling each admin operation is refused, and a signed-out caller too", async () => {
    const { config, adapter } = setup();
    const eve = await signedIn(config, "eve");
    const anonymous = new Client(config);
    const operations: [string, Record<string, string>][] = [
      ["create-user", { email: "x@example.com" }],
      ["set-role", { userId: "eve", role: "admin" }],
      ["ban", { userId: "bob" }],
      ["unban", { userId: "bob" }],
      ["revoke-sessions", { userId: "bob" }],
      ["reset-two-factor", { userId: "bob" }],
      ["impersonate", { userId: "bob" }],
    ];
    for (const [operation, body] of operations) {
      expect(await post(eve, operation, body), operation).toEqual({
        status: 403,
        body: { error: "Forbidden" },
      });
      expect((await post(anonymous, operation, body)).status, operation).toBe(401);
    }
    for (const read of ["list-users", "get-user?userId=bob"]) {
      expect((await get(eve, read)).status, read).toBe(403);
      expect((await get(anonymous, read)).status, read).toBe(401);
    }
    // Raising one's own role is one of them: still a user.
    expect((await adapter.getAdminUser("eve"))?.role).toBeNull();
    expect(await adapter.getUserByEmail("x@example.com")).toBeNull();
  });

  it("a role taken away stops administration at once", async () => {
    const { config, adapter } = setup();
    await adapter.setUserRole("ada", "admin");
    const ada = await signedIn(config, "ada");
    expect((await get(ada, "list-users")).status).toBe(200);
    const root = await signedIn(config, "root");
    await post(root, "set-role", { userId: "ada", role: "user" });
    expect((await get(ada, "list-users")).status).toBe(403);
  });

  it("CSRF: every mutation without the token is refused, and none is served on GET", async () => {
    const { config, adapter } = setup();
    const root = await signedIn(config, "root");
    const mutations: [string, Record<string, string>][] = [
      ["create-user", { email: "x@example.com" }],
      ["set-role", { userId: "eve", role: "admin" }],
      ["ban", { userId: "eve" }],
      ["unban", { userId: "eve" }],
      ["revoke-sessions", { userId: "eve" }],
      ["reset-two-factor", { userId: "eve" }],
      ["impersonate", { userId: "eve" }],
      ["stop-impersonating", {}],
    ];
    for (const [operation, body] of mutations) {
      // A forged cross-site form: the browser sends the cookies, the attacker knows no token.
      const forged = await root.post(`/auth/admin/${operation}`, body);
      expect(forged.status, operation).toBe(403);
      expect(await forged.json(), operation).toEqual({ error: "MissingCSRF" });
      const query = new URLSearchParams(body);
      expect((await root.get(`/auth/admin/${operation}?${query}`)).status, operation).toBe(405);
    }
    expect(await adapter.getUserByEmail("x@example.com")).toBeNull();
    expect(await adapter.getAdminUser("eve")).toMatchObject({ role: null, ban: null });
    expect(await root.session()).not.toHaveProperty("impersonatedBy");
  });

  it("a user cannot stop an impersonation that is not one", async () => {
    const { config } = setup();
    const eve = await signedIn(config, "eve");
    expect((await post(eve, "stop-impersonating")).body).toEqual({ error: "NotImpersonating" });
    expect(await eve.session()).toMatchObject({ user: { email: "eve@example.com" } });
  });

  it("a kept administrator session planted from another impersonation is not restored", async () => {
    const { config, adapter } = setup();
    await adapter.setUserRole("ada", "admin");
    const root = await signedIn(config, "root");
    const ada = await signedIn(config, "ada");
    await post(root, "impersonate", { userId: "bob" });
    await post(ada, "impersonate", { userId: "bob" });
    // Ada's browser gets root's sealed session: stopping must not make her root.
    ada.jar.set("authjs.admin-session", root.jar.get("authjs.admin-session") ?? "");
    expect((await post(ada, "stop-impersonating")).body).toEqual({ restored: false });
    expect(await ada.session()).toBeNull();
  });
});

describe("admin server functions and configuration", () => {
  it("serve the operations in-process through any integration's runner, and refuse a non-admin", async () => {
    const { config, data } = setup();
    const root = await signedIn(config, "root");
    const eve = await signedIn(config, "eve");
    const runner = (client: Client) =>
      actionRunner(
        { url: ORIGIN, headers: new Headers({ cookie: client.cookieHeader() }) },
        config,
      );
    const api = adminApi(runner(root));
    const page = await api.listUsers({ search: "example.com", limit: 3 });
    expect(page).toMatchObject({ total: 4, limit: 3, offset: 0 });
    const created = await api.createUser({ email: "mia@example.com", role: "user" });
    expect(created).toMatchObject({ email: "mia@example.com", role: "user" });
    await api.setRole(created.id, null);
    expect((await api.getUser(created.id)).role).toBeNull();
    data.twoFactors.set("bob", {
      userId: "bob",
      secret: "sealed",
      lastUsedStep: null,
      createdAt: new Date(),
    } as never);
    await api.resetTwoFactor("bob");
    expect(data.twoFactors.has("bob")).toBe(false);
    await api.ban("bob", { reason: "chargebacks", expiresIn: 60 });
    expect((await api.getUser("bob")).ban).toMatchObject({ reason: "chargebacks" });
    await api.unban("bob");
    await api.revokeSessions("bob");
    const refusal = await adminApi(runner(eve))
      .ban("bob")
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AdminActionRefused);
    expect(refusal).toMatchObject({ reason: "Forbidden", status: 403 });
  });

  it("an adapter without the admin methods is a configuration error naming them", () => {
    const { config } = setup();
    const plain = { ...MemoryAdapter() } as Record<string, unknown>;
    delete plain.listUsers;
    expect(() => assertStartupConfig({ ...config, adapter: plain as never })).toThrow(
      InvalidExtension,
    );
    expect(() => assertStartupConfig({ ...config, adapter: plain as never })).toThrow(/listUsers/);
  });
});

describe("loading", () => {
  /** The source files a bundle of `entry` (a path under src/) takes in. */
  async function inputsOf(entry: string): Promise<string[]> {
    const { metafile } = await build({
      entryPoints: [new URL(`../src/${entry}`, import.meta.url).pathname],
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
  }

  it("an app that does not import @tessera/core/admin never loads it; admin loads no other extension, its client no server code", async () => {
    for (const entry of [
      "index.ts",
      "extensions/organizations/index.ts",
      "extensions/password/index.ts",
      "extensions/two-factor/index.ts",
    ])
      expect(
        (await inputsOf(entry)).filter((path) => path.includes("extensions/admin")),
        entry,
      ).toEqual([]);
    const own = await inputsOf("extensions/admin/index.ts");
    expect(own.some((path) => path.includes("extensions/admin/extension.ts"))).toBe(true);
    expect(
      own.filter((path) => /extensions\/(organizations|two-factor|password)\//.test(path)),
    ).toEqual([]);
    const client = await inputsOf("extensions/admin/client.ts");
    expect(
      client.filter((path) => /extensions\/admin\/(extension|api)\.ts|lib\/session\//.test(path)),
    ).toEqual([]);
  });
});
