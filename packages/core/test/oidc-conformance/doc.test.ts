/**
 * docs/oidc-conformance.md is generated from modules.ts (scripts/oidc-conformance-doc.mjs), the
 * list conformance.test.ts runs: these tests fail when the document is out of date, and check
 * that each module's row shows the outcome its test asserts.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFORMANCE_MODULES, isApplicable, type Outcome } from "./modules.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const script = join(root, "scripts/oidc-conformance-doc.mjs");
const doc = join(root, "docs/oidc-conformance.md");

/** Runs the generator's check mode on `file`; resolves to its exit code and output. */
async function check(file: string) {
  try {
    const { stdout } = await run(process.execPath, [script, "--check", file], { cwd: root });
    return { code: 0, output: stdout };
  } catch (error) {
    const failure = error as { code?: number; stderr?: string };
    return { code: failure.code ?? -1, output: failure.stderr ?? "" };
  }
}

/** The table rows of the document, by module id: the cells after the id. */
async function rows(): Promise<Map<string, string[]>> {
  const byId = new Map<string, string[]>();
  for (const line of (await readFile(doc, "utf8")).split("\n")) {
    const match = /^\| `([a-z0-9-]+)` \|(.*)\|$/.exec(line);
    if (match?.[1] && match[2])
      byId.set(
        match[1],
        match[2].split(" | ").map((c) => c.trim()),
      );
  }
  return byId;
}

const RESULT: Record<Outcome, RegExp> = {
  "signed-in": /^Pass: signed in$/,
  "refused-at-callback": /^Pass: refused at the callback \(`OAuthCallbackError`\)$/,
  "refused-at-start": /^Pass: refused at the start \(`OAuthSignin`\)$/,
  refreshed: /^Pass: refreshed$/,
  "refresh-refused": /^Pass: refresh refused \(`getAccessToken` throws\)$/,
};

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "tessera-oidc-conformance-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("docs/oidc-conformance.md", () => {
  it("is what modules.ts generates (run `npm run docs:oidc-conformance` after a change)", async () => {
    expect(await check(doc)).toEqual({ code: 0, output: expect.any(String) });
  });

  it("is reported out of date when a module's row is missing", async () => {
    const current = await readFile(doc, "utf8");
    const stale = join(scratch, "stale.md");
    await writeFile(stale, current.replace(/^\| `oidcc-client-test-nonce-invalid` \|.*\n/m, ""));
    const result = await check(stale);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/out of date: run `npm run docs:oidc-conformance`/);
  });

  it("has one row per module: the outcome its test asserts, or why it does not apply", async () => {
    const table = await rows();
    expect([...table.keys()].sort()).toEqual(CONFORMANCE_MODULES.map((m) => m.id).sort());
    for (const module of CONFORMANCE_MODULES) {
      const cells = table.get(module.id) ?? [];
      if (isApplicable(module)) expect(cells.at(-1), module.id).toMatch(RESULT[module.expected]);
      else expect(cells.at(-1), module.id).toBe(module.notApplicable.replace(/\|/g, "\\|"));
    }
  });
});
