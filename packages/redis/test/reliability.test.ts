import { randomUUID } from "node:crypto";
import { silentServer, timed, userFixture } from "@tessera/adapter-test";
import type { Redis } from "ioredis";
import { afterAll, describe, expect, test } from "vitest";
import { createRedisClient, RedisAdapter } from "../src/index.js";
import { deleteKeysWithPrefix, REDIS_URL, uniqueKeyPrefix } from "./support.js";

const clients: Redis[] = [];
function client(url: string, options: Parameters<typeof createRedisClient>[1] = {}): Redis {
  const redis = createRedisClient(url, options);
  // A client that cannot connect reports each attempt; the tests look at rejected calls instead.
  redis.on("error", () => {});
  clients.push(redis);
  return redis;
}

const prefix = uniqueKeyPrefix();

afterAll(async () => {
  const cleaner = createRedisClient(REDIS_URL);
  await deleteKeysWithPrefix(cleaner, prefix);
  await cleaner.quit();
  for (const redis of clients) redis.disconnect();
});

describe("RedisAdapter when Redis goes away", () => {
  test("calls reject within seconds when nothing listens on the port", async () => {
    const adapter = RedisAdapter(client("redis://127.0.0.1:1"), { prefix });
    const { ms, error } = await timed(() => adapter.getUser(randomUUID()));
    expect(error).toBeInstanceOf(Error);
    expect(ms).toBeLessThan(3_000);
    const again = await timed(() => adapter.useVerificationToken({ identifier: "a", token: "b" }));
    expect(again.error).toBeInstanceOf(Error);
    expect(again.ms).toBeLessThan(3_000);
  });

  test("calls reject within seconds when the server accepts but never answers", async () => {
    const silent = await silentServer();
    try {
      const adapter = RedisAdapter(
        client(`redis://127.0.0.1:${silent.port}`, {
          connectTimeout: 1_000,
          commandTimeout: 2_000,
        }),
        { prefix },
      );
      const { ms, error } = await timed(() => adapter.getSessionAndUser(randomUUID()));
      expect(error).toBeInstanceOf(Error);
      expect(ms).toBeLessThan(4_000);
    } finally {
      await silent.close();
    }
  });

  test("a fresh client to the restored server works after failed attempts", async () => {
    const broken = RedisAdapter(client("redis://127.0.0.1:1"), { prefix });
    await expect(broken.getUser("x")).rejects.toThrow();

    const adapter = RedisAdapter(client(REDIS_URL), { prefix });
    const user = await adapter.createUser(userFixture());
    expect(await adapter.getUser(user.id)).toEqual(user);
  });

  test("the adapter reconnects by itself after the server closes its connection", async () => {
    const redis = client(REDIS_URL);
    const adapter = RedisAdapter(redis, { prefix });
    const user = await adapter.createUser(userFixture());
    const before = await redis.client("ID");

    const admin = client(REDIS_URL);
    expect(await admin.client("KILL", "ID", String(before))).toBe(1);

    expect(await adapter.getUser(user.id)).toEqual(user);
    expect(await redis.client("ID")).not.toBe(before);
  });
});
