/**
 * The adapter contract of next-auth v4 (`next-auth/adapters`): the same methods and records as
 * Tessera's, so `@next-auth/*-adapter` packages keep working.
 *
 * @example
 * ```ts
 * import type { Adapter } from "@tessera/next-auth/adapters"
 * export function MyAdapter(db: Db): Adapter {
 *   return { createUser: (user) => db.users.insert(user) }
 * }
 * ```
 */
export type {
  Adapter,
  AdapterAccount,
  AdapterSession,
  VerificationToken,
} from "@tessera/core/adapters";
export type { AdapterUser } from "./types.js";
