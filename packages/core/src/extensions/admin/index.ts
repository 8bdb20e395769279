/**
 * `@tessera/core/admin`: user administration (list and search users, global roles, bans, user
 * creation, ending a user's sessions, resetting their two-factor) and impersonation, built as an
 * extension. An app that does not import this entry never loads it.
 *
 * @example
 * ```ts
 * import { admin } from "@tessera/core/admin"
 * import { MemoryAdapter } from "@tessera/memory"
 * const config = { adapter: MemoryAdapter(), providers, experimental: { extensions: [admin()] } }
 * ```
 */

export { type AdminApi, type AdminUserPage, adminApi } from "./api.js";
export {
  ADMIN_ACTION,
  type AdminEvent,
  type AdminOptions,
  admin,
  BAN_STEP,
} from "./extension.js";
export {
  ACTOR_CLAIM,
  actorOf,
  type ImpersonationFields,
  impersonatorOf,
} from "./impersonation.js";
export {
  ADMIN_ADAPTER_METHODS,
  type AdminAdapter,
  type AdminUserRecord,
  type UserBan,
  type UserListPage,
  type UserListQuery,
} from "./storage.js";
