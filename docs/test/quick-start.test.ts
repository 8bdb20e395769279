/**
 * The README's Quick start (examples/node/server.mjs, which the README prints verbatim) run as
 * printed on a real node:http server: a misconfigured server stops at start-up with the fix in the
 * message, and a started one answers, rather than exits, when `getSession` rejects.
 */

import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuthError } from "@tessera/core/errors";
import type * as NodeEntry from "@tessera/core/node";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { freePort } from "../../packages/core/test/fixtures/ports.js";
import { ROOT } from "../../scripts/docs/snippets.mjs";

const QUICK_START = join(ROOT, "examples/node/server.mjs");

/**
 * A stand-in, and the only one here: `getSession` is wrapped so that a test can make it reject.
 * A fixed config that passed the start-up check gives no real request that makes it reject (that
 * is what the check is for); a lazy config that breaks later, or a future failure, would.
 */
const sessionRead = vi.hoisted(() => ({ rejects: false }));
vi.mock("@tessera/core/node", async (importOriginal) => {
  const real = await importOriginal<typeof NodeEntry>();
  return {
    ...real,
    getSession: (...args: Parameters<typeof NodeEntry.getSession>) =>
      sessionRead.rejects
        ? Promise.reject(new AuthError("Reading the session failed (stand-in)."))
        : real.getSession(...args),
  };
});

const written: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  sessionRead.rejects = false;
});
afterAll(() => {
  for (const folder of written) rmSync(folder, { recursive: true, force: true });
});

/** Runs a fresh copy of the Quick start (inside the repository, so its imports resolve). */
async function startQuickStart(env: Record<string, string | undefined>): Promise<string> {
  const port = await freePort();
  for (const name of ["AUTH_SECRET", "AUTH_URL", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "VERCEL"])
    vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries({ ...env, PORT: String(port) }))
    vi.stubEnv(name, value);
  const folder = join(ROOT, "test-artifacts/quick-start", `${process.pid}-${written.length}`);
  mkdirSync(folder, { recursive: true });
  written.push(folder);
  writeFileSync(join(folder, "server.mjs"), readFileSync(QUICK_START, "utf8"));
  vi.spyOn(console, "log").mockImplementation(() => {});
  await import(join(folder, "server.mjs"));
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 50; tries++) {
    try {
      await fetch(`${origin}/auth/providers`);
      return origin;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error("the Quick start did not start listening");
}

const SECRET = "quick-start-test-secret-of-at-least-32-characters";

describe("the README's Quick start", () => {
  it("is printed in the README as examples/node/server.mjs has it", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(`\`\`\`js\n${readFileSync(QUICK_START, "utf8")}\`\`\``);
  });

  it("stops at start-up without AUTH_SECRET, saying how to set one", async () => {
    await expect(startQuickStart({ AUTH_URL: "http://localhost:3000" })).rejects.toMatchObject({
      name: "MissingSecret",
      message: expect.stringContaining("AUTH_SECRET"),
    });
  });

  it("stops at start-up in production without AUTH_URL, naming AUTH_URL before AUTH_TRUST_HOST", async () => {
    const started = startQuickStart({ AUTH_SECRET: SECRET, NODE_ENV: "production" });
    await expect(started).rejects.toMatchObject({ name: "UntrustedHost" });
    const { message } = (await started.catch((error: unknown) => error)) as Error;
    expect(message.indexOf("AUTH_URL")).toBeGreaterThan(-1);
    expect(message.indexOf("AUTH_URL")).toBeLessThan(message.indexOf("AUTH_TRUST_HOST"));
  });

  it("answers 500 when getSession rejects, and keeps serving", async () => {
    const origin = await startQuickStart({ AUTH_SECRET: SECRET, AUTH_URL: "http://localhost" });
    expect(await (await fetch(`${origin}/`)).text()).toContain("Not signed in");
    sessionRead.rejects = true;
    const failed = await fetch(`${origin}/`);
    expect(failed.status).toBe(500);
    expect(await failed.text()).toContain("server log");
    sessionRead.rejects = false;
    const after = await fetch(`${origin}/`);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain("Not signed in");
  });
});
