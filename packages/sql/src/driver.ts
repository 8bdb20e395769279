/**
 * The database drivers are optional peer dependencies: an application installs the one for its
 * database. Loading one that is not installed fails with a {@link MissingDriverError} that names
 * the package to install, instead of Node's bare "Cannot find package".
 */

/** The driver packages @tessera/sql loads, one per database family. */
export type DriverPackage = "pg" | "mysql2" | "better-sqlite3";

const DATABASE_OF: Readonly<Record<DriverPackage, string>> = {
  pg: "PostgreSQL",
  mysql2: "MySQL or MariaDB",
  "better-sqlite3": "SQLite",
};

/**
 * The database driver a factory needs is not installed. `driver` names the package; the
 * original module-resolution error is the `cause`.
 *
 * @example
 * ```ts
 * try {
 *   await migrate(createPostgresDb(url), { dialect: "postgres" })
 * } catch (error) {
 *   if (error instanceof MissingDriverError) console.error(error.message) // "Install pg to use PostgreSQL …"
 * }
 * ```
 */
export class MissingDriverError extends Error {
  constructor(
    readonly driver: DriverPackage,
    options: { cause: unknown },
  ) {
    super(
      `Install ${driver} to use ${DATABASE_OF[driver]} with @tessera/sql (npm i ${driver}): it is an optional peer dependency, installed by the application that uses that database.`,
      options,
    );
    this.name = "MissingDriverError";
  }
}

/** Whether `error` says that `driver` itself (not a module it imports) cannot be found. */
function isMissing(error: unknown, driver: DriverPackage): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    (error.message.includes(`'${driver}'`) || error.message.includes(`"${driver}"`))
  );
}

/**
 * Runs `load` (a literal `import("<driver>")`, which bundlers can see) and turns "not installed"
 * into a {@link MissingDriverError}; any other failure is rethrown as it is.
 *
 * @example
 * ```ts
 * const { default: pg } = await importDriver("pg", () => import("pg"))
 * ```
 */
export async function importDriver<Module>(
  driver: DriverPackage,
  load: () => Promise<Module>,
): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, driver)) throw new MissingDriverError(driver, { cause: error });
    throw error;
  }
}
