/**
 * AUTH_SECRET generation and `.env` editing, shared by `tessera secret` and the demo's start-up.
 * Plain JavaScript so that the CLI runs without a build.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** Matches an `AUTH_SECRET=` assignment line (optionally `export`ed) in a dotenv file. */
const SECRET_LINE = /^[ \t]*(?:export[ \t]+)?AUTH_SECRET[ \t]*=.*$/m;

/**
 * A new secret: 32 random bytes (256 bits), base64, as `openssl rand -base64 32` prints.
 *
 * @example
 * ```js
 * generateSecret() // "k3Jw…=" (44 characters)
 * ```
 * @returns {string}
 */
export function generateSecret() {
  return randomBytes(32).toString("base64");
}

/**
 * Whether a dotenv file assigns AUTH_SECRET.
 *
 * @param {string} file
 * @returns {boolean}
 */
export function hasEnvSecret(file) {
  return existsSync(file) && SECRET_LINE.test(readFileSync(file, "utf8"));
}

/**
 * Writes `AUTH_SECRET="<secret>"` into a dotenv file: appended (the file is created, readable by
 * its owner only, when missing), or replacing an existing assignment when `force` is set.
 * Returns what happened; `"kept"` means the file already had a secret and nothing was written.
 *
 * @example
 * ```js
 * writeEnvSecret(".env", generateSecret()) // "added" | "replaced" | "kept"
 * ```
 * @param {string} file
 * @param {string} secret
 * @param {{ force?: boolean }} [options]
 * @returns {"added" | "replaced" | "kept"}
 */
export function writeEnvSecret(file, secret, options = {}) {
  const line = `AUTH_SECRET="${secret}"`;
  if (!existsSync(file)) {
    writeFileSync(file, `${comment()}${line}\n`, { mode: 0o600 });
    return "added";
  }
  const content = readFileSync(file, "utf8");
  if (SECRET_LINE.test(content)) {
    if (!options.force) return "kept";
    writeFileSync(
      file,
      content.replace(SECRET_LINE, () => line),
    );
    return "replaced";
  }
  const separator = content === "" || content.endsWith("\n") ? "" : "\n";
  writeFileSync(file, `${content}${separator}${comment()}${line}\n`);
  return "added";
}

function comment() {
  return "# Encrypts and signs Tessera's cookies and tokens; keep it private. New one: npx tessera secret\n";
}
