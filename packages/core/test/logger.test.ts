/**
 * The default logger's lines as an operator reads them: a refused credentials sign-in names the
 * provider and that `authorize` returned null, never the credentials; ANSI colours appear only
 * when stderr is a terminal (a log file or collector would keep the escape codes as text). A
 * bundled child process writes to a real pipe, and to a real pseudo-terminal under `script`.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const USERNAME = "ada.lovelace@example.com";
const PASSWORD = "correct horse battery staple";
let dir: string;
let script: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tessera-log-"));
  script = join(dir, "log-lines.mjs");
  await build({
    entryPoints: [join(import.meta.dirname, "fixtures/log-lines.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["tessera-source"],
    outfile: script,
    logLevel: "silent",
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs the fixture; `terminal` runs it under `script`, whose pseudo-terminal is its stderr. */
async function logLines(options: { terminal: boolean; env?: Record<string, string> }) {
  const env = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  Object.assign(env, options.env);
  const child = options.terminal
    ? spawn("script", ["-qec", `"${process.execPath}" "${script}" x y`, "/dev/null"], { env })
    : spawn(process.execPath, [script, USERNAME, PASSWORD], {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const [code] = await once(child, "exit");
  expect(code).toBe(0);
  return output;
}

describe("default logger", () => {
  it("names the credentials provider whose authorize returned null, and not the credentials", async () => {
    const output = await logLines({ terminal: false });
    expect(output).toContain(
      '[tessera][warn][sign-in-failed] [CredentialsSignin] authorize() of the "staff-login" credentials provider returned null',
    );
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toContain(USERNAME);
  });

  it("writes no ANSI colour codes when stderr is not a terminal", async () => {
    const output = await logLines({ terminal: false });
    expect(output).toContain("[tessera][warn]");
    expect(output).not.toContain("\x1b[");
  });

  it("colours a piped log when FORCE_COLOR asks for it, and not when it is 0", async () => {
    expect(await logLines({ terminal: false, env: { FORCE_COLOR: "1" } })).toContain(
      "\x1b[33m[tessera][warn]",
    );
    const off = await logLines({ terminal: true, env: { FORCE_COLOR: "0" } });
    expect(off).toContain("[tessera][warn]");
    expect(off).not.toContain("\x1b[");
  });

  it("colours the line on a terminal, unless NO_COLOR is set", async () => {
    expect(await logLines({ terminal: true })).toContain("\x1b[33m[tessera][warn]");
    const plain = await logLines({ terminal: true, env: { NO_COLOR: "1" } });
    expect(plain).toContain("[tessera][warn]");
    expect(plain).not.toContain("\x1b[");
  });
});
