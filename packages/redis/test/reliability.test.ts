import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentServer, timed, userFixture } from "@tessera/adapter-test";
import { Auth, type AuthConfig } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import type { Redis } from "ioredis";
import { afterAll, describe, expect, test } from "vitest";
import { createRedisClient, RedisAdapter, redisStore } from "../src/index.js";
import { deleteKeysWithPrefix, isPortFree, REDIS_URL, uniqueKeyPrefix } from "./support.js";

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

/** A redis-server of this test's own on a free loopback port, which the test stops and restarts. */
async function ownRedisServer() {
  const dir = await mkdtemp(join(tmpdir(), "tessera-redis-outage-"));
  let port = 0;
  for (let attempt = 0; attempt < 100 && port === 0; attempt++) {
    const candidate = 20_000 + Math.floor(Math.random() * 20_000);
    if (await isPortFree(candidate)) port = candidate;
  }
  if (port === 0) throw new Error("no free port for redis-server");
  let child: ChildProcess | undefined;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  const start = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { cwd: dir, stdio: "ignore" },
    );
    // Listening once a fresh connection answers PING.
    const probe = createRedisClient(`redis://127.0.0.1:${port}`, { lazyConnect: true });
    probe.on("error", () => {});
    try {
      for (let tries = 0; ; tries++) {
        if ((await probe.ping().catch(() => null)) === "PONG") return;
        if (tries > 200) throw new Error("redis-server did not start");
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      probe.disconnect();
    }
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    async remove() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe("createRedisClient through a Redis outage", () => {
  test("sign-in fails closed at once while the rate-limit store is down, and works again once it is back", async () => {
    const server = await ownRedisServer();
    await server.start();
    const redis = client(server.url);
    const config: AuthConfig = {
      secret: "outage-secret-with-at-least-32-characters!!",
      trustHost: true,
      logger: { error() {}, warn() {}, debug() {} },
      rateLimit: { storage: redisStore(redis, { prefix }) },
      providers: [
        Credentials({
          credentials: { username: {}, password: { type: "password" } },
          authorize: ({ username, password }) =>
            password === "right" ? { id: String(username) } : null,
        }),
      ],
    };
    const csrf = await Auth(new Request("http://localhost/auth/csrf"), config);
    const cookie = csrf.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    /** The `error` a sign-in lands with (null when it signed in). */
    const signIn = async () => {
      const response = await Auth(
        new Request("http://localhost/auth/callback/credentials", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
          body: new URLSearchParams({ csrfToken, username: randomUUID(), password: "right" }),
        }),
        config,
      );
      return new URL(response.headers.get("location") ?? "").searchParams.get("error");
    };
    try {
      expect(await signIn()).toBeNull();
      // Reconnection attempts at most 250 ms apart (ioredis' own back-off grows to 5 s).
      expect(redis.options.retryStrategy?.(1_000)).toBeLessThanOrEqual(250);

      await server.stop();
      // Fail closed: the attempt cannot be counted, so it is refused rather than let through.
      expect(await signIn()).toBe("Configuration");
      // Redis is down: commands are refused at once instead of waiting in the offline queue.
      expect(redis.options.enableOfflineQueue).toBe(false);
      await expect(redis.get("any")).rejects.toThrow(/enableOfflineQueue/);
      expect(await signIn()).toBe("Configuration");

      await server.start();
      let error: string | null = "Configuration";
      for (let tries = 0; tries < 200 && error === "Configuration"; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        error = await signIn();
      }
      expect(error).toBeNull();
      // Connected again: a dropped connection queues commands for the next attempt.
      expect(redis.options.enableOfflineQueue).toBe(true);
    } finally {
      await server.remove();
    }
  });

  test("before its first connection the client queues commands, so it can be used as soon as it is created", async () => {
    const redis = client(REDIS_URL);
    expect(redis.status).not.toBe("ready");
    expect(await redis.ping()).toBe("PONG");
  });
});
