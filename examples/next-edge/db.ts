/**
 * The database, for Node code only (auth.ts loads it only in the Node runtime). SQLite in a file
 * by default; DATABASE_URL may name PostgreSQL or MySQL instead.
 */
import { migrate, sqlAdapterFromUrl } from "@tessera/sql";

const { adapter, db, dialect } = sqlAdapterFromUrl(
  process.env.DATABASE_URL ?? "sqlite:./auth.sqlite",
);

// Creates the tables on first use; a deployment would rather migrate once before it starts.
let migrated: Promise<unknown> | undefined;

/** The adapter, once its tables exist. */
export async function readyAdapter(): Promise<typeof adapter> {
  migrated ??= migrate(db, { dialect });
  await migrated;
  return adapter;
}
