#!/usr/bin/env node
/**
 * The `tessera` command line:
 *
 *   npx tessera secret    generate an AUTH_SECRET and add it to .env.local (or .env)
 *   npx tessera migrate   create or update Tessera's tables at DATABASE_URL (@tessera/sql)
 *
 * Plain JavaScript, so it runs from a fresh install without a build step.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { generateSecret, writeEnvSecret } from "./secret.mjs";

const HELP = `Usage: tessera <command> [options]

Commands:
  secret     Generate a new AUTH_SECRET and add it to .env.local (or .env)
               --raw             print the secret only, write nothing
               --file <path>     the file to write (default: .env.local if it exists, else .env)
               --force           replace an AUTH_SECRET the file already has (signs everyone out)
  migrate    Create or update Tessera's tables in a SQL database (needs @tessera/sql)
               --url <url>       database URL (default: $DATABASE_URL), e.g. sqlite:./auth.sqlite,
                                 postgres://user@host/db, mysql://root@127.0.0.1/db, mariadb://…
               --table-prefix <p> prefix of the table names, as given to SqlAdapter; needed when
                                 the database has tables of the same names (users, accounts, …)
  help       Show this help
`;

/** @param {string} message */
function fail(message) {
  process.stderr.write(`tessera: ${message}\n`);
  process.exitCode = 1;
}

/** @param {string[]} args */
function secret(args) {
  const { values } = parseArgs({
    args,
    options: {
      raw: { type: "boolean", default: false },
      file: { type: "string" },
      force: { type: "boolean", default: false },
    },
  });
  const value = generateSecret();
  if (values.raw) {
    process.stdout.write(`${value}\n`);
    return;
  }
  const file = values.file ?? (existsSync(".env.local") ? ".env.local" : ".env");
  const outcome = writeEnvSecret(file, value, { force: values.force });
  if (outcome === "kept") {
    process.stdout.write(
      `${file} already has an AUTH_SECRET; it was kept (replacing it signs everyone out).\n` +
        `Replace it with --force, or use this one yourself:\n\nAUTH_SECRET="${value}"\n`,
    );
    return;
  }
  process.stdout.write(
    `${outcome === "replaced" ? "Replaced" : "Added"} AUTH_SECRET in ${file}. Keep the file out of version control.\n`,
  );
}

/** Hides the password of a database URL. @param {string} url */
function redact(url) {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, "$1***@");
}

/** @param {string[]} args */
async function migrate(args) {
  const { values } = parseArgs({
    args,
    options: { url: { type: "string" }, "table-prefix": { type: "string" } },
  });
  const url = values.url ?? process.env.DATABASE_URL;
  if (!url) return fail("migrate needs a database URL: set DATABASE_URL or pass --url <url>.");
  // An empty SQLite path means a private in-memory database: the tables would vanish on exit.
  const sqlitePath = /^(?:sqlite|file):(.*)$/i.exec(url)?.[1];
  if (sqlitePath !== undefined && (sqlitePath.trim() === "" || sqlitePath === ":memory:"))
    return fail(
      `"${url}" names no database file, so the tables would be created in memory and lost when this command exits. Give a path: --url sqlite:./auth.sqlite`,
    );
  let sql;
  try {
    // The application's own @tessera/sql (and its drivers), not a copy next to this file.
    const from = createRequire(join(resolve("."), "package.json"));
    sql = await import(pathToFileURL(from.resolve("@tessera/sql")).href);
  } catch (cause) {
    return fail(
      `migrate needs the @tessera/sql package in this project: npm install @tessera/sql\n  (${cause instanceof Error ? cause.message : String(cause)})`,
    );
  }
  const { db, dialect } = sql.createDbFromUrl(url);
  try {
    const applied = await sql.migrate(db, { dialect, tablePrefix: values["table-prefix"] });
    process.stdout.write(
      applied.length === 0
        ? `${redact(url)}: Tessera's tables are up to date.\n`
        : `${redact(url)}: applied ${applied.join(", ")}.\n`,
    );
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  } finally {
    await db.destroy();
  }
}

const [command, ...rest] = process.argv.slice(2);
try {
  switch (command) {
    case "secret":
      secret(rest);
      break;
    case "migrate":
      await migrate(rest);
      break;
    case undefined:
      // Without a command there is nothing to do: say how to use it, and fail for scripts.
      fail(`no command given.\n\n${HELP}`);
      break;
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(HELP);
      break;
    default:
      fail(`unknown command "${command}".\n\n${HELP}`);
  }
} catch (error) {
  // parseArgs errors (unknown or malformed options) name the problem; no stack trace needed.
  fail(error instanceof Error ? error.message : String(error));
}
