/**
 * Password hashing: scrypt through `node:crypto`, stored as a PHC string
 * (`$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, unpadded base64). The parameters travel with every hash,
 * so a hash made with older parameters still verifies and is flagged for re-hashing at the next
 * sign-in. Passwords are normalised (NFKC) first, so one typed password has one hash whichever
 * keyboard or input method composed it.
 *
 * Runtimes without `node:crypto` (workerd, the Edge runtime) get a `PasswordHashUnavailable`
 * error that names the fix: scrypt is not part of WebCrypto.
 */
import { PasswordHashUnavailable } from "../../errors.js";
import { nodeCrypto } from "../../lib/crypto/node.js";

/** scrypt's cost parameters. */
export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  ln: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

/**
 * OWASP's Password Storage Cheat Sheet minimum for scrypt: N=2^17, r=8, p=1 (128 MiB, about a
 * third of a second on one server core).
 */
export const DEFAULT_SCRYPT: ScryptParams = { ln: 17, r: 8, p: 1 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** What checking a password against a stored hash found. */
export interface PasswordCheck {
  valid: boolean;
  /** The hash was made with other parameters (or another scheme): store a new one. */
  needsRehash: boolean;
}

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64").replace(/=+$/, "");
}

function scrypt(password: string, salt: Uint8Array, params: ScryptParams): Promise<Uint8Array> {
  const crypto = nodeCrypto;
  if (!crypto)
    throw new PasswordHashUnavailable(
      "Password hashing needs scrypt from node:crypto, which this runtime lacks: run the password routes on Node.js, Bun or Deno.",
    );
  const N = 2 ** params.ln;
  // scrypt needs 128·N·r bytes; node's default ceiling (32 MiB) is below OWASP's parameters.
  const maxmem = 128 * N * params.r * params.p + 32 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    crypto.scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_BYTES,
      { N, r: params.r, p: params.p, maxmem },
      (error, key) => (error ? reject(error) : resolve(new Uint8Array(key))),
    );
  });
}

/**
 * A new PHC string for `password` with a fresh random salt.
 *
 * @example
 * ```ts
 * const stored = await hashPassword("correct horse battery staple")
 * // "$scrypt$ln=17,r=8,p=1$…$…"
 * ```
 */
export async function hashPassword(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const key = await scrypt(password, salt, params);
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${b64(salt)}$${b64(key)}`;
}

interface ParsedHash {
  params: ScryptParams;
  salt: Uint8Array;
  key: Uint8Array;
}

/** The parts of a scrypt PHC string, or null when `stored` is not one this code made. */
export function parseScryptHash(stored: string): ParsedHash | null {
  const match =
    /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(
      stored,
    );
  if (!match) return null;
  const [, ln, r, p, salt = "", key = ""] = match;
  const params = { ln: Number(ln), r: Number(r), p: Number(p) };
  // A tampered row must not make one sign-in allocate gigabytes (memory exhaustion).
  if (params.ln < 1 || params.ln > 22 || params.r < 1 || params.p < 1 || params.p > 16) return null;
  return {
    params,
    salt: new Uint8Array(Buffer.from(salt, "base64")),
    key: new Uint8Array(Buffer.from(key, "base64")),
  };
}

function sameParams(a: ScryptParams, b: ScryptParams): boolean {
  return a.ln === b.ln && a.r === b.r && a.p === b.p;
}

/**
 * Checks `password` against a stored PHC string in constant time. A hash made with parameters
 * other than `current` verifies as before and answers `needsRehash`.
 *
 * @example
 * ```ts
 * const { valid, needsRehash } = await verifyPassword(typed, stored)
 * if (valid && needsRehash) await save(await hashPassword(typed))
 * ```
 */
export async function verifyPassword(
  password: string,
  stored: string,
  current: ScryptParams = DEFAULT_SCRYPT,
): Promise<PasswordCheck> {
  const parsed = parseScryptHash(stored);
  if (!parsed) {
    // Still pay for one hash: a malformed row must not answer faster than a real one.
    await dummyCheck(password, current);
    return { valid: false, needsRehash: false };
  }
  const key = await scrypt(password, parsed.salt, parsed.params);
  const valid =
    key.length === parsed.key.length && (nodeCrypto?.timingSafeEqual(key, parsed.key) ?? false);
  return { valid, needsRehash: valid && !sameParams(parsed.params, current) };
}

const dummies = new Map<string, Promise<string>>();

/**
 * Hashes `password` against a throw-away hash with `params`, so that a sign-in for an address
 * without an account costs what one with an account costs (account enumeration by timing).
 * Always answers false.
 *
 * @example
 * ```ts
 * if (!stored) { await dummyCheck(typed); return refused() }
 * ```
 */
export async function dummyCheck(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<false> {
  const id = `${params.ln},${params.r},${params.p}`;
  let dummy = dummies.get(id);
  if (!dummy) {
    dummy = hashPassword("tessera dummy password", params);
    dummies.set(id, dummy);
  }
  const parsed = parseScryptHash(await dummy);
  if (parsed) await scrypt(password, parsed.salt, parsed.params);
  return false;
}
