/**
 * `@tessera/adapter-test`: a vitest conformance suite for Tessera (and Auth.js v5) adapters.
 *
 * @example
 * ```ts
 * // test/conformance.test.ts
 * import { runAdapterConformance } from "@tessera/adapter-test"
 * runAdapterConformance("memory", { adapter: MemoryAdapter(store), db: readersOf(store) })
 * ```
 */
export {
  accountFixture,
  authenticatorFixture,
  dateWithMilliseconds,
  uniqueSuffix,
  userFixture,
  verificationTokenFixture,
} from "./fixtures.js";
export { silentServer, timed } from "./reliability.js";
export { runSharedStoreConformance, type SharedStoreConformanceOptions } from "./store-suite.js";
export {
  type AccountKey,
  type ConformanceDb,
  type ConformanceFeatures,
  type ConformanceOptions,
  runAdapterConformance,
  type VerificationTokenKey,
} from "./suite.js";
