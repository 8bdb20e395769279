/**
 * What the admin extension stores, as optional adapter methods: a user's global role, a ban, and
 * a paginated user listing. `@tessera/memory`, `@tessera/sql` and `@tessera/redis` implement them
 * (the conformance suite's admin section checks any adapter). Types only: an adapter package
 * imports them without loading the extension.
 */
import type { AdapterUser, Awaitable } from "../../adapters.js";

/** A ban: why, and until when (`null`: until lifted). */
export interface UserBan {
  /** Shown to administrators, never to the banned user. */
  reason: string | null;
  /** When the ban ends by itself; `null` for a ban that lasts until `unban`. */
  expires: Date | null;
}

/** A user as administrators see them: the stored user with its role and ban. */
export interface AdminUserRecord extends AdapterUser {
  /** The global role (`"admin"`, `"user"`, …), or `null` for none. */
  role: string | null;
  /** The ban, or `null` when the user is not banned. An expired ban may still be listed. */
  ban: UserBan | null;
}

/** A page of the user listing. */
export interface UserListQuery {
  /** Matches users whose e-mail or name contains it (case-insensitive); all users when absent. */
  search?: string;
  /** At most this many users (1–100). */
  limit: number;
  /** Skips this many users of the ordered listing. */
  offset: number;
}

/** A page of users, ordered by e-mail then id, and how many match in all. */
export interface UserListPage {
  users: AdminUserRecord[];
  total: number;
}

/** The adapter methods the admin extension needs (besides the core's `createUser`, `getUser`). */
export interface AdminAdapter {
  /** The user with role and ban, or null when there is no such user. */
  getAdminUser(userId: string): Awaitable<AdminUserRecord | null>;
  /** A page of users matching `query.search`, ordered by e-mail, then id. */
  listUsers(query: UserListQuery): Awaitable<UserListPage>;
  /** Sets (or with `null` clears) the user's role; false when there is no such user. */
  setUserRole(userId: string, role: string | null): Awaitable<boolean>;
  /** Bans the user (or with `null` lifts the ban); false when there is no such user. */
  setUserBan(userId: string, ban: UserBan | null): Awaitable<boolean>;
}

/** The method names, for the config check (`requires`). */
export const ADMIN_ADAPTER_METHODS = [
  "getAdminUser",
  "listUsers",
  "setUserRole",
  "setUserBan",
] as const satisfies readonly (keyof AdminAdapter)[];
