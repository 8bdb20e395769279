#!/usr/bin/env node
/**
 * `npm run pack:local [-- <package>… [--out <folder>]]`: until the packages are published, builds
 * every @tessera package of this checkout, packs them all into one folder (`packed/` by default)
 * and prints the `npm i` line that installs the named packages in an app — with the @tessera
 * packages they depend on, since a tarball's `@tessera/core@^0.1.0` is found nowhere else.
 *
 * Packages are named as on npm (`@tessera/next`) or by their folder (`next`). Without names, the
 * line installs @tessera/core alone and every tarball is listed.
 *
 * @example
 * ```sh
 * npm run pack:local -- express sql
 * # npm i /home/me/tessera/packed/tessera-core-0.1.0.tgz /home/me/tessera/packed/tessera-express-0.1.0.tgz …
 * ```
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
/** The published packages, by folder under packages/. */
const FOLDERS = [
  "core",
  "adapter-test",
  "memory",
  "sql",
  "redis",
  "express",
  "next",
  "sveltekit",
  "astro",
  "hono",
  "solid-start",
  "qwik",
  "react-router",
  "nuxt",
  "fastify",
  "tanstack-start",
];

/** Stops with a message (no stack trace): every failure here is the reader's to fix. */
function fail(message) {
  process.stderr.write(`pack:local: ${message}\n`);
  process.exit(1);
}

function parseArguments(argv) {
  const names = [];
  let out = join(root, "packed");
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === "--out") {
      const folder = argv[++index];
      if (!folder) fail("--out needs a folder.");
      out = resolve(folder);
    } else if (argument === "--help" || argument === "-h") {
      process.stdout.write(
        "Usage: npm run pack:local -- [<package>…] [--out <folder>]\n" +
          `Packages: ${FOLDERS.map((folder) => `@tessera/${folder}`).join(", ")}\n`,
      );
      process.exit(0);
    } else names.push(argument);
  }
  return { names, out };
}

const manifests = new Map(
  FOLDERS.map((folder) => [
    folder,
    JSON.parse(readFileSync(join(root, "packages", folder, "package.json"), "utf8")),
  ]),
);
const folderOf = new Map([...manifests].map(([folder, manifest]) => [manifest.name, folder]));

function toFolder(name) {
  const folder = folderOf.get(name) ?? (manifests.has(name) ? name : undefined);
  if (!folder)
    fail(
      `there is no package "${name}"; choose among ${[...folderOf.keys()].join(", ")} (or their folder names).`,
    );
  return folder;
}

/** The folders of `chosen` and of the @tessera packages they depend on, in FOLDERS order. */
function withDependencies(chosen) {
  const needed = new Set();
  const visit = (folder) => {
    if (needed.has(folder)) return;
    needed.add(folder);
    for (const dependency of Object.keys(manifests.get(folder).dependencies ?? {}))
      if (folderOf.has(dependency)) visit(folderOf.get(dependency));
  };
  for (const folder of chosen) visit(folder);
  return FOLDERS.filter((folder) => needed.has(folder));
}

const { names, out } = parseArguments(process.argv.slice(2));
const chosen = names.length > 0 ? names.map(toFolder) : ["core"];

process.stdout.write(`Building the packages (tsc -b)…\n`);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const build = spawnSync(
  process.execPath,
  [tsc, "-b", ...FOLDERS.map((folder) => join("packages", folder))],
  { cwd: root, stdio: "inherit" },
);
if (build.status !== 0) fail("the build failed (errors above).");

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
process.stdout.write(`Packing into ${out}…\n`);
// The build above is every package's `prepack`: no need to run it eight more times.
const pack = spawnSync(
  "npm",
  [
    "pack",
    "--ignore-scripts",
    "--json",
    "--pack-destination",
    out,
    ...FOLDERS.flatMap((folder) => ["-w", join("packages", folder)]),
  ],
  { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
);
if (pack.status !== 0) fail("npm pack failed (errors above).");
const tarballOf = new Map(
  JSON.parse(pack.stdout).map((entry) => [folderOf.get(entry.name), join(out, entry.filename)]),
);

const install = withDependencies(chosen).map((folder) => tarballOf.get(folder));
process.stdout.write(
  `\nPacked ${tarballOf.size} packages:\n${[...tarballOf.values()].map((file) => `  ${file}`).join("\n")}\n\n` +
    `Install ${chosen.map((folder) => manifests.get(folder).name).join(", ")} in your app with:\n\n` +
    `npm i ${install.join(" ")}\n`,
);
