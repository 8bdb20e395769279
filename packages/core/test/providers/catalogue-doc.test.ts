/**
 * docs/providers.md is generated from the provider definitions (scripts/providers-doc.mjs): these
 * tests fail when it is out of date, and check that the generator notices a stale catalogue. The
 * `@tessera/next/providers/*` re-exports are generated too (packages/next/scripts/sync-providers.mjs)
 * and must be as well.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const script = join(root, "scripts/providers-doc.mjs");
/** Provider modules that hold types, not a provider (the script skips the same ones). */
const TYPE_MODULES = new Set(["index.ts", "oauth.ts"]);
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
      .filter((file) => file.endsWith(".ts") && !TYPE_MODULES.has(file))
      .map((file) => `@tessera/core/providers/${file.slice(0, -3)}`);
    const listed = [...(await readFile(catalogue, "utf8")).matchAll(/`(@tessera\/core\/[^`]+)`/g)]
      .map((match) => match[1])
      .sort();
    expect(listed).toEqual(modules.sort());
  });
});

describe("@tessera/next/providers", () => {
  it("re-exports every provider module of the core as generated (run its sync-providers script)", async () => {
    const sync = (await import(
      pathToFileURL(join(root, "packages/next/scripts/sync-providers.mjs")).href
    )) as {
      coreProviderNames(): string[];
      reexportSource(name: string, source: string): string;
    };
    const coreDir = join(root, "packages/core/src/providers");
    const nextDir = join(root, "packages/next/src/providers");
    const names = sync.coreProviderNames();
    expect(names).toContain("42-school");
    const nextFiles = (await readdir(nextDir)).filter((file) => file.endsWith(".ts"));
    expect(nextFiles.map((file) => file.slice(0, -3)).sort()).toEqual([...names].sort());
    for (const name of names) {
      const source = await readFile(join(coreDir, `${name}.ts`), "utf8");
      const generated = await readFile(join(nextDir, `${name}.ts`), "utf8");
      expect(generated, `packages/next/src/providers/${name}.ts`).toBe(
        sync.reexportSource(name, source),
      );
    }
  });
});
