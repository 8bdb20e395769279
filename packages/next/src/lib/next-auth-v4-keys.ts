/**
 * next-auth v4's encryption keys: HKDF-SHA-256 of the secret, with the salt `""` for session
 * tokens (info `NextAuth.js Generated Encryption Key`) or the cookie's name for other sealed
 * cookies (info `NextAuth.js Generated Encryption Key (<name>)`), 32 bytes for A256GCM.
 * Derived with Web Crypto, so the edge runtime (middleware) derives them too.
 */

const encoder = new TextEncoder();

/** Derived keys, by secret and salt: deriving costs more than decrypting a cookie. */
const cache = new Map<string, Promise<Uint8Array>>();
/** Secrets rotate rarely; the bound only stops a caller's unbounded set of secrets from leaking memory. */
const CACHE_LIMIT = 64;

async function derive(secret: Uint8Array, salt: string): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", secret as BufferSource, "HKDF", false, [
    "deriveBits",
  ]);
  const info = `NextAuth.js Generated Encryption Key${salt ? ` (${salt})` : ""}`;
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode(salt), info: encoder.encode(info) },
    material,
    256,
  );
  return new Uint8Array(bits);
}

/**
 * The 32-byte content encryption key next-auth v4 uses for `secret` and `salt`.
 *
 * @example
 * ```ts
 * const key = await v4EncryptionKey(process.env.NEXTAUTH_SECRET!, "")
 * ```
 */
export function v4EncryptionKey(secret: string | Uint8Array, salt: string): Promise<Uint8Array> {
  if (typeof secret !== "string") return derive(secret, salt);
  const id = `${salt.length}:${salt}:${secret}`;
  let key = cache.get(id);
  if (!key) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    key = derive(encoder.encode(secret), salt);
    // A failed derivation is not remembered: the next call tries again.
    key.catch(() => cache.delete(id));
    cache.set(id, key);
  }
  return key;
}
