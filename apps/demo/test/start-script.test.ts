/**
 * `npm start` stops when it is told to and frees the demo's ports: SIGTERM or SIGINT sent to npm
 * alone (what a process manager, a container stop or `kill <pid>` does), and SIGINT sent to the
 * whole process group (what Ctrl+C in a terminal does). npm forwards a signal only to the shell it
 * runs the script in; that shell died of SIGTERM without passing it on, and (dash) ignored SIGINT
 * while it waited: the demo outlived npm and kept its ports. Real processes on loopback, every
 * wait bounded.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPackages } from "../../../packages/core/test/fixtures/build.js";

const root = resolve(import.meta.dirname, "../../..");
const groups: number[] = [];
const folders: string[] = [];

// Built under the lock every building test takes; `npm start`'s own `tsc -b` then writes nothing.
beforeAll(() => buildPackages(["apps/demo"], ["apps/demo/dist/cli.js"]), 180_000);

afterAll(async () => {
  for (const group of groups) if (groupAlive(group)) process.kill(-group, "SIGKILL");
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolveOpen) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolveOpen(true);
    });
    socket.once("error", () => resolveOpen(false));
  });
}

/** Runs `npm start` in a process group of its own, resolves once the demo prints its summary. */
async function npmStart(): Promise<{ npm: ChildProcess; ports: number[] }> {
  const dataDir = await mkdtemp(join(tmpdir(), "tessera-start-"));
  folders.push(dataDir);
  const npm = spawn("npm", ["start", "--silent"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      AUTH_SECRET: "start-script-test-secret-with-more-than-32-chars",
      PORT: "0",
      DEMO_IDP_PORT: "0",
      DEMO_DATA_DIR: dataDir,
      NO_COLOR: "1",
    },
  });
  if (npm.pid === undefined) throw new Error("npm did not start");
  groups.push(npm.pid);
  let output = "";
  npm.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const summary = await new Promise<string>((resolveSummary, reject) => {
    const timer = setTimeout(() => reject(new Error(`no summary in 100 s:\n${output}`)), 100_000);
    npm.stdout?.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Press Ctrl+C to stop.")) {
        clearTimeout(timer);
        resolveSummary(output);
      }
    });
    npm.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
  const demoPort = Number(/Tessera demo\s+→\s+http:\/\/localhost:(\d+)/.exec(summary)?.[1]);
  const idpPort = Number(/OIDC IdP\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(summary)?.[1]);
  return { npm, ports: [demoPort, idpPort] };
}

async function stoppedWithin(group: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!groupAlive(group)) return true;
    await sleep(100);
  }
  return false;
}

describe("npm start", () => {
  const stops = [
    { name: "SIGTERM sent to npm alone", signal: "SIGTERM", toGroup: false },
    { name: "SIGINT sent to npm alone", signal: "SIGINT", toGroup: false },
    { name: "SIGINT sent to its process group (Ctrl+C)", signal: "SIGINT", toGroup: true },
  ] as const;
  for (const { name, signal, toGroup } of stops) {
    it(`stops the demo and frees its ports on ${name}`, async () => {
      const { npm, ports } = await npmStart();
      expect(ports.every((port) => port > 0)).toBe(true);
      expect(await Promise.all(ports.map(portOpen))).toEqual([true, true]);

      if (toGroup) process.kill(-(npm.pid ?? 0), signal);
      else npm.kill(signal);

      // Every process of the group (npm, its shell, the demo) ends…
      expect(await stoppedWithin(npm.pid ?? 0, 10_000)).toBe(true);
      // …and nothing listens on the demo's ports any more.
      expect(await Promise.all(ports.map(portOpen))).toEqual([false, false]);
    }, 150_000);
  }
});
