/**
 * The credentials-only app's Worker bundle stays within its size budget. The budget is the gzip
 * size measured by `npm run bench:cold` (bench/RESULTS.md) plus a small margin; a change that
 * makes every Worker using Tessera ship more code must raise it on purpose, in the same commit,
 * with the reason. Bundle size does not depend on the machine's load, so this is not a timed test.
 */
import { describe, expect, it } from "vitest";

/** Bytes of gzip (level 9) the credentials-only Worker bundle may reach. */
const CREDENTIALS_GZIP_BUDGET = 76 * 1024;

interface BundleFigures {
  minified: number;
  gzip: number;
  metafile: { inputs: Record<string, unknown> };
}
interface BuildModule {
  workerBundle(library: "tessera" | "authjs", app: "credentials"): Promise<BundleFigures>;
}

// The bench's own build, so that the test and `npm run bench:cold` measure the same bundle.
const build = (await import(
  new URL("./lib/cold-start-build.mjs", import.meta.url).href
)) as BuildModule;

describe("cold start: Worker bundle size", () => {
  it("keeps the credentials-only app's Worker bundle within its gzip budget", async () => {
    const bundle = await build.workerBundle("tessera", "credentials");
    // The bundle really holds Tessera's core (an empty or failed build must not pass).
    expect(Object.keys(bundle.metafile.inputs)).toContain("packages/core/src/lib/pipeline.ts");
    expect(bundle.gzip).toBeLessThanOrEqual(CREDENTIALS_GZIP_BUDGET);
  });
});
