/**
 * A vitest reporter that fails the run when any test was skipped or left as todo (a skipped test
 * is a failure in CI), and prints one plain summary line: `tests: N passed, N failed, N skipped`.
 */
import type { Reporter, TestModule } from "vitest/node";

export default class StrictReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    const skipped: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped.push(`${module.moduleId} > ${test.fullName}`);
      }
    }
    if (skipped.length) {
      console.error(`\n${skipped.length} test(s) were skipped; skipped tests fail this suite:`);
      for (const name of skipped) console.error(`  - ${name}`);
      process.exitCode = 1;
    }
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped.length} skipped`);
  }
}
