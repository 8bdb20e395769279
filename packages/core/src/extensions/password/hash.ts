/**
 * Password hashing: scrypt, stored as a PHC string (`$scrypt$ln=17,r=8,p=1$<salt>$<hash>`,
 * unpadded base64). The parameters travel with every hash, so a hash made with older parameters
 * still verifies and is flagged for re-hashing at the next sign-in. Passwords are normalised
 * (NFKC) first, so one typed password has one hash whichever keyboard or input method composed it.
 *
 * scrypt comes from `node:crypto` where there is one (Node.js, Bun, Deno: native and off the main
 * thread). scrypt is not part of WebCrypto, so elsewhere (workerd, the Edge runtime) it comes
 * from `@noble/hashes` (an optional peer: audited, dependency-free, the same function), loaded
 * only there. Both compute RFC 7914 scrypt, so a hash made on one runtime verifies on the other.
 *
 * Hashes of users moving from another system verify too and are re-hashed to scrypt at their next
 * sign-in: Argon2id through `@noble/hashes`, bcrypt through `bcryptjs` (pure JavaScript, so it
 * runs on every runtime; an optional peer loaded only when a bcrypt hash is met).
 */
import { PasswordHashUnavailable } from "../../errors.js";
import { base64url, fromBase64url, nodeCrypto } from "../../lib/crypto/encoding.js";

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

/**
 * Checks a hash made elsewhere (bcrypt, PBKDF2, a system you are moving from): true when
 * `password` is the one `stored` was made from. Passed as `Password({ verifyPassword })`.
 */
export type ForeignHashCheck = (password: string, stored: string) => Promise<boolean> | boolean;

/** What checking a password against a stored hash found. */
export interface PasswordCheck {
  valid: boolean;
  /** The hash was made with other parameters (or another scheme): store a new one. */
  needsRehash: boolean;
}

/** PHC's base64: the standard alphabet, unpadded. */
function b64(bytes: Uint8Array): string {
  return base64url(bytes).replace(/-/g, "+").replace(/_/g, "/");
}

function fromB64(text: string): Uint8Array {
  return fromBase64url(text.replace(/\+/g, "-").replace(/\//g, "_"));
}

/** One scrypt implementation: `node:crypto`'s, or `@noble/hashes`'s. */
type ScryptEngine = (
  password: Uint8Array,
  salt: Uint8Array,
  params: { N: number; r: number; p: number; maxmem: number },
) => Promise<Uint8Array>;

/** `node:crypto`'s scrypt, or undefined on runtimes without it. */
export function nodeScrypt(): ScryptEngine | undefined {
  const crypto = nodeCrypto();
  if (!crypto) return undefined;
  return (password, salt, { N, r, p, maxmem }) =>
    new Promise((resolve, reject) =>
      crypto.scrypt(password, salt, KEY_BYTES, { N, r, p, maxmem }, (error, key) =>
        error ? reject(error) : resolve(new Uint8Array(key)),
      ),
    );
}

/** `@noble/hashes`'s scrypt, loaded on first use. */
export async function nobleScrypt(): Promise<ScryptEngine> {
  let noble: typeof import("@noble/hashes/scrypt.js");
  try {
    noble = await import("@noble/hashes/scrypt.js");
  } catch (cause) {
    throw new PasswordHashUnavailable(
      "Password hashing needs scrypt: this runtime has no node:crypto, so install @noble/hashes (npm install @noble/hashes), or run the password routes on Node.js, Bun or Deno.",
      { cause },
    );
  }
  return (password, salt, { N, r, p, maxmem }) =>
    noble.scryptAsync(password, salt, { N, r, p, dkLen: KEY_BYTES, maxmem });
}

let engine: Promise<ScryptEngine> | undefined;

function scryptEngine(): Promise<ScryptEngine> {
  const native = nodeScrypt();
  if (native) return Promise.resolve(native);
  engine ??= nobleScrypt().catch((error: unknown) => {
    engine = undefined;
    throw error;
  });
  return engine;
}

/** Constant time for equal lengths: how many bytes match says nothing to a timer. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}

async function scrypt(
  password: string,
  salt: Uint8Array,
  params: ScryptParams,
  use?: ScryptEngine,
): Promise<Uint8Array> {
  const N = 2 ** params.ln;
  // scrypt needs 128·N·r bytes; node's default ceiling (32 MiB) is below OWASP's parameters.
  const maxmem = 128 * N * params.r * params.p + 32 * 1024 * 1024;
  const run = use ?? (await scryptEngine());
  const bytes = new TextEncoder().encode(password.normalize("NFKC"));
  return run(bytes, salt, { N, r: params.r, p: params.p, maxmem });
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
    salt: fromB64(salt),
    key: fromB64(key),
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
  foreign?: ForeignHashCheck,
): Promise<PasswordCheck> {
  const parsed = parseScryptHash(stored);
  // Users moving from another system keep their passwords; the next sign-in re-hashes to scrypt.
  if (!parsed && stored.startsWith("$argon2id$")) {
    const valid = await verifyArgon2id(password, stored);
    return { valid, needsRehash: valid };
  }
  if (!parsed && BCRYPT.test(stored)) {
    const valid = await verifyBcrypt(password, stored);
    return { valid, needsRehash: valid };
  }
  if (!parsed && foreign && !stored.startsWith("$scrypt$")) {
    const valid = (await foreign(password, stored)) === true;
    return { valid, needsRehash: valid };
  }
  if (!parsed) {
    // Still pay for one hash: a malformed row must not answer faster than a real one.
    await dummyCheck(password, current);
    return { valid: false, needsRehash: false };
  }
  const key = await scrypt(password, parsed.salt, parsed.params);
  const valid = sameBytes(key, parsed.key);
  return { valid, needsRehash: valid && !sameParams(parsed.params, current) };
}

/**
 * Runs scrypt with `params` over `password` and a fresh salt, so that a sign-in for an address
 * without an account costs what one with an account costs (account enumeration by timing): the
 * same key derivation as {@link verifyPassword}, the same parameters, and no one-off work on the
 * first call (a dummy hash made lazily would make the first unknown address twice as slow).
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
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const key = await scrypt(password, salt, params);
  // The compare a real check makes, against bytes no password derives to.
  sameBytes(key, new Uint8Array(KEY_BYTES));
  return false;
}

/**
 * Checks an Argon2id PHC string (`$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>`, what the argon2
 * reference implementation, `argon2` and `@node-rs/argon2` write) with `@noble/hashes`.
 */
async function verifyArgon2id(password: string, stored: string): Promise<boolean> {
  const match =
    /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(
      stored,
    );
  if (!match) return false;
  const [, m, t, p, salt = "", hash = ""] = match;
  const cost = { m: Number(m), t: Number(t), p: Number(p) };
  // Memory exhaustion: a tampered row must not make one sign-in allocate gigabytes.
  if (cost.m > 512 * 1024 || cost.t < 1 || cost.p < 1 || cost.m < 8 * cost.p) return false;
  let noble: typeof import("@noble/hashes/argon2.js");
  try {
    noble = await import("@noble/hashes/argon2.js");
  } catch (cause) {
    throw new PasswordHashUnavailable(
      "An Argon2id password hash needs @noble/hashes to verify: npm install @noble/hashes.",
      { cause },
    );
  }
  const expected = fromB64(hash);
  const key = await noble.argon2idAsync(
    new TextEncoder().encode(password.normalize("NFKC")),
    fromB64(salt),
    { ...cost, dkLen: expected.length, maxmem: cost.m * 1024 + 32 * 1024 * 1024 },
  );
  return sameBytes(key, expected);
}

/** A bcrypt hash (`$2a$`, `$2b$`, `$2y$`, a two-digit cost, 53 characters of salt and hash). */
const BCRYPT = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;

/**
 * The highest bcrypt cost accepted: 2^16 rounds take seconds already; a tampered row with cost 31
 * would hold a core for days (denial of service).
 */
const MAX_BCRYPT_COST = 16;

/**
 * Checks a bcrypt hash (what `bcrypt`, `bcryptjs`, PHP's `password_hash`, Devise and Django's
 * `BCryptPasswordHasher` write) with `bcryptjs`, an optional peer loaded only when such a hash is
 * met. The password is compared as typed: the systems that made these hashes did not normalise.
 */
async function verifyBcrypt(password: string, stored: string): Promise<boolean> {
  const cost = Number(BCRYPT.exec(stored)?.[1]);
  if (!(cost >= 4 && cost <= MAX_BCRYPT_COST)) return false;
  let bcrypt: typeof import("bcryptjs").default;
  try {
    bcrypt = (await import("bcryptjs")).default;
  } catch (cause) {
    throw new PasswordHashUnavailable(
      "A bcrypt password hash needs bcryptjs to verify: npm install bcryptjs.",
      { cause },
    );
  }
  return bcrypt.compare(password, stored);
}
