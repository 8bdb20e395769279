/** Declarations of snippets.mjs, for the tests that import it. */
export declare const ROOT: string;

/** A TypeScript block of a Markdown file. */
export interface Snippet {
  lang: "ts" | "tsx";
  code: string;
  /** The Markdown line (1-based) of the block's first code line. */
  line: number;
  /** The module name a `<!-- snippet: file=… -->` comment gave it. */
  file: string | null;
  /** Marked `<!-- snippet: skip -->`: not compiled. */
  skip: boolean;
}

/** A compile error, at its place in a Markdown file. */
export interface SnippetProblem {
  file: string;
  line: number;
  column: number;
  code: number;
  message: string;
}

export declare function documentationFiles(root?: string): string[];
export declare function extractSnippets(markdown: string): Snippet[];
export declare function checkSnippets(
  files?: string[],
  root?: string,
  workDir?: string,
): { problems: SnippetProblem[]; count: number };
export declare function formatProblem(problem: SnippetProblem): string;
