/**
 * The adapter types (`Adapter`, `AdapterUser`, `AdapterAccount`, `AdapterSession`,
 * `VerificationToken`, …) for SolidStart apps, as `@auth/solid-start/adapters` has them.
 *
 * @example
 * ```ts
 * import type { Adapter } from "@tessera/solid-start/adapters"
 * export function MyAdapter(): Adapter { return { createUser: async (user) => ({ ...user, id: crypto.randomUUID() }) } }
 * ```
 */
export type * from "@tessera/core/adapters";
