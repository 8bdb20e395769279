#!/usr/bin/env node
/**
 * `npm start`: builds what the demo runs on (the packages and the demo, incrementally with
 * `tsc -b`), makes sure there is an AUTH_SECRET — generating one into .env on the first run —
 * and starts the demo on http://localhost:3000.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { generateSecret, hasEnvSecret, writeEnvSecret } from "../packages/core/bin/secret.mjs";

const root = resolve(import.meta.dirname, "..");
// .env and .data/ belong to the repository root, wherever the script was started from.
process.chdir(root);

const started = Date.now();
process.stdout.write(
  "Building @tessera/core, @tessera/sql, @tessera/express and the demo (tsc -b)…\n",
);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const build = spawnSync(process.execPath, [tsc, "-b", "apps/demo"], { stdio: "inherit" });
// tsc exits with 2 when it reported type errors but still wrote every output: the demo can run.
const OUTPUTS_GENERATED = 2;
if (build.status === OUTPUTS_GENERATED) {
  process.stderr.write("\nThe build reported type errors (above); starting the demo anyway.\n");
} else if (build.status !== 0) {
  process.stderr.write("\nThe build failed (errors above), so the demo cannot start.\n");
  process.exit(build.status ?? 1);
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
