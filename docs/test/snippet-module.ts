/**
 * Loads a block of a documentation page as a module, exactly as the page prints it, so that a
 * test can run what the documentation tells readers to run.
 *
 * @example
 * ```ts
 * const { hashPassword } = await importSnippet<{ hashPassword(p: string): Promise<string> }>(
 *   "docs/guides/credentials.md",
 *   "passwords.ts",
 * )
 * ```
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { extractSnippets, ROOT } from "../../scripts/docs/snippets.mjs";

/** The code of the block named `file` (`<!-- snippet: file=… -->`) on `page`. */
export function snippetCode(page: string, file: string): string {
  const snippet = extractSnippets(readFileSync(join(ROOT, page), "utf8")).find(
    (candidate) => candidate.file === file,
  );
  if (!snippet) throw new Error(`${page} has no block named ${file}`);
  return snippet.code;
}

/** Folders written by {@link importSnippet} in this process. */
const written: string[] = [];

/**
 * Writes the block named `file` of `page` under test-artifacts/ (inside the repository, so its
 * imports resolve to the workspace packages) and imports it. Each call gets its own folder.
 */
export async function importSnippet<T>(page: string, file: string): Promise<T> {
  const folder = join(
    ROOT,
    "test-artifacts/doc-snippet-modules",
    `${page.replace(/[^\w-]+/g, "_")}-${process.pid}-${Date.now()}`,
  );
  const path = join(folder, file);
  mkdirSync(dirname(path), { recursive: true });
  written.push(folder);
  writeFileSync(path, snippetCode(page, file));
  return (await import(path)) as T;
}

/** Removes what {@link importSnippet} wrote (call it after the imported modules are done). */
export function removeImportedSnippets(): void {
  for (const folder of written.splice(0)) rmSync(folder, { recursive: true, force: true });
}
