import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources through the
// "tessera-source" export condition, so tests never need a build first.
export default defineConfig({
  resolve: { conditions: ["tessera-source"] },
  ssr: { resolve: { conditions: ["tessera-source"], externalConditions: ["tessera-source"] } },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "e2e/**/*.test.ts",
      "bench/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "docs/test/**/*.test.ts",
      "packaging/**/*.test.ts",
      "runtimes/**/*.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    allowOnly: false,
    reporters: ["default", "./scripts/strict-reporter.ts"],
    passWithNoTests: false,
  },
});
