import { randomUUID } from "node:crypto";
import {
  accountFixture,
  authenticatorFixture,
  userFixture,
  verificationTokenFixture,
} from "@tessera/adapter-test";
import { afterAll, describe, expect, test } from "vitest";
import { createRedisClient, keyScheme, RedisAdapter } from "../src/index.js";
import {
  countKeysWithPrefix,
  deleteKeysWithPrefix,
  REDIS_URL,
  uniqueKeyPrefix,
} from "./support.js";

const redis = createRedisClient(REDIS_URL);
const prefixes: string[] = [];

function freshAdapter() {
  const prefix = uniqueKeyPrefix();
  prefixes.push(prefix);
  return { prefix, keys: keyScheme(prefix), adapter: RedisAdapter(redis, { prefix }) };
}

afterAll(async () => {
  for (const prefix of prefixes) await deleteKeysWithPrefix(redis, prefix);
  await redis.quit();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("RedisAdapter expiry", () => {
  test("a session whose expires is 1.5 s ahead disappears by itself", async () => {
    const { adapter, keys } = freshAdapter();
    const user = await adapter.createUser(userFixture());
    const session = await adapter.createSession({
      sessionToken: randomUUID(),
      userId: user.id,
      expires: new Date(Date.now() + 1_500),
    });
    expect(await adapter.getSessionAndUser(session.sessionToken)).not.toBeNull();
    const ttl = await redis.pttl(keys.session(session.sessionToken));
    expect(ttl).toBeGreaterThan(1_000);
    expect(ttl).toBeLessThanOrEqual(1_500);

    await sleep(1_700);

    expect(await redis.exists(keys.session(session.sessionToken))).toBe(0);
    expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull();
    expect(await adapter.listSessionsByUserId(user.id)).toEqual([]);
    expect(await redis.zcard(keys.userSessions(user.id))).toBe(0);
  });

  test("a verification token carries the expiry of its expires field", async () => {
    const { adapter, keys } = freshAdapter();
    const token = verificationTokenFixture("ttl@example.com", {
      expires: new Date(Date.now() + 1_500),
    });
    await adapter.createVerificationToken(token);
    const ttl = await redis.pttl(keys.verificationToken(token.identifier, token.token));
    expect(ttl).toBeGreaterThan(1_000);
    expect(ttl).toBeLessThanOrEqual(1_500);
  });

  test("a session or token created already expired is never readable", async () => {
    const { adapter, keys } = freshAdapter();
    const user = await adapter.createUser(userFixture());
    const expires = new Date(Date.now() - 1_000);
    const session = await adapter.createSession({
      sessionToken: randomUUID(),
      userId: user.id,
      expires,
    });
    const token = verificationTokenFixture("late@example.com", { expires });
    await adapter.createVerificationToken(token);
    expect(await redis.exists(keys.session(session.sessionToken))).toBe(0);
    expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull();
    expect(await adapter.useVerificationToken(token)).toBeNull();
  });

  test("updateSession moves the key's expiry to the new expires", async () => {
    const { adapter, keys } = freshAdapter();
    const user = await adapter.createUser(userFixture());
    const session = await adapter.createSession({
      sessionToken: randomUUID(),
      userId: user.id,
      expires: new Date(Date.now() + 60_000),
    });
    const expires = new Date(Date.now() + 3_600_000);
    await adapter.updateSession({ sessionToken: session.sessionToken, expires });
    expect(await redis.pexpiretime(keys.session(session.sessionToken))).toBe(expires.getTime());
  });
});

describe("RedisAdapter key hygiene", () => {
  test("deleteUser leaves no key of the user behind", async () => {
    const { adapter, prefix } = freshAdapter();
    const user = await adapter.createUser(userFixture());
    await adapter.linkAccount(accountFixture(user.id));
    await adapter.linkAccount(accountFixture(user.id, { provider: "github", type: "oauth" }));
    await adapter.createAuthenticator(authenticatorFixture(user.id));
    for (let i = 0; i < 3; i++) {
      await adapter.createSession({
        sessionToken: randomUUID(),
        userId: user.id,
        expires: new Date(Date.now() + 60_000),
      });
    }
    expect(await countKeysWithPrefix(redis, prefix)).toBeGreaterThan(5);

    await adapter.deleteUser(user.id);

    expect(await countKeysWithPrefix(redis, prefix)).toBe(0);
  });

  test("unlinkAccount, deleteSession and useVerificationToken remove their index entries", async () => {
    const { adapter, keys } = freshAdapter();
    const user = await adapter.createUser(userFixture());
    const account = accountFixture(user.id);
    await adapter.linkAccount(account);
    const session = await adapter.createSession({
      sessionToken: randomUUID(),
      userId: user.id,
      expires: new Date(Date.now() + 60_000),
    });
    await adapter.unlinkAccount(account);
    await adapter.deleteSession(session.sessionToken);
    expect(await redis.scard(keys.userAccounts(user.id))).toBe(0);
    expect(await redis.zcard(keys.userSessions(user.id))).toBe(0);
  });

  test("a stale e-mail index left by an interrupted delete does not block a new user", async () => {
    const { adapter, keys } = freshAdapter();
    const first = await adapter.createUser(userFixture());
    // As if deleteUser had stopped after removing the user record but before the e-mail index.
    await redis.del(keys.user(first.id));
    expect(await redis.get(keys.email(first.email))).toBe(first.id);

    const second = await adapter.createUser(userFixture({ email: first.email }));

    expect(await adapter.getUserByEmail(first.email)).toEqual(second);
  });

  test("an e-mail index pointing at a user who moved to another address is not trusted", async () => {
    const { adapter, keys } = freshAdapter();
    const user = await adapter.createUser(userFixture());
    const oldEmail = user.email;
    await adapter.updateUser({ id: user.id, email: `new.${randomUUID()}@example.com` });
    // As if the release of the old address had failed.
    await redis.set(keys.email(oldEmail), user.id);
    expect(await adapter.getUserByEmail(oldEmail)).toBeNull();
  });

  test("concurrent updates of different fields of one user both take effect", async () => {
    const { adapter } = freshAdapter();
    const user = await adapter.createUser(userFixture());
    const emailVerified = new Date("2030-01-02T03:04:05.678Z");
    await Promise.all([
      adapter.updateUser({ id: user.id, name: "Renamed" }),
      adapter.updateUser({ id: user.id, image: "https://example.com/new.png" }),
      adapter.updateUser({ id: user.id, emailVerified }),
    ]);
    expect(await adapter.getUser(user.id)).toEqual({
      ...user,
      name: "Renamed",
      image: "https://example.com/new.png",
      emailVerified,
    });
  });

  test("two prefixes on one Redis keep their data apart", async () => {
    const first = freshAdapter();
    const second = freshAdapter();
    const user = await first.adapter.createUser(userFixture());
    expect(await second.adapter.getUser(user.id)).toBeNull();
    expect(await second.adapter.getUserByEmail(user.email)).toBeNull();
    await second.adapter.createUser(userFixture({ id: user.id, email: user.email }));
  });

  test("user-supplied values cannot forge other keys or hash tags", async () => {
    const { adapter, keys } = freshAdapter();
    const user = await adapter.createUser(userFixture({ id: "a}:{b" }));
    expect(keys.user(user.id)).not.toContain("a}");
    const account = accountFixture(user.id, { provider: "x:y", providerAccountId: "z" });
    await adapter.linkAccount(account);
    expect(
      await adapter.getAccount("y:z", "x"),
      "provider 'x', id 'y:z' must not collide with provider 'x:y', id 'z'",
    ).toBeNull();
    expect(await adapter.getUserByAccount(account)).toEqual(user);
  });

  test("a prefix with hash tag characters is refused", () => {
    expect(() => RedisAdapter(redis, { prefix: "{app}:" })).toThrow(/prefix/);
  });
});

describe("RedisAdapter user listing (admin)", () => {
  test("users stored before the listing set existed are listed, once, after a scan; their index keys are not users", async () => {
    const { adapter, keys } = freshAdapter();
    const earlier = userFixture({ id: "earlier:{1}" });
    // Written as an earlier release stored a user: the record only, no listing entry.
    await redis.set(keys.user(earlier.id), JSON.stringify(earlier));
    const current = await adapter.createUser(userFixture());
    await adapter.createSession({
      sessionToken: randomUUID(),
      userId: current.id,
      expires: new Date(Date.now() + 60_000),
    });
    const listed = await adapter.listUsers({ limit: 10, offset: 0 });
    expect(listed.users.map((user) => user.id).sort()).toEqual([current.id, earlier.id].sort());
    expect(listed.total).toBe(2);
    await adapter.deleteUser(earlier.id);
    expect((await adapter.listUsers({ limit: 10, offset: 0 })).total).toBe(1);
  });
});
