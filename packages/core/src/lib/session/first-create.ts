/**
 * First sign-ins that race. Two requests of a person who has no user yet (a double click, two
 * tabs, a retrying client, two app instances) both look the user up, find nothing, and both
 * create one. The store's unique constraints (user id, e-mail, provider account) let one create
 * through and refuse the others; a refused request then finds the user the winner stored and signs
 * in to it, instead of failing the sign-in. Adapters report such a refusal as an error of their
 * own kind, so any failure of a create is followed by a re-read, and the error stands only when
 * the re-read finds nobody.
 */
import type { AdapterUser, Awaitable } from "../../adapters.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";

/**
 * Waits between re-reads, in milliseconds. The winner's create has committed when the loser's is
 * refused, but its next write (linking the provider account) may still be on its way.
 */
const REREAD_DELAYS_MS = [0, 20, 50, 100, 200, 400];

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * After a refused create, reads until `read` finds the record a concurrent request stored, or
 * gives up (`null`, also when the store cannot be read: the original error is the one to report).
 *
 * @example
 * ```ts
 * const owner = await rereadAfterClash(() => adapter.getUserByAccount(account))
 * ```
 */
export async function rereadAfterClash<T>(read: () => Awaitable<T | null>): Promise<T | null> {
  for (const delay of REREAD_DELAYS_MS) {
    if (delay > 0) await pause(delay);
    try {
      const found = await read();
      if (found) return found;
    } catch {
      return null;
    }
  }
  return null;
}

/** A user created now, or the one a concurrent first sign-in created first. */
export interface CreatedOrFound {
  user: AdapterUser;
  /** `false` when a concurrent sign-in created the user and this one found it. */
  isNewUser: boolean;
}

/**
 * Creates `user`; when the store refuses it, answers the user that `findExisting` re-reads (the
 * concurrent sign-in's), or rethrows the store's error when there is none. The `createUser` event
 * is the caller's, and only for a new user.
 *
 * @example
 * ```ts
 * const { user, isNewUser } = await createUserOrFind(ctx, newUser, () => adapter.getUserByEmail(email))
 * ```
 */
export async function createUserOrFind(
  ctx: AuthContext,
  user: AdapterUser,
  findExisting: () => Awaitable<AdapterUser | null>,
): Promise<CreatedOrFound> {
  const adapter = requireAdapter(ctx.config, "Creating a user");
  try {
    return { user: await adapter.createUser(user), isNewUser: true };
  } catch (error) {
    const existing = await rereadAfterClash(findExisting);
    if (!existing) throw error;
    ctx.logger.debug("user_created_concurrently", { userId: existing.id });
    return { user: existing, isNewUser: false };
  }
}
