/**
 * docs/providers.md is generated from the provider definitions (scripts/providers-doc.mjs): these
 * tests fail when it is out of date, and check that the generator notices a stale catalogue.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const script = join(root, "scripts/providers-doc.mjs");
const catalogue = join(root, "docs/providers.md");

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

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "tessera-catalogue-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("docs/providers.md", () => {
  it("is what the provider definitions generate (run `npm run docs:providers` after a change)", async () => {
    expect(await check(catalogue)).toEqual({ code: 0, output: expect.any(String) });
  });

  it("is reported out of date when a provider's row is missing", async () => {
    const current = await readFile(catalogue, "utf8");
    const stale = join(scratch, "stale.md");
    await writeFile(stale, current.replace(/^\| GitHub \|.*\n/m, ""));
    const result = await check(stale);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/out of date: run `npm run docs:providers`/);
  });

  it("has one row per provider module, named by its module", async () => {
    const modules = (await readdir(join(root, "packages/core/src/providers")))
      .filter((file) => file.endsWith(".ts") && file !== "index.ts")
      .map((file) => `@tessera/core/providers/${file.slice(0, -3)}`);
    const listed = [...(await readFile(catalogue, "utf8")).matchAll(/`(@tessera\/core\/[^`]+)`/g)]
      .map((match) => match[1])
      .sort();
    expect(listed).toEqual(modules.sort());
  });
});
