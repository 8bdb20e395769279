/**
 * The layering rule of scripts/check-cycles.mjs (run by `npm test`): a package's `lib/` never
 * imports its public entry points or `providers/`, and the foundations (`errors.ts`, `types.ts`,
 * `adapters.ts`) import nothing but types. Each rule is shown failing on a small package written
 * to a temporary folder, and the repository's own sources pass.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exec, ROOT } from "./fixtures/build.js";

const CHECK = join(ROOT, "scripts/check-cycles.mjs");

const MANIFEST = {
  name: "layered",
  type: "module",
  exports: {
    ".": { "tessera-source": "./src/index.ts" },
    "./jwt": { "tessera-source": "./src/jwt.ts" },
    "./types": { "tessera-source": "./src/types.ts" },
    "./providers/*": { "tessera-source": "./src/providers/*.ts" },
  },
};

/** The files of a package that follows the rule; each test changes one of them. */
const LAYERED: Record<string, string> = {
  "src/index.ts": 'export { handle } from "./lib/handle.js";\n',
  "src/jwt.ts": 'import { seal } from "./lib/seal.js";\nexport const encode = seal;\n',
  "src/types.ts":
    'import type { Sealed } from "./lib/seal.js";\nexport type Config = { sealed?: Sealed };\n',
  "src/errors.ts": "export class AuthError extends Error {}\n",
  "src/providers/acme.ts":
    'import type { Config } from "../types.js";\nexport const acme = (c: Config) => c;\n',
  "src/lib/seal.ts":
    "export type Sealed = string;\nexport const seal = (v: string): Sealed => v;\n",
  "src/lib/handle.ts":
    'import { AuthError } from "../errors.js";\nimport type { Config } from "../types.js";\nimport { seal } from "./seal.js";\nexport const handle = (c: Config) => c.sealed ?? seal(String(new AuthError()));\n',
};

let base: string;
let count = 0;

/** Writes the package with `changes` applied and runs the check on its sources. */
async function check(
  changes: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const dir = join(base, `package-${count++}`);
  const files = { ...LAYERED, ...changes, "package.json": JSON.stringify(MANIFEST) };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return exec(process.execPath, [CHECK, join(dir, "src")], ROOT);
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "tessera-layering-"));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("imports point one way: lib/ builds the public entry points", () => {
  it("passes a package whose lib/ imports only lib/ and the foundations", async () => {
    const { code, output } = await check({});
    expect(output).toContain("No import points from lib/ to a public entry point.");
    expect(code).toBe(0);
  });

  it("fails when lib/ imports a public entry point", async () => {
    const { code, output } = await check({
      "src/lib/handle.ts": 'import { encode } from "../jwt.js";\nexport const handle = encode;\n',
    });
    expect(output).toMatch(/src\/lib\/handle\.ts imports the public .*src\/jwt\.ts/);
    expect(code).toBe(1);
  });

  it("fails when lib/ imports a provider file, even for types only", async () => {
    const { code, output } = await check({
      "src/lib/handle.ts":
        'import type { acme } from "../providers/acme.js";\nexport const handle = (p: typeof acme) => p;\n',
    });
    expect(output).toMatch(/src\/lib\/handle\.ts imports the public .*src\/providers\/acme\.ts/);
    expect(code).toBe(1);
  });

  it("fails when a foundation imports behaviour from lib/", async () => {
    const { code, output } = await check({
      "src/types.ts":
        'import { seal } from "./lib/seal.js";\nexport type Config = { sealed?: ReturnType<typeof seal> };\n',
    });
    expect(output).toMatch(
      /the foundation .*src\/types\.ts imports more than types from .*seal\.ts/,
    );
    expect(code).toBe(1);
  });

  it("passes the repository's own sources", async () => {
    const { code, output } = await exec(process.execPath, [CHECK], ROOT);
    expect(output).toContain("No import points from lib/ to a public entry point.");
    expect(code).toBe(0);
  });
});
