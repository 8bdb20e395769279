#!/usr/bin/env node
/**
 * `npm start`: builds what the demo runs on (the packages and the demo, incrementally with
 * `tsc -b`), makes sure there is an AUTH_SECRET — generating one into .env on the first run —
 * and starts the demo on http://localhost:3000.
 *
 * Stopping: Ctrl+C, or SIGINT/SIGTERM/SIGHUP sent to `npm start` or to this script, stops the build
 * or the demo and frees its ports. npm runs this script through `sh -c` and forwards a signal it
 * receives to that shell only; the `start` script `exec`s node so that the shell is replaced and
 * the signal arrives here (dash would ignore SIGINT while waiting, and die of SIGTERM without
 * passing it on). Where a shell stays in between all the same, the script also stops when its
 * parent process goes away.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { generateSecret, hasEnvSecret, writeEnvSecret } from "../packages/core/bin/secret.mjs";

const root = resolve(import.meta.dirname, "..");
// .env and .data/ belong to the repository root, wherever the script was started from.
process.chdir(root);

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

// An orphan keeps the demo's ports: when the parent (npm's shell) is gone, stop as if signalled.
const parent = process.ppid;
const parentWatch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(parentWatch);
  process.kill(process.pid, "SIGTERM");
}, 250).unref();

/** Runs `tsc -b apps/demo`; a stop signal is passed to tsc and ends this script with it. */
function buildDemo() {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const child = spawn(process.execPath, [tsc, "-b", "apps/demo"], { stdio: "inherit" });
  let stoppedBy;
  const forward = (signal) => {
    stoppedBy = signal;
    child.kill(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, forward);
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      for (const signal of STOP_SIGNALS) process.off(signal, forward);
      if (stoppedBy) process.exit(128 + SIGNAL_NUMBERS[stoppedBy]);
      resolve(code);
    });
  });
}

const started = Date.now();
process.stdout.write(
  "Building @tessera/core, @tessera/sql, @tessera/express and the demo (tsc -b)…\n",
);
const buildStatus = await buildDemo();
// tsc exits with 2 when it reported type errors but still wrote every output: the demo can run.
const OUTPUTS_GENERATED = 2;
if (buildStatus === OUTPUTS_GENERATED) {
  process.stderr.write("\nThe build reported type errors (above); starting the demo anyway.\n");
} else if (buildStatus !== 0) {
  process.stderr.write("\nThe build failed (errors above), so the demo cannot start.\n");
  process.exit(buildStatus ?? 1);
}
process.stdout.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);

const envFile = ".env";
let secretSource;
if (process.env.AUTH_SECRET) secretSource = "from the environment (AUTH_SECRET)";
else if (hasEnvSecret(envFile)) secretSource = `from ${envFile} (AUTH_SECRET)`;
else {
  writeEnvSecret(envFile, generateSecret());
  secretSource = `generated into ${envFile} (AUTH_SECRET) — no setup needed`;
}
// Variables already set in the environment win over the file.
if (existsSync(envFile)) process.loadEnvFile(envFile);

const { runDemoCli } = await import(pathToFileURL(join(root, "apps/demo/dist/cli.js")).href);
await runDemoCli({ secretSource });
