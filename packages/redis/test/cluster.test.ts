import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAdapterConformance, userFixture } from "@tessera/adapter-test";
import { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FAIL_FAST_OPTIONS, keyScheme, RedisAdapter } from "../src/index.js";
import { isPortFree, redisConformanceDb, uniqueKeyPrefix } from "./support.js";

// A real three-master Redis Cluster on loopback ports, started for this file only: a single
// Redis accepts multi-key commands across slots, a cluster refuses them with CROSSSLOT, so only
// this proves the key layout.

const MASTERS = 3;
const SLOTS = 16_384;

/** A port whose cluster bus port (+10000) is free too. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (taken.has(port)) continue;
    if ((await isPortFree(port)) && (await isPortFree(port + 10_000))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error("no free port pair for a cluster node");
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface LocalCluster {
  ports: number[];
  stop(): Promise<void>;
}

async function startCluster(): Promise<LocalCluster> {
  const dir = await mkdtemp(join(tmpdir(), "tessera-redis-cluster-"));
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < MASTERS; i++) ports.push(await freeClusterPort(taken));
  const processes: ChildProcess[] = ports.map((port) =>
    spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        `nodes-${port}.conf`,
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "no",
      ],
      { stdio: "ignore" },
    ),
  );
  const admins = ports.map((port) => {
    const admin = new Redis({ port, host: "127.0.0.1", lazyConnect: true });
    // Refused connections are expected until redis-server listens; waitUntil retries.
    admin.on("error", () => {});
    return admin;
  });
  const stop = async () => {
    for (const admin of admins) admin.disconnect();
    await Promise.all(
      processes.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGTERM");
          }),
      ),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const admin of admins) {
      await waitUntil(async () => (await admin.ping()) === "PONG", 10_000, "redis-server to start");
    }
    const perNode = Math.ceil(SLOTS / MASTERS);
    for (const [index, admin] of admins.entries()) {
      const first = index * perNode;
      const last = Math.min(SLOTS, first + perNode) - 1;
      await admin.call("CLUSTER", "ADDSLOTSRANGE", String(first), String(last));
    }
    for (const port of ports.slice(1)) {
      await admins[0]?.call("CLUSTER", "MEET", "127.0.0.1", String(port));
    }
    for (const admin of admins) {
      await waitUntil(
        async () => String(await admin.call("CLUSTER", "INFO")).includes("cluster_state:ok"),
        20_000,
        "the cluster to form",
      );
    }
    return { ports, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

let cluster: LocalCluster | undefined;
let client: Cluster | undefined;
const prefix = uniqueKeyPrefix();

function connected(): Cluster {
  if (!client) throw new Error("the cluster did not start");
  return client;
}

// File-level hooks wrap every suite below, so the cluster outlives the conformance suite.
beforeAll(async () => {
  cluster = await startCluster();
  client = new Cluster(
    cluster.ports.map((port) => ({ host: "127.0.0.1", port })),
    { redisOptions: FAIL_FAST_OPTIONS },
  );
  await client.ping();
});

afterAll(async () => {
  await client?.quit().catch(() => client?.disconnect());
  await cluster?.stop();
});

runAdapterConformance("RedisAdapter on a three-master Redis Cluster", {
  adapter: () => RedisAdapter(connected(), { prefix }),
  db: redisConformanceDb(
    // The client exists only once beforeAll ran; the proxy forwards to it then.
    new Proxy({} as Cluster, {
      get: (_, property) => {
        const target = connected();
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }),
    prefix,
  ),
  features: {
    twoFactor: true,
    organizations: true,
    organizationRoles: true,
    password: true,
    admin: true,
  },
});

describe("Redis Cluster key layout", () => {
  test("all keys of one user hash to the same slot", async () => {
    const keys = keyScheme(prefix);
    const user = userFixture();
    const slots = await Promise.all(
      [
        keys.user(user.id),
        keys.userSessions(user.id),
        keys.userAccounts(user.id),
        keys.userAuthenticators(user.id),
      ].map((key) => connected().call("CLUSTER", "KEYSLOT", key)),
    );
    expect(new Set(slots).size).toBe(1);
  });
});
