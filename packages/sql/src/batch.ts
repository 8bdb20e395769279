import type { CompiledQuery, QueryResult } from "kysely";

/**
 * Statements that must succeed or fail together, on a database without interactive
 * transactions (Cloudflare D1): sent as one batch, which the database runs as one transaction,
 * and answered with each statement's result in order. The adapter, the store and the migrations
 * use it where they would otherwise open a transaction; their reads between statements become
 * `… RETURNING` clauses or compare-and-set updates.
 */
export type AtomicBatch = (queries: readonly CompiledQuery[]) => Promise<QueryResult<unknown>[]>;

const batches = new WeakMap<object, AtomicBatch>();

/** Records that `db` (a Kysely instance) runs atomic writes with `batch` instead of transactions. */
export function registerAtomicBatch(db: object, batch: AtomicBatch): void {
  batches.set(db, batch);
}

/** The batch runner of `db`, or `undefined` when `db` has transactions (every other database). */
export function atomicBatch(db: object): AtomicBatch | undefined {
  return batches.get(db);
}
