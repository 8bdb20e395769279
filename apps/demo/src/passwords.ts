/**
 * Password hashing with scrypt from `node:crypto` (RFC 7914): a memory-hard function, so guessing
 * a leaked hash costs memory as well as time. The stored form names its parameters, so they can
 * be raised later without breaking existing hashes.
 *
 * The demo's format from before `@tessera/core/password`: kept so that those hashes still verify
 * (the `Password` provider's `verifyPassword` hook), each re-hashed at its user's next sign-in.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/** N = 2^15, r = 8, p = 1: about 32 MiB and tens of milliseconds per hash. */
const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128·N·r bytes, or Node refuses the parameters.
    scrypt(password, salt, KEY_LENGTH, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * Hashes a password into `scrypt$N$r$p$<salt>$<hash>` (salt and hash in base64url).
 *
 * @example
 * ```ts
 * const stored = await hashPassword("tessera-demo")
 * await verifyPassword("tessera-demo", stored) // true
 * ```
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = PARAMETERS;
  const key = await derive(password, salt, { N, r, p });
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/**
 * Whether `password` matches a hash from {@link hashPassword}. A malformed hash never matches.
 *
 * @example
 * ```ts
 * if (!(await verifyPassword(submitted, row.hash))) return null
 * ```
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(options).every((value) => Number.isSafeInteger(value) && value > 0))
    return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), options);
  // Timing attack defence: the comparison takes the same time wherever the bytes differ.
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
