/**
 * Servers of built example apps, run as child processes by the tests that drive them: a free
 * port on 127.0.0.1, a process started and polled until it answers, its output kept for the
 * report of a failed test, and a stop that waits for the exit.
 *
 * @example
 * ```ts
 * const port = await freePort();
 * const server = await startServer(process.execPath, [".output/server/index.mjs"], {
 *   cwd: appDir,
 *   env: { ...process.env, PORT: String(port) },
 *   url: `http://127.0.0.1:${port}/`,
 * });
 * console.log(server.log());
 * await server.stop();
 * ```
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";

/** A port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Options of {@link startServer}. */
export interface ServerOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A URL the server answers once it is up (any status counts). */
  url: string;
  /** How long to wait for the first answer. Default 60 s. */
  timeoutMs?: number;
}

/** A running server process. */
export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  log(): string;
  /** Ends the process and waits for its exit. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Spawns `command args` and resolves once `options.url` answers; rejects if the process exits. */
export async function startServer(
  command: string,
  args: string[],
  options: ServerOptions,
): Promise<ServerProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const server: ServerProcess = {
    child,
    log: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    },
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${command} ${args.join(" ")} exited with ${child.exitCode}:\n${output}`);
    try {
      await fetch(options.url, { redirect: "manual" });
      return server;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  await server.stop();
  throw new Error(`${command} ${args.join(" ")} did not answer at ${options.url}:\n${output}`);
}
