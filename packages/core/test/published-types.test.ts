/**
 * What npm publishes. Every package's tarball carries the LICENSE its package.json names, and the
 * declaration files of @tessera/core's tarball type-check in a Node-only project — `lib:
 * ["ES2022"]`, `types: ["node"]` (@types/node 20), no DOM library, `skipLibCheck: false` — in which
 * only the package and its dependencies are installed.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPackages, exec, ROOT, TSC_BIN } from "./fixtures/build.js";

/** The optional peer dependency each entry point needs, when it needs one. */
const PEER_OF_ENTRY: Record<string, string> = {
  "@tessera/core/providers/webauthn": "@simplewebauthn/server",
  "@tessera/core/providers/passkey": "@simplewebauthn/server",
};

/** A consumer's tsconfig: a Node-only project that checks every declaration file it loads. */
const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2022"],
    types: ["node"],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  },
};

/** Where the repository has `name` installed (hoisted, or under packages/core). */
function installed(name: string): string {
  for (const base of [join(ROOT, "node_modules"), join(ROOT, "packages/core/node_modules")]) {
    const path = join(base, name);
    if (existsSync(join(path, "package.json"))) return path;
  }
  throw new Error(`${name} is not installed; run npm ci.`);
}

/** Links the repository's copy of `name` into the project's node_modules. */
async function install(project: string, name: string): Promise<void> {
  const target = join(project, "node_modules", name);
  if (existsSync(target)) return;
  await mkdir(dirname(target), { recursive: true });
  await symlink(installed(name), target, "dir");
}

/** Type-checks `source` in `project`; returns the compiler's output (empty when it passes). */
async function typeCheck(project: string, name: string, source: string): Promise<string> {
  await writeFile(join(project, `${name}.ts`), source);
  const tsconfig = { ...CONSUMER_TSCONFIG, files: [`${name}.ts`] };
  await writeFile(join(project, `tsconfig.${name}.json`), JSON.stringify(tsconfig));
  const { output } = await exec(
    process.execPath,
    [TSC_BIN, "-p", `tsconfig.${name}.json`],
    project,
  );
  return output.trim();
}

/** A module re-exporting each entry point under its own name. */
function importing(entries: string[]): string {
  return entries.map((entry, i) => `export * as entry${i} from "${entry}";\n`).join("");
}

describe("@tessera/core's published declaration files", () => {
  let project: string;
  let entries: string[];

  beforeAll(async () => {
    await buildPackages(["packages/core"], ["packages/core/dist/providers/index.d.ts"]);
    project = await mkdtemp(join(tmpdir(), "tessera-published-types-"));
    const packed = await exec(
      "npm",
      ["pack", join(ROOT, "packages/core"), "--json", "--pack-destination", project],
      project,
    );
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    const home = join(project, "node_modules/@tessera/core");
    await mkdir(home, { recursive: true });
    const untar = await exec(
      "tar",
      ["-xzf", join(project, filename), "-C", home, "--strip-components=1"],
      project,
    );
    expect(untar.output).toBe("");

    // Installed with it: its dependencies and @types/node, nothing else (no DOM, no peers).
    const manifest = JSON.parse(await readFile(join(home, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      exports: Record<string, unknown>;
    };
    for (const name of [...Object.keys(manifest.dependencies ?? {}), "@types/node"])
      await install(project, name);

    // Every entry point of `exports` that has types; `./providers/*` as each provider shipped.
    const providers = (await readdir(join(home, "dist/providers")))
      .filter((file) => file.endsWith(".d.ts") && file !== "index.d.ts")
      .map((file) => `@tessera/core/providers/${file.slice(0, -".d.ts".length)}`);
    entries = Object.entries(manifest.exports).flatMap(([path, target]) => {
      if (typeof target !== "object" || target === null || !("types" in target)) return [];
      if (path === "./providers/*") return providers;
      return [path === "." ? "@tessera/core" : `@tessera/core/${path.slice(2)}`];
    });
  }, 120_000);

  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it("type-check without the DOM library, importing every entry point", async () => {
    expect(entries).toEqual(expect.arrayContaining(["@tessera/core", "@tessera/core/providers"]));
    expect(entries).toContain("@tessera/core/providers/github");
    const source = `${importing(entries.filter((entry) => !PEER_OF_ENTRY[entry]))}
import { Auth, type AuthConfig } from "@tessera/core";
import GitHub from "@tessera/core/providers/github";
import Okta from "@tessera/core/providers/okta";

const config: AuthConfig = {
  secret: "a-secret-of-at-least-thirty-two-characters",
  providers: [GitHub, Okta({ issuer: "https://example.okta.com/oauth2/default" })],
};
export const response: Promise<Response> = Auth(new Request("http://localhost/auth/session"), config);
`;
    expect(await typeCheck(project, "consumer", source)).toBe("");
  }, 60_000);

  it("type-check the WebAuthn entry points once their optional peer is installed", async () => {
    const withPeer = entries.filter((entry) => PEER_OF_ENTRY[entry]);
    expect(withPeer.length).toBeGreaterThan(0);
    for (const entry of withPeer) await install(project, PEER_OF_ENTRY[entry] ?? "");
    expect(await typeCheck(project, "webauthn", importing(withPeer))).toBe("");
  }, 60_000);
});

describe("the packages' tarballs", () => {
  it("each carry the ISC LICENSE their package.json names", async () => {
    const root = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
      workspaces: string[];
    };
    const publishable: string[] = [];
    for (const workspace of root.workspaces) {
      const manifest = JSON.parse(
        await readFile(join(ROOT, workspace, "package.json"), "utf8"),
      ) as { private?: boolean; license?: string };
      if (manifest.private) continue;
      expect(manifest.license, workspace).toBe("ISC");
      publishable.push(workspace);
    }
    expect(publishable).toContain("packages/core");

    // The file list is all this test reads: no `prepack` build of each package (17 `tsc -b`).
    const args = [
      "pack",
      "--dry-run",
      "--json",
      "--ignore-scripts",
      ...publishable.map((path) => `--workspace=${path}`),
    ];
    const { stdout } = await exec("npm", args, ROOT);
    const packs = JSON.parse(stdout) as { name: string; files: { path: string }[] }[];
    expect(packs).toHaveLength(publishable.length);
    for (const pack of packs)
      expect(
        pack.files.map((file) => file.path),
        pack.name,
      ).toContain("LICENSE");

    for (const directory of ["", ...publishable]) {
      const license = await readFile(join(ROOT, directory, "LICENSE"), "utf8");
      expect(license, `${directory}/LICENSE`).toMatch(/^ISC License\n\nCopyright \(c\) /);
    }
  }, 60_000);
});
