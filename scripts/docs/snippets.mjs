#!/usr/bin/env node
/**
 * Type-checks every TypeScript snippet of the documentation: the ```ts, ```typescript and ```tsx
 * blocks of README.md, packages/*\/README.md and docs/**\/*.md (the generated API reference
 * excepted), against the workspace packages' sources (the `tessera-source` condition), so a
 * snippet cannot drift from the API it shows.
 *
 * Each Markdown file is one small project: its blocks become modules in one folder, so a later
 * block may import an earlier one. An HTML comment right before a block (invisible on GitHub and
 * in the site) says more about it:
 *
 *   <!-- snippet: file=auth.ts -->   the block is the module auth.ts (import it as "./auth" or
 *                                    "@/auth", as a Next.js app does)
 *   <!-- snippet: skip -->           not compiled: for fragments that are not a program
 *
 * Snippets may call the stand-ins for an application's own code declared in
 * docs/.vitepress/snippet-globals.d.ts (`db`, `verifyPassword`, `checkUser`, `escapeHtml`).
 *
 *   node scripts/docs/snippets.mjs [file.md …]    exit 1 and print each error at its Markdown line
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

export const ROOT = resolve(import.meta.dirname, "../..");
const GLOBALS = join(ROOT, "docs/.vitepress/snippet-globals.d.ts");
const WORK_DIR = join(ROOT, "test-artifacts/doc-snippets");
const LANGUAGES = new Map([
  ["ts", "ts"],
  ["typescript", "ts"],
  ["tsx", "tsx"],
]);

/** The Markdown files whose snippets are checked, relative to the root. */
export function documentationFiles(root = ROOT) {
  const files = ["README.md"];
  for (const name of readdirSync(join(root, "packages")).sort()) {
    const readme = join("packages", name, "README.md");
    try {
      readFileSync(join(root, readme));
      files.push(readme);
    } catch {}
  }
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        // Generated API reference (its examples are TSDoc fragments), build output, dependencies.
        if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
        if (path === join("docs", "reference", "api")) continue;
        walk(path);
      } else if (entry.name.endsWith(".md")) files.push(path);
    }
  };
  walk("docs");
  return files;
}

/**
 * The TypeScript blocks of one Markdown text: `{ lang, code, line, file, skip }`, `line` being the
 * Markdown line (1-based) of the block's first code line.
 *
 * @example
 * extractSnippets("<!-- snippet: file=auth.ts -->\n```ts\nexport {}\n```\n")
 * // [{ lang: "ts", code: "export {}\n", line: 3, file: "auth.ts", skip: false }]
 */
export function extractSnippets(markdown) {
  const lines = markdown.split("\n");
  const snippets = [];
  let directive = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const comment = /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/.exec(line);
    if (comment) {
      directive = parseDirective(comment[1], i + 1);
      continue;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)(.*)$/.exec(line);
    if (!fence) {
      if (line.trim() !== "") directive = null;
      continue;
    }
    const [, indent, marker, info] = fence;
    const body = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trimStart().startsWith(marker)) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
      j++;
    }
    const lang = LANGUAGES.get(info.toLowerCase());
    if (lang) {
      snippets.push({
        lang,
        code: `${body.join("\n")}\n`,
        line: i + 2,
        file: directive?.file ?? null,
        skip: directive?.skip ?? false,
      });
    } else if (directive) {
      throw new Error(`line ${i + 1}: a snippet directive precedes a ${info || "plain"} block`);
    }
    directive = null;
    i = j;
  }
  return snippets;
}

function parseDirective(text, line) {
  if (text === "skip") return { skip: true, file: null };
  const file = /^file=([\w./[\]+$@-]+\.tsx?)$/.exec(text);
  if (file && !file[1].split("/").some((part) => part === ".." || part === "."))
    return { skip: false, file: file[1] };
  throw new Error(`line ${line}: unknown snippet directive "${text}" (skip, file=<name>.ts)`);
}

const BASE_OPTIONS = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  noUncheckedIndexedAccess: true,
  isolatedModules: true,
  verbatimModuleSyntax: false,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  customConditions: ["tessera-source"],
  types: ["node"],
};

/**
 * Qwik is installed under packages/qwik only (its Vite 7 must not meet the root's Vite): its pages'
 * snippets find it there, as an app finds it in its own node_modules.
 */
const QWIK = join(ROOT, "packages/qwik/node_modules/@builder.io/qwik");
const QWIK_PATHS = { "@builder.io/qwik": [QWIK], "@builder.io/qwik/*": [`${QWIK}/*`] };

/**
 * Compiles the snippets of `files` (paths relative to `root`) and returns their errors, each
 * `{ file, line, column, code, message }` at its place in the Markdown file, and how many snippets
 * were compiled. Errors inside the packages' own sources are not reported here (`npm run
 * typecheck` does that). `workDir` (emptied first) must lie inside the repository, so that the
 * snippets' imports resolve to its node_modules.
 */
export function checkSnippets(files = documentationFiles(), root = ROOT, workDir = WORK_DIR) {
  rmSync(workDir, { recursive: true, force: true });
  const problems = [];
  const sourceCache = new Map();
  let count = 0;
  for (const markdownFile of files) {
    let snippets;
    try {
      snippets = extractSnippets(readFileSync(join(root, markdownFile), "utf8"));
    } catch (error) {
      problems.push({ file: markdownFile, line: 0, column: 0, code: 0, message: error.message });
      continue;
    }
    const project = join(workDir, markdownFile.replace(/\.md$/, "").replace(/[^\w-]+/g, "_"));
    const modules = new Map();
    snippets.forEach((snippet, index) => {
      if (snippet.skip) return;
      const name = snippet.file ?? `snippet-${index + 1}.${snippet.lang}`;
      const path = join(project, name);
      if (modules.has(path)) {
        problems.push({
          file: markdownFile,
          line: snippet.line,
          column: 1,
          code: 0,
          message: `two blocks are named ${name}`,
        });
        return;
      }
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, snippet.code);
      modules.set(path, snippet);
    });
    if (modules.size === 0) continue;
    count += modules.size;
    const options = { ...BASE_OPTIONS, baseUrl: project, paths: { "@/*": ["./*"], ...QWIK_PATHS } };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile;
    // Sources outside the page's folder (packages, declaration files) are parsed once for all pages.
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      if (fileName.startsWith(project)) return getSourceFile(fileName, languageVersion, onError);
      let file = sourceCache.get(fileName);
      if (!file) {
        file = getSourceFile(fileName, languageVersion, onError, shouldCreate);
        if (file) sourceCache.set(fileName, file);
      }
      return file;
    };
    const program = ts.createProgram([...modules.keys(), GLOBALS], options, host);
    for (const [path, snippet] of modules) {
      const sourceFile = program.getSourceFile(path);
      const diagnostics = [
        ...program.getSyntacticDiagnostics(sourceFile),
        ...program.getSemanticDiagnostics(sourceFile),
      ];
      for (const diagnostic of diagnostics) {
        const { line, character } = sourceFile.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        problems.push({
          file: markdownFile,
          line: snippet.line + line,
          column: character + 1,
          code: diagnostic.code,
          message: ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
        });
      }
    }
  }
  return { problems, count };
}

/** One line per problem: `file:line:column TS1234 message`. */
export function formatProblem({ file, line, column, code, message }) {
  return `${file}:${line}:${column} ${code ? `TS${code} ` : ""}${message}`;
}

if (process.argv[1] === import.meta.filename) {
  const given = process.argv.slice(2).map((file) => relative(ROOT, resolve(file)));
  const { problems, count } = checkSnippets(given.length > 0 ? given : undefined);
  for (const problem of problems) console.error(formatProblem(problem));
  console.log(`${count} snippets compiled, ${problems.length} errors`);
  process.exit(problems.length > 0 ? 1 : 0);
}
