/**
 * The adapter contract, as `next-auth/adapters`: any `@auth/*-adapter` or Tessera adapter fits.
 *
 * @example
 * ```ts
 * import type { Adapter } from "@tessera/next/adapters"
 * ```
 */
export * from "@tessera/core/adapters";
