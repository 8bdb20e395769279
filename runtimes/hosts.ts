/**
 * Starts the scenario bundle on each runtime from its npm package: Bun and Deno as child
 * processes, workerd through Miniflare (with and without `nodejs_compat`), Vercel's Edge Runtime
 * through the `edge-runtime` package's VM. Each gets the scenario's environment in its own way.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { EdgeRuntime, runServer } from "edge-runtime";
import { Miniflare } from "miniflare";
import type { WorkerBundle } from "./bundle.js";
import { workspaceRoot } from "./edge-entries.js";

export type Env = Record<string, string>;

/** A runtime serving the scenario on 127.0.0.1. */
export interface RunningHost {
  url: string;
  stop(): Promise<void>;
}

/** How to start one runtime. */
export interface RuntimeHost {
  name: string;
  /** Whether `node:crypto` is there (through `process.getBuiltinModule`); WebCrypto otherwise. */
  nodeCrypto: boolean;
  start(bundle: WorkerBundle, port: number, env: Env): Promise<RunningHost>;
}

/**
 * The first of `candidates` (relative to node_modules) that exists, or an error naming them. The
 * platform package's own binary comes first: Bun's postinstall moves it over a placeholder, so
 * where install scripts did not run only the platform package has a real one.
 */
function binary(packageName: string, candidates: string[]): string {
  for (const candidate of candidates) {
    const path = join(workspaceRoot, "node_modules", candidate);
    if (existsSync(path)) return path;
  }
  throw new Error(
    `The ${packageName} binary is missing (looked for node_modules/${candidates.join(", node_modules/")}); run npm ci.`,
  );
}

/** Spawns a host and waits for its "listening on" line; its output is kept for failures. */
function spawnHost(
  command: string,
  args: string[],
  cwd: string,
  port: number,
  env: Env,
): Promise<RunningHost> {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${command} did not start within 20 s:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes("listening on")) return;
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill();
          }),
      });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code} before listening:\n${output}`));
    });
  });
}

/** A compatibility date the bundled workerd supports, after nodejs_compat's v2 (2024-09-23). */
const COMPATIBILITY_DATE = "2025-09-01";

function workerd(name: string, compatibilityFlags: string[], nodeCrypto: boolean): RuntimeHost {
  return {
    name,
    nodeCrypto,
    async start(bundle, port, env) {
      const miniflare = new Miniflare({
        modules: true,
        scriptPath: bundle.workerModule,
        modulesRoot: bundle.dir,
        compatibilityDate: COMPATIBILITY_DATE,
        compatibilityFlags,
        bindings: env,
        host: "127.0.0.1",
        port,
        // No request.cf metadata: Miniflare would fetch it from Cloudflare, beyond loopback.
        cf: false,
      });
      const url = await miniflare.ready;
      return { url: url.origin, stop: () => miniflare.dispose() };
    },
  };
}

/** Bun, running `script` from the bundle's folder. */
function bun(name: string, script: string): RuntimeHost {
  return {
    name,
    nodeCrypto: true,
    start: (bundle, port, env) =>
      spawnHost(
        binary("bun", ["@oven/bun-linux-x64/bin/bun", "bun/bin/bun.exe"]),
        [script],
        bundle.dir,
        port,
        env,
      ),
  };
}

/** Deno, running `script` from the bundle's folder with network access to 127.0.0.1 only. */
function deno(name: string, script: string): RuntimeHost {
  return {
    name,
    nodeCrypto: true,
    start: (bundle, port, env) =>
      spawnHost(
        binary("deno", ["deno/deno", "@deno/linux-x64-glibc/deno"]),
        [
          "run",
          "--quiet",
          "--no-config",
          "--no-lock",
          "--allow-net=127.0.0.1",
          "--allow-env",
          script,
        ],
        bundle.dir,
        port,
        { ...env, DENO_NO_UPDATE_CHECK: "1" },
      ),
  };
}

/** `toNodeHandler` on a `node:http` server, on the runtimes that implement one. */
export const nodeHandlerHosts: RuntimeHost[] = [
  bun("Bun, node:http", "node-host.mjs"),
  deno("Deno, node:http", "node-host.mjs"),
];

export const runtimeHosts: RuntimeHost[] = [
  bun("Bun", "bun-host.mjs"),
  deno("Deno", "deno-host.mjs"),
  workerd("workerd", [], false),
  workerd("workerd with nodejs_compat", ["nodejs_compat"], true),
  {
    name: "Edge Runtime",
    nodeCrypto: false,
    async start(bundle, port, env) {
      // Vercel's Edge Runtime (and Next.js middleware on it) exposes the deployment's variables
      // as process.env, and nothing else of `process`.
      const runtime = new EdgeRuntime({
        initialCode: bundle.edgeScript,
        extend: (context) => Object.assign(context, { process: { env } }),
      });
      const server = await runServer({ runtime, port, host: "127.0.0.1" });
      return { url: `http://127.0.0.1:${port}`, stop: () => server.close() };
    },
  },
];
