// Writes docs/providers.md, the provider catalogue, from the provider definitions in
// packages/core/src/providers: each provider's id, type, import path, callback URL, environment
// variables and deliberate differences from Auth.js (the "Deliberate difference from Auth.js:"
// paragraphs of its doc comment).
//
//   npm run docs:providers            rewrite docs/providers.md
//   node scripts/providers-doc.mjs --check [file]
//                                     exit 1 when the file (default docs/providers.md) differs
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const providersDir = join(root, "packages/core/src/providers");
export const catalogueFile = join(root, "docs/providers.md");

/** Modules of packages/core/src/providers that hold types, not a provider. */
export const TYPE_MODULES = new Set(["index.ts", "oauth.ts"]);

/** Module names of the built-in providers (file names without `.ts`). */
export function providerModuleNames() {
  return readdirSync(providersDir)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts") && !TYPE_MODULES.has(file))
    .map((file) => file.slice(0, -3))
    .sort();
}

/** Upper snake case of a provider id, as in `AUTH_{ID}_SECRET` (the core's `envName`). */
export function envName(id) {
  return id.toUpperCase().replace(/-/g, "_");
}

/** The first doc comment of a module, as plain text lines. */
function moduleDocComment(source) {
  const match = source.match(/\/\*\*([\s\S]*?)\*\//);
  if (!match) return "";
  return match[1]
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, ""))
    .join("\n");
}

/** The "Deliberate difference from Auth.js:" paragraphs of a doc comment, each on one line. */
export function deliberateDifferences(source) {
  return moduleDocComment(source)
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, " ").trim())
    .filter((paragraph) => /^Deliberate differences? from Auth\.js:/.test(paragraph))
    .map((paragraph) => paragraph.replace(/^Deliberate differences? from Auth\.js:\s*/, ""))
    .map((note) => note.charAt(0).toUpperCase() + note.slice(1));
}

/** Imports every provider module (TypeScript, bundled by esbuild) and returns them by name. */
async function loadProviderModules(names) {
  const entry = names
    .map((name, i) => `export * as m${i} from ${JSON.stringify(join(providersDir, `${name}.ts`))};`)
    .join("\n");
  const result = await build({
    stdin: { contents: entry, resolveDir: providersDir, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    packages: "external",
    write: false,
    logLevel: "silent",
  });
  const dir = join(root, "node_modules/.cache/tessera");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `providers-doc-${process.pid}.mjs`);
  writeFileSync(file, result.outputFiles[0].text);
  let bundle;
  try {
    bundle = await import(pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
  return new Map(names.map((name, i) => [name, bundle[`m${i}`]]));
}

/** Whether an OAuth provider called without options has nothing to find its endpoints from. */
function needsIssuer(config) {
  const authorization = config.authorization;
  const authorizationUrl = typeof authorization === "string" ? authorization : authorization?.url;
  return !config.issuer && !config.wellKnown && !authorizationUrl;
}

/** One catalogue row per built-in provider, sorted by id. */
export async function catalogueRows() {
  // Factories may read AUTH_* variables: the catalogue must not depend on the local environment.
  for (const name of Object.keys(process.env))
    if (name.startsWith("AUTH_") || name.startsWith("NEXTAUTH_")) delete process.env[name];
  const names = providerModuleNames();
  const modules = await loadProviderModules(names);
  const rows = [];
  for (const name of names) {
    const factory = modules.get(name)?.default;
    if (typeof factory !== "function") continue;
    // With a client id, as in use: some providers derive their issuer from it (Descope).
    const config = factory({ clientId: "client-id" });
    const source = readFileSync(join(providersDir, `${name}.ts`), "utf8");
    const doc = moduleDocComment(source);
    const ID = envName(config.id);
    const env = [];
    let callback = "—";
    if (config.type === "oauth" || config.type === "oidc") {
      callback = `\`<origin>/auth/callback/${config.id}\``;
      env.push(`AUTH_${ID}_ID`, `AUTH_${ID}_SECRET`);
      // Providers whose endpoints come from an issuer name AUTH_{ID}_ISSUER in their doc comment;
      // one without endpoints for another reason (NetSuite's account id) takes no issuer.
      if (doc.includes(`AUTH_${ID}_ISSUER`))
        env.push(needsIssuer(config) ? `AUTH_${ID}_ISSUER (required)` : `AUTH_${ID}_ISSUER`);
      if (doc.includes(`AUTH_${ID}_KEY`)) env.push(`AUTH_${ID}_KEY`);
    } else if (config.type === "email") {
      callback = `\`<origin>/auth/callback/${config.id}\` (the e-mailed link)`;
      if (doc.includes(`AUTH_${ID}_KEY`)) env.push(`AUTH_${ID}_KEY`);
    }
    rows.push({
      id: config.id,
      name: config.name,
      type: config.type,
      module: `@tessera/core/providers/${name}`,
      callback,
      env,
      notes: deliberateDifferences(source),
    });
  }
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}

const cell = (text) => text.replace(/\|/g, "\\|");

/** The Markdown of the catalogue. */
export function renderCatalogue(rows) {
  const lines = [
    "# Provider catalogue",
    "",
    "<!-- Generated by scripts/providers-doc.mjs (`npm run docs:providers`): do not edit. -->",
    "",
    `Tessera ships ${rows.length} built-in providers. Each is imported from the module named below,`,
    "and from `@tessera/next/providers/<module>` in Next.js apps. Register the callback URL with the",
    "provider: `/auth` is the default `basePath` of `Auth()`, SvelteKit and Express; Next.js apps",
    "serve it under `/api/auth` (`<origin>/api/auth/callback/<id>`).",
    "Used uncalled (`providers: [GitHub]`), an OAuth provider reads its credentials from the",
    "environment variables listed; `(required)` marks an issuer the provider cannot do without.",
    "",
    "Notes list each deliberate difference from the Auth.js provider of the same id; everything",
    "else (id, name, type, checks, endpoints, scopes and the profile mapping) is the same, which",
    "packages/core/test/providers/conformance.test.ts checks.",
    "",
    "| Provider | id | Type | Module | Callback URL | Environment | Notes |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const row of rows) {
    const env = row.env.map((name) => name.replace(/^(\S+)/, "`$1`")).join(", ") || "—";
    const notes = row.notes.length ? row.notes.join(" ") : "—";
    lines.push(
      `| ${cell(row.name)} | \`${row.id}\` | ${row.type} | \`${row.module}\` | ${row.callback} | ${env} | ${cell(notes)} |`,
    );
  }
  lines.push("");
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const target = args.find((arg) => !arg.startsWith("--")) ?? catalogueFile;
  const rendered = renderCatalogue(await catalogueRows());
  if (check) {
    let current = "";
    try {
      current = readFileSync(target, "utf8");
    } catch {}
    if (current !== rendered) {
      console.error(`${target} is out of date: run \`npm run docs:providers\`.`);
      process.exit(1);
    }
    console.log(`${target} is up to date.`);
  } else {
    writeFileSync(target, rendered);
    console.log(`wrote ${target}`);
  }
}
