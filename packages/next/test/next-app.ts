/**
 * Builds and serves Next.js apps for tests the way a deployment does: `next build`, then
 * `next start` on 127.0.0.1, from a private copy under packages/next/test-artifacts (`next build`
 * rewrites tsconfig.json and next-env.d.ts, and parallel runs must not share an output folder).
 * The workspace packages are compiled to dist/ first, which Next.js consumes as an app installing
 * them from npm would.
 *
 * @example
 * ```ts
 * await buildWorkspacePackages()
 * const dir = await newAppDir("guide-")
 * // … write the app's files into dir …
 * await buildNextApp(dir)
 * const app = await startNextApp(dir, { AUTH_SECRET: secret })
 * await fetch(`${app.origin}/`)
 * await app.close()
 * ```
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { cp, mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildPackages, exec, ROOT } from "../../core/test/fixtures/build.js";
import { freePort } from "../../core/test/fixtures/ports.js";

export { ROOT };
export const NEXT_BIN = join(ROOT, "node_modules/next/dist/bin/next");

/** The environment for Next.js: vitest's NODE_ENV=test must not leak into `next build`/`start`. */
export function nextEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...extra };
  delete env.NODE_ENV;
  return env;
}

/** Compiles @tessera/core and @tessera/next to dist/ (under the shared build lock). */
export async function buildWorkspacePackages(): Promise<void> {
  await buildPackages(
    ["packages/core", "packages/next"],
    ["packages/core/dist/index.js", "packages/next/dist/index.js"],
  );
}

/** A new empty folder for an app, inside the repository so its imports reach the workspace. */
export async function newAppDir(prefix: string): Promise<string> {
  const artifacts = join(ROOT, "packages/next/test-artifacts");
  await mkdir(artifacts, { recursive: true });
  return mkdtemp(join(artifacts, prefix));
}

/**
 * Copies `examples/<example>` into `dir` (an app folder from {@link newAppDir}), without its build
 * output, with `config` merged over its own next.config.mjs and Turbopack's persistent build
 * cache off (the copy is thrown away afterwards, so that cache is only cost).
 */
export async function copyExample(
  example: string,
  dir: string,
  config: Record<string, unknown> = {},
): Promise<void> {
  await cp(join(ROOT, "examples", example), dir, {
    recursive: true,
    filter: (source) => !/[\\/](\.next|node_modules|next-env\.d\.ts|auth\.sqlite.*)$/.test(source),
  });
  await rename(join(dir, "next.config.mjs"), join(dir, "next.config.example.mjs"));
  await writeFile(
    join(dir, "next.config.mjs"),
    'import config from "./next.config.example.mjs";\n' +
      `export default { ...config, ...${JSON.stringify(config)}, experimental: { ...config.experimental, turbopackFileSystemCacheForBuild: false } };\n`,
  );
}

/** `next build` in `dir`; on failure, throws with the end of its output. */
export async function buildNextApp(dir: string, env: Record<string, string> = {}): Promise<void> {
  const { code, output } = await exec(process.execPath, [NEXT_BIN, "build"], dir, nextEnv(env));
  if (code !== 0) throw new Error(`next build failed (${code}):\n${output.slice(-4000)}`);
}

/** A built app served by `next start`. */
export interface RunningNextApp {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What the server printed so far. */
  log(): string;
  /** Stops the server and removes the app's folder. */
  close(): Promise<void>;
}

async function waitUntilServing(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      await fetch(url, { redirect: "manual" });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`next start did not answer at ${url}`);
}

/**
 * Serves the built app in `dir` with `next start` on 127.0.0.1, on `port` or a free one.
 * `env(origin)` gives the server's environment once its origin is known (AUTH_URL usually names
 * it). Pass `port` when something must know the origin before the app starts (an OpenID Provider
 * registers the callback URL in advance).
 */
export async function startNextApp(
  dir: string,
  env: (origin: string) => Record<string, string>,
  port?: number,
): Promise<RunningNextApp> {
  port ??= await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"],
    { cwd: dir, env: nextEnv(env(origin)), stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  server.stdout?.on("data", (chunk) => {
    log += chunk;
  });
  server.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  await waitUntilServing(origin, server);
  return {
    origin,
    log: () => log,
    async close() {
      if (server.exitCode === null) {
        server.kill("SIGTERM");
        await once(server, "exit");
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
