// @ts-check
/**
 * Profiles one HTTP server target of lib/http-server.mjs under load, for the per-request cost of
 * the native Node path (`node-tessera`, `express-tessera`) and of its floors:
 *
 *   node bench/profile-http.mjs node-tessera 20000 /tmp/prof
 *   node bench/profile-summary.mjs /tmp/prof/<file>.cpuprofile 40 "" 20000
 *
 * Arguments: target id, number of requests (default 20 000, sent by autocannon over 10
 * connections), profile directory (default /tmp/prof). The server runs with `--cpu-prof` and
 * writes its profile when told to stop; the script prints the server's CPU time per request,
 * which other processes on the machine disturb far less than its wall-clock rate.
 *
 * With BENCH_CALLGRIND=1 the server runs under `valgrind --tool=callgrind` instead, and the
 * script prints the instructions the server executed per counted request (counters zeroed after
 * the warm-up): a figure other processes do not disturb at all. Use a few thousand requests.
 */
import { execFileSync, fork } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { buildTessera } from "./lib/build.mjs";
import { libraries, SESSION_COOKIE, sessionToken } from "./lib/fixtures.mjs";

const [target = "node-tessera", amountArg = "20000", dir = "/tmp/prof"] = process.argv.slice(2);
const amount = Number(amountArg);
const callgrind = process.env.BENCH_CALLGRIND === "1";
const build = await buildTessera();
try {
  const core = await import(/** @type {string} */ (build.modules.core));
  const cookie = `${SESSION_COOKIE}=${await sessionToken(libraries({ core }).tessera)}`;
  const child = fork(fileURLToPath(new URL("./lib/http-server.mjs", import.meta.url)), [target], {
    ...(callgrind
      ? {
          execPath: "valgrind",
          execArgv: [
            "--tool=callgrind",
            "--smc-check=all-non-file",
            `--callgrind-out-file=${dir}/callgrind.%p`,
            process.execPath,
          ],
        }
      : { execArgv: ["--cpu-prof", `--cpu-prof-dir=${dir}`] }),
    env: {
      ...process.env,
      BENCH_TESSERA_CORE: build.modules.core,
      BENCH_TESSERA_EXPRESS: build.modules.express ?? "",
      BENCH_REPORT_CPU: "1",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise((resolve) =>
    child.once("message", (/** @type {any} */ m) => resolve(m.port)),
  );
  const url = `http://127.0.0.1:${port}/auth/session`;
  const headers = { cookie };
  // Warm-up, then the counted requests.
  await autocannon({ url, headers, amount, connections: 10 });
  if (callgrind) execFileSync("callgrind_control", ["--zero", String(child.pid)]);
  child.send({ type: "cpu" });
  const before = await new Promise((resolve) =>
    child.once("message", (/** @type {any} */ m) => resolve(m.cpu)),
  );
  const result = await autocannon({ url, headers, amount, connections: 10 });
  child.send({ type: "cpu" });
  const after = await new Promise((resolve) =>
    child.once("message", (/** @type {any} */ m) => resolve(m.cpu)),
  );
  const cpuMicros = /** @type {number} */ (after) - /** @type {number} */ (before);
  if (callgrind) {
    execFileSync("callgrind_control", ["--dump=counted", String(child.pid)]);
    const dump = readdirSync(dir).find((f) => f.startsWith(`callgrind.${child.pid}.`));
    const totals =
      dump && /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, dump), "utf8"));
    if (totals)
      console.log(
        `${target}: ${Math.round(Number(totals[1]) / result.requests.total).toLocaleString("en-US")} instructions/request (callgrind)`,
      );
  }
  console.log(
    `${target}: ${result.requests.total} requests, ${result.non2xx} non-2xx, server CPU ${(cpuMicros / result.requests.total).toFixed(1)} µs/request`,
  );
  child.kill("SIGINT");
  await new Promise((resolve) => child.once("exit", resolve));
} finally {
  rmSync(build.dir, { recursive: true, force: true });
}
