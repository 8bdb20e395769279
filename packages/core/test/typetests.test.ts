/**
 * The type-level programs in typetests/ (Auth.js v5 documentation patterns, written with
 * Tessera's imports) compile against the published declaration files. Each folder is its own
 * project, so module augmentations stay apart; their `@ts-expect-error` lines make a wrong
 * program fail too.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildPackages, exec, ROOT, TSC_BIN } from "./fixtures/build.js";

const TYPETESTS = join(ROOT, "typetests");
const projects = readdirSync(TYPETESTS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe("Auth.js documentation patterns type-check against Tessera's published types", () => {
  beforeAll(async () => {
    await buildPackages(
      [
        "packages/core",
        "packages/memory",
        "packages/express",
        "packages/next",
        "packages/next-auth",
        "packages/sveltekit",
        "packages/astro",
        "packages/hono",
        "packages/solid-start",
        "packages/qwik",
      ],
      ["packages/core/dist/index.d.ts", "packages/next/dist/index.d.ts"],
    );
  }, 300_000);

  it("finds the programs", () => {
    expect(projects).toEqual(
      expect.arrayContaining([
        "augment-core",
        "augment-next",
        "core",
        "next",
        "sveltekit",
        "astro",
        "hono",
        "solid-start",
        "qwik",
      ]),
    );
  });

  it.each(projects)(
    "typetests/%s compiles",
    async (project) => {
      const { code, output } = await exec(
        process.execPath,
        [TSC_BIN, "-p", join(TYPETESTS, project)],
        ROOT,
      );
      expect(output).toBe("");
      expect(code).toBe(0);
    },
    120_000,
  );
});
