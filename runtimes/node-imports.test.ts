/**
 * The guard: no module reachable from an entry point that must load on Cloudflare Workers
 * (without `nodejs_compat`) or Vercel's Edge Runtime imports a `node:` module. Such an import
 * bundles and runs on Node, Bun and Deno, so nothing else would notice it; on those two runtimes
 * the app fails to build. Reach Node's modules through a lookup like lib/crypto/encoding.ts instead.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { edgeEntryPoints, nodeOnlyEntries, nodeOnlyPackages } from "./edge-entries.js";
import { findNodeImports } from "./node-imports.js";

const entries = edgeEntryPoints();
const specifiers = entries.map((entry) => entry.specifier);

describe("entry points that load without node: modules", () => {
  it("cover every non-Node package and subpath, providers one by one", () => {
    expect(specifiers).toEqual(
      expect.arrayContaining([
        "@tessera/core",
        "@tessera/core/client",
        "@tessera/core/jwt",
        "@tessera/core/errors",
        "@tessera/core/adapters",
        "@tessera/core/store",
        "@tessera/core/providers",
        "@tessera/core/providers/github",
        "@tessera/core/providers/webauthn",
        "@tessera/memory",
        "@tessera/next",
        "@tessera/next/jwt",
        "@tessera/sveltekit",
        "@tessera/sveltekit/components",
        "@tessera/sql/d1",
      ]),
    );
    expect(specifiers).not.toContain("@tessera/core/node");
    for (const name of Object.keys(nodeOnlyPackages))
      expect(specifiers.some((specifier) => specifier.startsWith(name))).toBe(false);
    expect(Object.keys(nodeOnlyEntries)).toEqual([
      "@tessera/nuxt",
      "@tessera/core/node",
      "@tessera/sql",
      "@tessera/sql/postgres",
    ]);
  });

  it("reach no node: module, statically or by a literal dynamic import", async () => {
    const found = await findNodeImports(entries);
    const report = found.map(
      (hit) => `${hit.entry}: ${hit.module} (${hit.kind}) via ${hit.chain.join(" → ")}`,
    );
    expect(report).toEqual([]);
  });
});

describe("the guard itself", () => {
  const dir = mkdtempSync(join(tmpdir(), "tessera-guard-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names the node: module and the chain of imports that reaches it", async () => {
    writeFileSync(join(dir, "entry.ts"), 'export { digest } from "./middle.js";\n');
    writeFileSync(join(dir, "middle.ts"), 'export { digest } from "./leaf.js";\n');
    writeFileSync(
      join(dir, "leaf.ts"),
      'import { createHash } from "node:crypto";\nimport { Buffer } from "buffer";\n' +
        'export const digest = (s: string) => createHash("sha256").update(Buffer.from(s)).digest("hex");\n',
    );
    const found = await findNodeImports([{ specifier: "fixture", file: join(dir, "entry.ts") }]);
    expect(found.map((hit) => hit.module).sort()).toEqual(["buffer", "node:crypto"]);
    const hit = found.find((each) => each.module === "node:crypto");
    expect(hit?.kind).toBe("import-statement");
    expect(hit?.chain.map((file) => file.split("/").pop())).toEqual([
      "entry.ts",
      "middle.ts",
      "leaf.ts",
    ]);
  });

  it("accepts the lookup lib/crypto/encoding.ts uses, which no bundler follows", async () => {
    writeFileSync(
      join(dir, "lookup.ts"),
      "const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;\n" +
        'export const nodeCrypto = proc?.getBuiltinModule?.("node:crypto");\n',
    );
    expect(await findNodeImports([{ specifier: "lookup", file: join(dir, "lookup.ts") }])).toEqual(
      [],
    );
  });
});
