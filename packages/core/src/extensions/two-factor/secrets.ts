/**
 * The secrets of a factor: the TOTP key sealed at rest (a JWE under a key derived from the app's
 * secret, rotation-aware like the session cookie: sealed with the newest secret, opened with any
 * configured one), and backup codes, which are stored as hashes only.
 */
import type { AuthContext } from "../../lib/config/internal.js";
import { sha256Hex } from "../../lib/crypto/encoding.js";
import {
  decodeSessionToken,
  encodeSessionToken,
  sharedSessionTokenCache,
} from "../../lib/crypto/jwe.js";
import { base32Decode, base32Encode } from "./totp.js";

/** The HKDF salt of the sealing key: a key of its own, never the session cookie's. */
const SECRET_SALT = "tessera.two-factor.secret";
/** A sealed secret does not expire by itself (the JWE needs an `exp`): a hundred years. */
const SEALED_LIFETIME = 100 * 365 * 24 * 60 * 60;

interface SealedClaims {
  /** The key, base32. */
  k: string;
  /** The user it belongs to: a sealed secret copied to another user's row does not open. */
  sub: string;
}

/** 20 random bytes (160 bits, RFC 4226's recommended key length), base32. */
export function newTotpSecret(): string {
  return base32Encode(crypto.getRandomValues(new Uint8Array(20)));
}

/** `secret` (base32) sealed for storage as `userId`'s. */
export function sealSecret(ctx: AuthContext, userId: string, secret: string): Promise<string> {
  const claims: SealedClaims = { k: secret, sub: userId };
  return encodeSessionToken(
    { token: claims, secret: ctx.config.secrets, salt: SECRET_SALT, maxAge: SEALED_LIFETIME },
    sharedSessionTokenCache,
  );
}

/** The key bytes of `sealed`, or null when it does not open (other secret, other user, tampered). */
export async function openSecret(
  ctx: AuthContext,
  userId: string,
  sealed: string,
): Promise<Uint8Array | null> {
  try {
    const claims = await decodeSessionToken<SealedClaims>(
      { token: sealed, secret: ctx.config.secrets, salt: SECRET_SALT, maxAge: SEALED_LIFETIME },
      sharedSessionTokenCache,
    );
    if (!claims || claims.sub !== userId || typeof claims.k !== "string") return null;
    return base32Decode(claims.k);
  } catch {
    return null;
  }
}

/** The alphabet of backup codes: no 0/O or 1/I/L to mistake on paper. */
const BACKUP_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** A backup code: 10 characters of 31 (about 50 bits), shown as `XXXXX-XXXXX`. */
function newBackupCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  // 256 % 31 = 8: the first eight letters are very slightly likelier; 50 bits stay ample.
  const chars = [...bytes].map((byte) => BACKUP_ALPHABET[byte % BACKUP_ALPHABET.length]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/** `count` fresh backup codes, as shown once to the user. */
export function newBackupCodes(count: number): string[] {
  return Array.from({ length: count }, newBackupCode);
}

/** The form a typed backup code is compared in: case, spaces and dashes do not matter. */
export function normalizeBackupCode(code: string): string {
  return code.replace(/[\s-]/g, "").toUpperCase();
}

/**
 * The stored form of a backup code of `userId`. A fast hash suffices: the codes carry about 50
 * random bits, beyond guessing offline, and unlike the secret-keyed seal it survives rotation.
 */
export async function hashBackupCode(userId: string, code: string): Promise<string> {
  return sha256Hex(`tessera.backup-code\0${userId}\0${normalizeBackupCode(code)}`);
}
