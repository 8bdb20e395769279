/**
 * The adapter types (`Adapter`, `AdapterUser`, `AdapterAccount`, `AdapterSession`,
 * `VerificationToken`, …) for SvelteKit apps, as `@auth/sveltekit/adapters` has them.
 *
 * @example
 * ```ts
 * import type { Adapter } from "@tessera/sveltekit/adapters"
 * export function MyAdapter(): Adapter { return { createUser: async (user) => ({ ...user, id: crypto.randomUUID() }) } }
 * ```
 */
export type * from "@tessera/core/adapters";
