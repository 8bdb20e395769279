/**
 * Session-key derivation, identical to Auth.js v5 so that cookies stay readable both ways:
 * HKDF-SHA-256 (RFC 5869) with ikm = secret, salt = the cookie name,
 * info = `Auth.js Generated Encryption Key (<salt>)`; 64 bytes for A256CBC-HS512, 32 for A256GCM.
 * The key id is the RFC 7638 thumbprint of `{kty: "oct", k}` (SHA-512 for 64-byte keys).
 */
import { base64url, utf8 } from "./encoding.js";
import { hasNodeCrypto, nodeCrypto } from "./node.js";

/** Content-encryption algorithms Tessera reads; it writes A256CBC-HS512. */
export type ContentEncryption = "A256CBC-HS512" | "A256GCM";

/** A derived key and its thumbprint (`kid`). */
export interface DerivedKey {
  enc: ContentEncryption;
  key: Uint8Array;
  kid: string;
}

const KEY_LENGTH: Record<ContentEncryption, number> = { "A256CBC-HS512": 64, A256GCM: 32 };

/** Bounded so that a process with many secrets or salts cannot grow memory without end. */
const MAX_CACHED_KEYS = 512;
type CachedKey = DerivedKey | Promise<DerivedKey>;

function info(salt: string): string {
  return `Auth.js Generated Encryption Key (${salt})`;
}

function thumbprintInput(key: Uint8Array): Uint8Array<ArrayBuffer> {
  // RFC 7638 §3.2: required members only, lexicographic order, no whitespace.
  return utf8(`{"k":"${base64url(key)}","kty":"oct"}`);
}

function deriveWithNode(enc: ContentEncryption, secret: string, salt: string): DerivedKey {
  const crypto = nodeCrypto()!;
  const length = KEY_LENGTH[enc];
  const key = new Uint8Array(crypto.hkdfSync("sha256", secret, salt, info(salt), length));
  const digest = crypto
    .createHash(length === 64 ? "sha512" : "sha256")
    .update(thumbprintInput(key));
  return { enc, key, kid: digest.digest("base64url") };
}

async function deriveWithWebCrypto(
  enc: ContentEncryption,
  secret: string,
  salt: string,
): Promise<DerivedKey> {
  const length = KEY_LENGTH[enc];
  const ikm = await crypto.subtle.importKey("raw", utf8(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: utf8(salt), info: utf8(info(salt)) },
    ikm,
    length * 8,
  );
  const key = new Uint8Array(bits);
  const digest = await crypto.subtle.digest(
    length === 64 ? "SHA-512" : "SHA-256",
    thumbprintInput(key),
  );
  return { enc, key, kid: base64url(new Uint8Array(digest)) };
}

/** Which implementation derives keys: `node:crypto` where present, else WebCrypto. */
export type CryptoEngine = "node" | "web";

/**
 * The engine in use on this runtime, decided without loading `node:crypto` (a runtime whose
 * `node:crypto` then fails to load falls back to WebCrypto where the engine is used).
 */
export const defaultEngine: CryptoEngine = hasNodeCrypto() ? "node" : "web";

/**
 * Derived keys, cached per (engine, algorithm, salt, secret): derivation is the most expensive
 * step of reading a session. Each resolved config owns one, so configs never share keys; the
 * public `encode`/`decode`/`getToken` share {@link sharedKeyCache}. Bounded: when full it starts
 * over.
 *
 * @example
 * ```ts
 * const keys = new KeyCache()
 * const { key, kid } = await keys.derive("A256CBC-HS512", process.env.AUTH_SECRET!, "authjs.session-token")
 * ```
 */
export class KeyCache {
  /**
   * salt → secret → one slot per engine and algorithm. Nested maps rather than one map keyed by
   * a joined string: a lookup builds and hashes no new string (config strings keep their hash).
   */
  readonly #bySalt = new Map<string, Map<string, (CachedKey | undefined)[]>>();
  #size = 0;

  constructor(readonly limit = MAX_CACHED_KEYS) {}

  /** How many keys are cached. */
  get size(): number {
    return this.#size;
  }

  /**
   * The key for `secret` and `salt`: synchronous with `node:crypto` (the fast path: a session
   * read then never waits), a promise with WebCrypto.
   */
  derive(
    enc: ContentEncryption,
    secret: string,
    salt: string,
    engine: CryptoEngine = defaultEngine,
  ): DerivedKey | Promise<DerivedKey> {
    const useNode = engine === "node" && nodeCrypto() !== undefined;
    const slot = (useNode ? 0 : 2) + (enc === "A256GCM" ? 1 : 0);
    let bySecret = this.#bySalt.get(salt);
    let slots = bySecret?.get(secret);
    const hit = slots?.[slot];
    if (hit) return hit;
    if (this.#size >= this.limit) {
      this.#bySalt.clear();
      this.#size = 0;
      bySecret = undefined;
      slots = undefined;
    }
    if (!bySecret) {
      bySecret = new Map();
      this.#bySalt.set(salt, bySecret);
    }
    if (!slots) {
      slots = [];
      bySecret.set(secret, slots);
    }
    const derived = useNode
      ? deriveWithNode(enc, secret, salt)
      : deriveWithWebCrypto(enc, secret, salt);
    const stored = slots;
    stored[slot] = derived;
    this.#size++;
    if (derived instanceof Promise)
      derived.catch(() => {
        if (stored[slot] === derived) stored[slot] = undefined;
      });
    return derived;
  }
}

/** The key cache of the public `encode`/`decode`/`getToken`, which run without a config. */
export const sharedKeyCache = new KeyCache();

/**
 * `sharedKeyCache.derive`: the key for `secret` and `salt`, for callers without a config.
 *
 * @example
 * ```ts
 * const { kid } = await deriveKey("A256CBC-HS512", process.env.AUTH_SECRET!, "authjs.session-token")
 * ```
 */
export function deriveKey(
  enc: ContentEncryption,
  secret: string,
  salt: string,
  engine: CryptoEngine = defaultEngine,
): DerivedKey | Promise<DerivedKey> {
  return sharedKeyCache.derive(enc, secret, salt, engine);
}
