/**
 * The rate limit holds across processes: several Node processes (separate app instances, each
 * with its own connection) hit one Redis key at once, and exactly `max` attempts are allowed in
 * total. The child script is bundled with esbuild so the children run the package's own source.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisClient, redisStore } from "../src/index.js";
import { deleteKeysWithPrefix, REDIS_URL, uniqueKeyPrefix } from "./support.js";

const prefix = uniqueKeyPrefix();
const redis = createRedisClient(REDIS_URL);
let dir: string;
let script: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tessera-store-"));
  script = join(dir, "store-process.mjs");
  await build({
    entryPoints: [join(import.meta.dirname, "fixtures/store-process.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: script,
    logLevel: "silent",
    // ioredis is CommonJS: give the bundle a `require` for its Node built-ins.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
});
afterAll(async () => {
  await deleteKeysWithPrefix(redis, prefix);
  await redis.quit();
  await rm(dir, { recursive: true, force: true });
});

function runInstance(key: string, attempts: number, max: number, startAt: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [script, REDIS_URL, prefix, key, String(attempts), String(max)],
      { env: { ...process.env, START_AT: String(startAt) }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve(Number(out.trim()))
        : reject(new Error(`instance exited ${code}: ${err}`)),
    );
  });
}

describe("redisStore across processes", () => {
  it("four processes sending 30 parallel attempts each at one key are allowed exactly max in total", async () => {
    const key = "shared-login";
    const startAt = Date.now() + 1_500;
    const allowed = await Promise.all(
      Array.from({ length: 4 }, () => runInstance(key, 30, 25, startAt)),
    );
    expect(allowed.reduce((sum, n) => sum + n, 0)).toBe(25);
    // And the count is the one the store keeps: the next attempt from here is refused.
    const store = redisStore(redis, { prefix });
    expect((await store.consume(key, 60, 25)).allowed).toBe(false);
    await store.resetLimit(key);
    expect((await store.consume(key, 60, 25)).allowed).toBe(true);
  });
});
