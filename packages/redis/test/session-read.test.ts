/**
 * `getSessionAndUser` on a single Redis is one round trip (a script that reads the session, then
 * its user), and finds the same records the key scheme writes, whatever characters the user id
 * holds. Against the real Redis; the round trips are counted with MONITOR on a second connection.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisAdapter } from "../src/index.js";
import { deleteKeysWithPrefix, REDIS_URL, uniqueKeyPrefix } from "./support.js";

const prefix = uniqueKeyPrefix();
let redis: Redis;
beforeAll(() => {
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  await deleteKeysWithPrefix(redis, prefix);
  redis.disconnect();
});

/** Runs `work` and returns the commands Redis received from any client meanwhile under `prefix`. */
async function commandsDuring(work: () => unknown): Promise<string[]> {
  const monitor = await new Redis(REDIS_URL).monitor();
  const seen: string[] = [];
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    // Commands a script runs inside Redis show up too, from source "lua": not round trips.
    if (source === "lua") return;
    if (args.some((arg) => arg.startsWith(prefix))) seen.push(args[0]?.toLowerCase() ?? "");
  });
  try {
    await work();
    // MONITOR lines arrive after the replies: wait for the ping that follows them.
    await redis.ping();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    monitor.disconnect();
  }
  return seen;
}

describe("getSessionAndUser on a single Redis", () => {
  it.each([
    "plain-id",
    "ünïcødé ☃ id",
    "with {braces} and /slashes?&=",
    "quote's (paren) *star* ~tilde! 100%",
  ])("finds the session and its user for the user id %j", async (userId) => {
    const adapter = RedisAdapter(redis, { prefix });
    const user = await adapter.createUser({
      id: userId,
      email: `${encodeURIComponent(userId)}@example.com`,
      emailVerified: null,
    });
    const expires = new Date(Date.now() + 60_000);
    await adapter.createSession({ sessionToken: `token-${userId}`, userId: user.id, expires });
    expect(await adapter.getSessionAndUser(`token-${userId}`)).toEqual({
      session: { sessionToken: `token-${userId}`, userId, expires },
      user: { ...user, emailVerified: null },
    });
  });

  it("answers null for an unknown session and for a session whose user is gone", async () => {
    const adapter = RedisAdapter(redis, { prefix });
    expect(await adapter.getSessionAndUser("no-such-token")).toBeNull();
    const user = await adapter.createUser({
      id: "gone",
      email: "gone@example.com",
      emailVerified: null,
    });
    const expires = new Date(Date.now() + 60_000);
    await adapter.createSession({ sessionToken: "orphan", userId: user.id, expires });
    await redis.del(`${prefix}user:{gone}`);
    expect(await adapter.getSessionAndUser("orphan")).toBeNull();
  });

  it("reads in one round trip (one EVALSHA), also after Redis forgot the script", async () => {
    const adapter = RedisAdapter(redis, { prefix });
    await adapter.createUser({ id: "one-trip", email: "trip@example.com", emailVerified: null });
    const expires = new Date(Date.now() + 60_000);
    await adapter.createSession({ sessionToken: "trip", userId: "one-trip", expires });
    await adapter.getSessionAndUser("trip");
    expect(await commandsDuring(() => adapter.getSessionAndUser("trip"))).toEqual(["evalsha"]);
    await redis.script("FLUSH");
    const afterFlush = await commandsDuring(() => adapter.getSessionAndUser("trip"));
    expect(afterFlush).toEqual(["evalsha", "eval"]);
    expect(await adapter.getSessionAndUser("trip")).not.toBeNull();
  });
});
