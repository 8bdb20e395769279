/**
 * What password accounts store, as optional adapter methods: `@tessera/memory`, `@tessera/sql`
 * and `@tessera/redis` implement them (the conformance suite's password section checks any
 * adapter). Auth.js's adapter contract has no place for a password hash, so it lives beside the
 * user, never in Auth.js's tables. Types only: an adapter imports them without loading the
 * extension.
 */
import type { Awaitable } from "../../adapters.js";

/** The adapter methods password accounts need. */
export interface PasswordAdapter {
  /** The user's password hash (a PHC string), or null when the user has no password. */
  getPasswordHash(userId: string): Awaitable<string | null>;
  /** Creates or replaces the user's password hash (sign-up, reset, re-hash). */
  setPasswordHash(userId: string, hash: string): Awaitable<void>;
  /** Removes the user's password (the user then signs in with another provider only). */
  deletePasswordHash(userId: string): Awaitable<void>;
}

/** The method names, for the config check (`requires`). */
export const PASSWORD_ADAPTER_METHODS = [
  "getPasswordHash",
  "setPasswordHash",
  "deletePasswordHash",
] as const satisfies readonly (keyof PasswordAdapter)[];
