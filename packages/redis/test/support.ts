import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import type { ConformanceDb } from "@tessera/adapter-test";
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "@tessera/core/adapters";
import type { Cluster, Redis } from "ioredis";
import { keyScheme } from "../src/index.js";

export const REDIS_URL = process.env.TESSERA_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether nothing listens on `port` of 127.0.0.1 (for redis-server processes a test starts). */
export async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A key prefix no other test run uses, so parallel files and reruns never collide. */
export function uniqueKeyPrefix(): string {
  return `t_${randomUUID().replaceAll("-", "").slice(0, 10)}:`;
}

/** Deletes every key under `prefix` on every master (one node, or each node of a cluster). */
export async function deleteKeysWithPrefix(redis: Redis | Cluster, prefix: string): Promise<void> {
  const nodes =
    "nodes" in redis && typeof redis.nodes === "function" ? redis.nodes("master") : [redis];
  for (const node of nodes as Redis[]) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      // One DEL per key: on a cluster, keys of one node may still sit in different slots.
      await Promise.all(keys.map((key) => node.del(key)));
    } while (cursor !== "0");
  }
}

/** Counts the keys under `prefix` on every master. */
export async function countKeysWithPrefix(redis: Redis | Cluster, prefix: string): Promise<number> {
  const nodes =
    "nodes" in redis && typeof redis.nodes === "function" ? redis.nodes("master") : [redis];
  let count = 0;
  for (const node of nodes as Redis[]) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      count += keys.length;
    } while (cursor !== "0");
  }
  return count;
}

/** Reads the adapter's keys directly, decoding the JSON here rather than through the adapter. */
export function redisConformanceDb(
  redis: Redis | Cluster,
  prefix: string,
  lifecycle: { connect?(): Promise<void>; disconnect?(): Promise<void> } = {},
): ConformanceDb {
  const keys = keyScheme(prefix);
  async function json<T>(key: string): Promise<T | null> {
    const value = await redis.get(key);
    return value === null ? null : (JSON.parse(value) as T);
  }
  return {
    connect: lifecycle.connect,
    async disconnect() {
      try {
        await deleteKeysWithPrefix(redis, prefix);
      } finally {
        await lifecycle.disconnect?.();
      }
    },
    async user(id) {
      const record = await json<
        Omit<AdapterUser, "emailVerified"> & { emailVerified: string | null }
      >(keys.user(id));
      if (!record) return null;
      return {
        ...record,
        emailVerified: record.emailVerified === null ? null : new Date(record.emailVerified),
      };
    },
    account: (key) => json<AdapterAccount>(keys.account(keys.accountId(key))),
    async session(sessionToken) {
      const record = await json<Omit<AdapterSession, "expires"> & { expires: string }>(
        keys.session(sessionToken),
      );
      return record && { ...record, expires: new Date(record.expires) };
    },
    async verificationToken({ identifier, token }) {
      const record = await json<Omit<VerificationToken, "expires"> & { expires: string }>(
        keys.verificationToken(identifier, token),
      );
      return record && { ...record, expires: new Date(record.expires) };
    },
    authenticator: (credentialID) => json<AdapterAuthenticator>(keys.authenticator(credentialID)),
  };
}
