import type { SqlDialect, StoredBigInt, StoredBoolean, StoredDate } from "./schema.js";

/** How a dialect stores the values SQL has no common type for, and what it can do. */
export interface DialectTraits {
  /** A `Date` as the driver should bind it. */
  date(value: Date): Date | number;
  /** A boolean as the driver should bind it. */
  boolean(value: boolean): StoredBoolean;
  /** `DELETE … RETURNING` (PostgreSQL, SQLite ≥ 3.35, MariaDB ≥ 10.5; not MySQL). */
  deleteReturning: boolean;
  /** `UPDATE … RETURNING` (PostgreSQL, SQLite ≥ 3.35; neither MySQL nor MariaDB). */
  updateReturning: boolean;
}

const TRAITS: Record<SqlDialect, DialectTraits> = {
  // better-sqlite3 binds neither Date nor boolean: milliseconds and 0/1 keep full precision.
  sqlite: {
    date: (value) => value.getTime(),
    boolean: (value) => (value ? 1 : 0),
    deleteReturning: true,
    updateReturning: true,
  },
  postgres: {
    date: (value) => value,
    boolean: (value) => value,
    deleteReturning: true,
    updateReturning: true,
  },
  mysql: {
    date: (value) => value,
    boolean: (value) => (value ? 1 : 0),
    deleteReturning: false,
    updateReturning: false,
  },
  mariadb: {
    date: (value) => value,
    boolean: (value) => (value ? 1 : 0),
    deleteReturning: true,
    updateReturning: false,
  },
};

/**
 * The traits of a dialect; throws for an unknown name (a typo in JavaScript config).
 *
 * @example
 * ```ts
 * dialectTraits("sqlite").date(new Date(0)) // 0
 * ```
 */
export function dialectTraits(dialect: SqlDialect): DialectTraits {
  const traits = TRAITS[dialect];
  if (!traits) {
    throw new TypeError(
      `dialect must be one of ${Object.keys(TRAITS).join(", ")}; got ${JSON.stringify(dialect)}`,
    );
  }
  return traits;
}

/**
 * Reads a stored timestamp back as a `Date`, whatever form the driver returned it in.
 *
 * @example
 * ```ts
 * readDate(1700000000123).toISOString() // "2023-11-14T22:13:20.123Z"
 * ```
 */
export function readDate(value: StoredDate): Date {
  if (value instanceof Date) return new Date(value.getTime());
  if (typeof value === "number") return new Date(value);
  // Integer strings are epoch milliseconds (a bigint column read by pg); others are ISO dates.
  return /^-?\d+$/.test(value) ? new Date(Number(value)) : new Date(value);
}

/**
 * Reads a stored 64-bit integer back as a `number` (exact up to 2^53).
 *
 * @example
 * ```ts
 * readInteger("4102444800") // 4102444800
 * ```
 */
export function readInteger(value: StoredBigInt): number {
  return Number(value);
}

/**
 * Reads a stored boolean (`true`/`false` or 1/0) back as a `boolean`.
 *
 * @example
 * ```ts
 * readBoolean(0) // false
 * ```
 */
export function readBoolean(value: StoredBoolean): boolean {
  return Boolean(value);
}
