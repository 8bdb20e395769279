/**
 * The adapter types (`Adapter`, `AdapterUser`, `AdapterAccount`, `AdapterSession`,
 * `VerificationToken`, …) for Qwik apps, as `@auth/qwik/adapters` has them.
 *
 * @example
 * ```ts
 * import type { Adapter } from "@tessera/qwik/adapters"
 * export function MyAdapter(): Adapter { return { createUser: async (user) => ({ ...user, id: crypto.randomUUID() }) } }
 * ```
 */
export type * from "@tessera/core/adapters";
