/**
 * Every TypeScript snippet of the README files and of the documentation site compiles against the
 * workspace packages (scripts/docs/snippets.mjs), so a snippet cannot name an export that does not
 * exist or pass an option of the wrong type.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkSnippets,
  documentationFiles,
  extractSnippets,
  formatProblem,
  ROOT,
} from "../../scripts/docs/snippets.mjs";

// Folders of this run only, so that parallel runs never share one.
const RUN_DIR = join(ROOT, `test-artifacts/doc-snippets-${process.pid}-${Date.now()}`);
const FIXTURES = join(RUN_DIR, "fixtures");

describe("documentation snippets", () => {
  afterAll(() => rmSync(RUN_DIR, { recursive: true, force: true }));

  it("covers the READMEs and every page of the site", () => {
    const files = documentationFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        "README.md",
        "packages/next/README.md",
        "packages/sql/README.md",
        "docs/migrating-from-authjs.md",
        "docs/getting-started/nextjs.md",
      ]),
    );
    expect(files.some((file) => file.startsWith("docs/reference/api/"))).toBe(false);
  });

  it("every TypeScript snippet compiles", () => {
    const { problems, count } = checkSnippets(undefined, undefined, join(RUN_DIR, "all"));
    expect(problems.map(formatProblem)).toEqual([]);
    expect(count).toBeGreaterThan(50);
  }, 120_000);

  it("reads ts, typescript and tsx blocks with their directives, and nothing else", () => {
    const markdown = [
      "# Page",
      "```ts",
      "export const a = 1;",
      "```",
      "<!-- snippet: file=auth.ts -->",
      "",
      "```typescript{2}",
      "export const b = 2;",
      "```",
      "<!-- snippet: skip -->",
      "```tsx",
      "<div />",
      "```",
      "```sh",
      "npm test",
      "```",
    ].join("\n");
    expect(extractSnippets(markdown)).toEqual([
      { lang: "ts", code: "export const a = 1;\n", line: 3, file: null, skip: false },
      { lang: "ts", code: "export const b = 2;\n", line: 8, file: "auth.ts", skip: false },
      { lang: "tsx", code: "<div />\n", line: 12, file: null, skip: true },
    ]);
  });

  it("refuses an unknown directive rather than silently compiling the block", () => {
    expect(() => extractSnippets("<!-- snippet: skipp -->\n```ts\nx\n```\n")).toThrow(/skipp/);
    expect(() => extractSnippets("<!-- snippet: file=../x.ts -->\n```ts\nx\n```\n")).toThrow();
  });

  it("reports a wrong snippet at its line in the Markdown file, and imports between blocks work", () => {
    mkdirSync(FIXTURES, { recursive: true });
    writeFileSync(
      join(FIXTURES, "page.md"),
      [
        "# Page", // 1
        "<!-- snippet: file=auth.ts -->", // 2
        "```ts", // 3
        'import Credentials from "@tessera/core/providers/credentials";', // 4
        "export const providers = [Credentials({ authorize: () => null })];", // 5
        "```", // 6
        "```ts", // 7
        'import type { AuthConfig } from "@tessera/core";', // 8
        'import { providers } from "@/auth";', // 9
        "export const config: AuthConfig = { providers, sesion: {} };", // 10
        "```", // 11
      ].join("\n"),
    );
    const { problems, count } = checkSnippets(
      ["page.md"],
      FIXTURES,
      join(RUN_DIR, "fixture-projects"),
    );
    expect(count).toBe(2);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: "page.md", line: 10, column: 48 });
    expect(problems[0]?.message).toMatch(/sesion/);
  }, 60_000);
});
