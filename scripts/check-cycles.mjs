#!/usr/bin/env node
/**
 * `npm run check:cycles`: fails when the TypeScript sources of a package import each other in a
 * cycle. A cycle makes module evaluation order depend on which file is loaded first (a value can
 * be read before it is initialised) and keeps modules from being understood one at a time.
 *
 * It also fails when imports point the wrong way in a package whose `src/lib/` holds its internals
 * (see {@link layeringViolations}): `lib/` never imports the package's public entry points (the
 * `tessera-source` files of its `exports`) or its `providers/` folder. Only the foundations
 * (`errors.ts`, `types.ts`, `adapters.ts`: error classes, configuration types and the adapter
 * contract) may be imported from `lib/`, and they may import nothing but types.
 *
 * Follows every relative `import … from`, `import type … from`, `import "…"`, `export … from`,
 * `export type … from` and `import("…")` (type-only imports and `typeof import("…")` too: they
 * tie the modules together just the same), resolving `./x.js` to `./x.ts` as TypeScript does.
 * Prints each cycle, and each import against the layering, and exits with 1.
 *
 * Usage: node scripts/check-cycles.mjs [source directory …]  (default: packages/*\/src)
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const root = resolve(import.meta.dirname, "..");

/** The source directories to check: the arguments, or every `packages/<name>/src`. */
function sourceDirectories() {
  const given = process.argv.slice(2);
  if (given.length > 0) {
    for (const dir of given) {
      if (!existsSync(dir) || !statSync(dir).isDirectory()) {
        process.stderr.write(`check-cycles: ${dir} is not a directory\n`);
        process.exit(2);
      }
    }
    return given.map((dir) => resolve(dir));
  }
  const packages = join(root, "packages");
  return readdirSync(packages)
    .map((name) => join(packages, name, "src"))
    .filter((dir) => existsSync(dir) && statSync(dir).isDirectory());
}

/** Every `.ts`/`.tsx` file under `dir`, as absolute paths. */
function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((name) => /\.tsx?$/.test(name) && !/(^|\/)node_modules\//.test(name))
    .map((name) => join(dir, name));
}

const REGEX_MAY_FOLLOW = new Set("(,=:[!&|?{};+-*%<>~^".split(""));
const KEYWORDS_BEFORE_EXPRESSION =
  /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|void|yield|await|delete|instanceof|new)$/;

/** Whether a `/` after `code` (comments already removed) starts a regular expression. */
function regexMayStart(code) {
  const before = code.trimEnd();
  if (before === "") return true;
  return REGEX_MAY_FOLLOW.has(before.at(-1)) || KEYWORDS_BEFORE_EXPRESSION.test(before);
}

/** The index just past the string or template literal that starts at `start`. */
function endOfString(source, start) {
  const quote = source[start];
  let i = start + 1;
  while (i < source.length) {
    const c = source[i];
    if (c === "\\") i += 2;
    else if (c === quote) return i + 1;
    else if (quote === "`" && c === "$" && source[i + 1] === "{") i = endOfCode(source, i + 2, "}");
    else if (quote !== "`" && c === "\n") return i;
    else i++;
  }
  return i;
}

/** The index just past the regular-expression literal that starts at `start`. */
function endOfRegex(source, start) {
  let i = start + 1;
  let inClass = false;
  while (i < source.length && source[i] !== "\n") {
    const c = source[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    i++;
    if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) {
      while (/[a-z]/i.test(source[i] ?? "")) i++;
      return i;
    }
  }
  return i;
}

/**
 * Scans code from `start` until the unmatched `closer` (or the end), skipping strings, regular
 * expressions and comments; returns the index just past it. Used for template `${…}` parts.
 */
function endOfCode(source, start, closer) {
  const { end } = scan(source, start, closer);
  return end;
}

/**
 * The code with comments blanked out (newlines kept), so that import statements shown in doc
 * comments are not followed. Strings and regular expressions are kept as they are.
 */
function scan(source, start = 0, closer = undefined) {
  let code = "";
  let depth = 0;
  let i = start;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      i = end === -1 ? source.length : end;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      code += source.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      const end = endOfString(source, i);
      code += source.slice(i, end);
      i = end;
    } else if (c === "/" && regexMayStart(code)) {
      const end = endOfRegex(source, i);
      code += source.slice(i, end);
      i = end;
    } else {
      if (closer !== undefined) {
        if (c === "{") depth++;
        else if (c === closer && depth-- === 0) return { code, end: i + 1 };
      }
      code += c;
      i++;
    }
  }
  return { code, end: i };
}

/** Relative module specifiers (group 2) of `import`/`export` statements and `import("…")`. */
const RELATIVE_SPECIFIERS = [
  /(?:^|[^\w$.])(?:import|export)\s+(?:type\s+)?(?:[^;'"`]*?[\s}*]from\s*)?(["'])(\.{1,2}\/[^"'\n]*)\1/g,
  /(?:^|[^\w$.])import\s*\(\s*(["'])(\.{1,2}\/[^"'\n]*)\1/g,
];

/**
 * Whether an import or export statement (its text from the keyword to the specifier) brings in
 * types only: `import type`, `export type`, `typeof import("…")`, or braces whose every name is
 * marked `type`.
 */
function isTypeOnly(statement) {
  if (/^(?:import|export)\s+type[\s{]/.test(statement)) return true;
  if (/^import\s*\(/.test(statement)) return false;
  const names = statement.match(/^(?:import|export)\s*\{([^}]*)\}/);
  if (!names) return false;
  const list = names[1]
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return list.length > 0 && list.every((name) => /^type\s/.test(name));
}

/**
 * Whether the `import("…")` at `start` (its specifier ending at `end`) names a type: after
 * `typeof`, or followed by `).Name` that is not a promise method.
 */
function isImportType(code, start, end) {
  if (!code.startsWith("import", start) || code[start + 6] === " ") return false;
  if (/typeof\s*$/.test(code.slice(Math.max(0, start - 12), start))) return true;
  const member = code.slice(end).match(/^\s*\)\s*\.\s*([\w$]+)/);
  return member !== null && !["then", "catch", "finally"].includes(member[1]);
}

/** The relative specifiers `file` imports or re-exports, each with whether it is types only. */
function relativeImports(file) {
  const { code } = scan(readFileSync(file, "utf8"));
  return RELATIVE_SPECIFIERS.flatMap((pattern) =>
    [...code.matchAll(pattern)].map((match) => {
      const statement = match[0].replace(/^[^a-z]*/, "");
      const start = match.index + match[0].indexOf(statement);
      const end = match.index + match[0].length;
      return {
        specifier: match[2],
        typeOnly: isTypeOnly(statement) || isImportType(code, start, end),
      };
    }),
  );
}

/** The source file a relative specifier names, the TypeScript way; undefined if none. */
function resolveSpecifier(from, specifier, known) {
  const target = resolve(dirname(from), specifier);
  const candidates = [
    target.replace(/\.js$/, ".ts"),
    target.replace(/\.js$/, ".tsx"),
    target.replace(/\.mjs$/, ".mts"),
    target,
    `${target}.ts`,
    `${target}.tsx`,
    join(target, "index.ts"),
  ];
  return candidates.find((candidate) => known.has(candidate));
}

/** Strongly connected components of the graph (Tarjan), as arrays of nodes. */
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let counter = 0;

  // Iterative, so that a long import chain cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [{ node: start, edges: [...graph.get(start)], next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1);
      if (frame.next < frame.edges.length) {
        const target = frame.edges[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edges: [...graph.get(target)], next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node), low.get(frame.node)));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}

/** The shortest cycle from `start` back to itself inside `members` (breadth-first). */
function shortestCycle(graph, start, members) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node)) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (previous.get(path[0]) !== undefined) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return undefined;
}

/**
 * Cycles to report: for every file caught in a cycle, the shortest cycle through it, each cycle
 * once (rotated to start at its smallest path).
 */
function cyclesOf(graph) {
  const cycles = new Map();
  for (const component of stronglyConnected(graph)) {
    const members = new Set(component);
    const looped = component.length > 1 || graph.get(component[0]).has(component[0]);
    if (!looped) continue;
    for (const node of [...component].sort()) {
      const cycle = shortestCycle(graph, node, members);
      if (!cycle) continue;
      const ring = cycle.slice(0, -1);
      const first = ring.indexOf([...ring].sort()[0]);
      const rotated = [...ring.slice(first), ...ring.slice(0, first)];
      cycles.set(rotated.join("\n"), [...rotated, rotated[0]]);
    }
  }
  return [...cycles.values()];
}

/** Modules of a package's `src/` that `lib/` may import: declarations every layer builds on. */
const FOUNDATIONS = ["errors.ts", "types.ts", "adapters.ts"];

/**
 * The public entry points of the package whose sources are `dir`: the `tessera-source` files its
 * package.json exports (patterns such as `./src/providers/*.ts` become their folder).
 */
function entryPoints(dir) {
  const manifest = join(dir, "..", "package.json");
  if (!existsSync(manifest)) return { files: new Set(), folders: [] };
  const { exports = {} } = JSON.parse(readFileSync(manifest, "utf8"));
  const sources = Object.values(exports)
    .map((target) => (typeof target === "object" ? target["tessera-source"] : undefined))
    .filter((source) => typeof source === "string")
    .map((source) => resolve(dir, "..", source));
  return {
    files: new Set(sources.filter((source) => !source.includes("*"))),
    folders: sources.filter((source) => source.includes("*")).map((source) => dirname(source)),
  };
}

/**
 * Imports against the layering, for each source directory with a `lib/` folder: a `lib/` file
 * importing a public entry point or a `providers/` file (the public surface is built on the
 * internals, never the reverse), and a foundation importing anything but types, or importing
 * an entry point that is not a foundation.
 */
function layeringViolations(dirs, edges) {
  const violations = [];
  for (const dir of dirs) {
    const lib = join(dir, "lib");
    if (!existsSync(lib)) continue;
    const entries = entryPoints(dir);
    const foundations = new Set(FOUNDATIONS.map((name) => join(dir, name)));
    const isPublic = (file) =>
      !foundations.has(file) &&
      (entries.files.has(file) ||
        file.startsWith(join(dir, "providers") + sep) ||
        entries.folders.some((folder) => dirname(file) === folder));
    for (const { from, to, typeOnly } of edges) {
      if (!from.startsWith(dir + sep)) continue;
      if (from.startsWith(lib + sep) && isPublic(to))
        violations.push(`${relative(root, from)} imports the public ${relative(root, to)}`);
      if (foundations.has(from) && isPublic(to))
        violations.push(
          `the foundation ${relative(root, from)} imports the public ${relative(root, to)}`,
        );
      if (foundations.has(from) && !typeOnly)
        violations.push(
          `the foundation ${relative(root, from)} imports more than types from ${relative(root, to)}`,
        );
    }
  }
  return violations;
}

const dirs = sourceDirectories();
const files = dirs.flatMap(sourceFiles);
const known = new Set(files);
const graph = new Map(files.map((file) => [file, new Set()]));
const edges = [];
for (const file of files) {
  for (const { specifier, typeOnly } of relativeImports(file)) {
    const target = resolveSpecifier(file, specifier, known);
    if (!target) continue;
    graph.get(file).add(target);
    edges.push({ from: file, to: target, typeOnly });
  }
}

const cycles = cyclesOf(graph);
if (cycles.length === 0) {
  process.stdout.write(`No import cycles among ${files.length} source files.\n`);
} else {
  const paths = cycles.map(
    (cycle) => `  ${cycle.map((file) => relative(root, file)).join("\n    → ")}\n`,
  );
  process.stdout.write(
    `${cycles.length} import cycle(s) among ${files.length} source files:\n\n${paths.join("\n")}`,
  );
  process.exitCode = 1;
}

const violations = layeringViolations(dirs, edges);
if (violations.length === 0) {
  process.stdout.write("No import points from lib/ to a public entry point.\n");
} else {
  process.stdout.write(
    `${violations.length} import(s) against the layering (lib/ builds the public entry points, never the reverse):\n\n${violations.map((line) => `  ${line}\n`).join("")}`,
  );
  process.exitCode = 1;
}
