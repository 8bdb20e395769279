/**
 * JWT sessions as compact JWE (RFC 7516, https://www.rfc-editor.org/rfc/rfc7516) with
 * `alg: "dir"`. Writes A256CBC-HS512, reads it and A256GCM (RFC 7518 §5.2.5, §5.3,
 * https://www.rfc-editor.org/rfc/rfc7518#section-5), exactly as Auth.js v5 does, from the key
 * derivation to the `encode`/`decode` that configs and `@tessera/core/jwt` use, in that order.
 *
 * Two engines produce and accept the same tokens: `node:crypto` (many times faster on Node) and
 * WebCrypto (edge runtimes). Both are written here against the RFCs rather than through a JOSE
 * library, so that an app's bundle carries only the one JWE form sessions use.
 *
 * Session-key derivation is identical to Auth.js v5 so that cookies stay readable both ways:
 * HKDF-SHA-256 (RFC 5869) with ikm = secret, salt = the cookie name,
 * info = `Auth.js Generated Encryption Key (<salt>)`; 64 bytes for A256CBC-HS512, 32 for A256GCM.
 * The key id is the RFC 7638 thumbprint of `{kty: "oct", k}` (SHA-512 for 64-byte keys).
 */
import { MissingSecret } from "../../errors.js";
import type { JWT, JWTDecodeParams, JWTEncodeParams, JWTOptions } from "../../types.js";
import {
  base64url,
  fromBase64url,
  fromBase64urlView,
  fromUtf8,
  hasNodeCrypto,
  nodeCrypto,
  utf8,
} from "./encoding.js";

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

// Compact JWE, both engines (RFC 7516 §7.1, RFC 7518 §5).

/** Seconds of clock skew tolerated when checking `exp`/`nbf`. */
export const CLOCK_TOLERANCE = 15;

const WRITE_ENC: ContentEncryption = "A256CBC-HS512";

/** Why a token was refused. The message never contains the token. */
export class TokenDecryptionError extends Error {
  readonly code:
    | "malformed"
    | "unsupported"
    | "no-matching-secret"
    | "decryption-failed"
    | "expired"
    | "not-yet-valid"
    | "invalid-claims";
  constructor(code: TokenDecryptionError["code"], message: string) {
    super(message);
    this.name = "TokenDecryptionError";
    this.code = code;
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * AL of RFC 7518 §5.2.2.1: the AAD length in bits, as a 64-bit big-endian integer.
 *
 * @example
 * ```ts
 * aadLengthBits(new Uint8Array(42)) // 00 00 00 00 00 00 01 50
 * ```
 */
export function aadLengthBits(aad: Uint8Array): Uint8Array {
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  const bits = aad.byteLength * 8;
  view.setUint32(0, Math.floor(bits / 2 ** 32));
  view.setUint32(4, bits >>> 0);
  return out;
}

/**
 * The HMAC-SHA-512 tag of A256CBC-HS512 (RFC 7518 §5.2.2.1), fed part by part (no copies).
 *
 * @example
 * ```ts
 * const tag = cbcHmacTag(key.subarray(0, 32), protectedHeader, iv, ciphertext) // 32 bytes
 * ```
 */
export function cbcHmacTag(
  macKey: Uint8Array,
  header: ProtectedHeader,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Uint8Array {
  return nodeCrypto()!
    .createHmac("sha512", macKey)
    .update(header.aad)
    .update(iv)
    .update(ciphertext)
    .update(header.aadLengthBits)
    .digest()
    .subarray(0, 32);
}

/** A protected header, decoded, with the AAD derived from it. */
export interface ProtectedHeader {
  encoded: string;
  header: ParsedJwe["header"];
  aad: Uint8Array;
  aadLengthBits: Uint8Array;
}

/**
 * What session-token work memoises: derived keys, and the last protected header seen (every token
 * made with one key carries the same header; a single entry, so hostile tokens cannot grow it).
 * Each resolved config owns one; the public `encode`/`decode`/`getToken` share
 * {@link sharedSessionTokenCache}.
 *
 * @example
 * ```ts
 * const cache = new SessionTokenCache()
 * await encryptSessionToken({ sub: "42" }, [secret], "authjs.session-token", 3600, undefined, cache)
 * ```
 */
export class SessionTokenCache {
  readonly keys = new KeyCache();
  lastHeader: ProtectedHeader | undefined;
}

/** The cache of callers without a config of their own. */
export const sharedSessionTokenCache = new SessionTokenCache();

/** The protected header `encoded`, decoded (unless the writer passes it) and memoised. */
function protectedHeader(
  encoded: string,
  cache: SessionTokenCache,
  header?: ParsedJwe["header"],
): ProtectedHeader {
  const last = cache.lastHeader;
  if (last?.encoded === encoded) return last;
  const aad = utf8(encoded);
  const decoded: ProtectedHeader = {
    encoded,
    header: header ?? JSON.parse(fromUtf8(fromBase64url(encoded))),
    aad,
    aadLengthBits: aadLengthBits(aad),
  };
  cache.lastHeader = decoded;
  return decoded;
}

/** Standard claims added to every session token. */
function withStandardClaims(token: Record<string, unknown>, maxAge: number) {
  const iat = nowSeconds();
  return { ...token, iat, exp: iat + maxAge, jti: crypto.randomUUID() };
}

// --- node:crypto engine -----------------------------------------------------------------------

function encryptNode(
  claims: Record<string, unknown>,
  key: Uint8Array,
  kid: string,
  cache: SessionTokenCache,
): string {
  const crypto = nodeCrypto()!;
  const fields = { alg: "dir", enc: WRITE_ENC, kid };
  const header = protectedHeader(base64url(utf8(JSON.stringify(fields))), cache, fields);
  const iv = crypto.randomBytes(16);
  const cipher = crypto.createCipheriv("aes-256-cbc", key.subarray(32, 64), iv);
  const plaintext = utf8(JSON.stringify(claims));
  const ciphertext = concat(cipher.update(plaintext), cipher.final());
  const mac = cbcHmacTag(key.subarray(0, 32), header, iv, ciphertext);
  return `${header.encoded}..${base64url(iv)}.${base64url(ciphertext)}.${base64url(mac)}`;
}

/** A compact JWE split into its parts (exported, like the primitives, for the RFC test vectors). */
export interface ParsedJwe {
  header: { alg?: unknown; enc?: unknown; kid?: unknown; zip?: unknown; crit?: unknown };
  protectedHeader: ProtectedHeader;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
}

function parseCompact(token: string, cache: SessionTokenCache): ParsedJwe {
  const parts = token.split(".");
  if (parts.length !== 5 || parts[1] !== "")
    throw new TokenDecryptionError("malformed", "not a compact JWE with direct encryption");
  const [encodedHeader = "", , iv = "", ciphertext = "", tag = ""] = parts;
  try {
    const decoded = protectedHeader(encodedHeader, cache);
    return {
      header: decoded.header,
      protectedHeader: decoded,
      // Read once by the cipher and dropped: no copy out of the buffer pool is needed.
      iv: fromBase64urlView(iv),
      ciphertext: fromBase64urlView(ciphertext),
      tag: fromBase64urlView(tag),
    };
  } catch {
    throw new TokenDecryptionError("malformed", "the JWE is not well-formed");
  }
}

/**
 * Authenticates, then decrypts, with `node:crypto` (RFC 7518 §5.2.2.2 and §5.3). Throws
 * {@link TokenDecryptionError} when the tag does not match.
 *
 * @example
 * ```ts
 * const plaintext = decryptNode(parseCompact(token), "A256CBC-HS512", key)
 * ```
 */
export function decryptNode(
  parsed: ParsedJwe,
  enc: ContentEncryption,
  key: Uint8Array,
): Uint8Array {
  const crypto = nodeCrypto()!;
  try {
    if (enc === "A256CBC-HS512") {
      if (parsed.iv.byteLength !== 16 || parsed.tag.byteLength !== 32) throw new Error("length");
      const mac = cbcHmacTag(
        key.subarray(0, 32),
        parsed.protectedHeader,
        parsed.iv,
        parsed.ciphertext,
      );
      // Authenticate before decrypting: no padding oracle (Vaudenay's CBC attack).
      if (!crypto.timingSafeEqual(mac, parsed.tag)) throw new Error("tag");
      const decipher = crypto.createDecipheriv("aes-256-cbc", key.subarray(32, 64), parsed.iv);
      return concat(decipher.update(parsed.ciphertext), decipher.final());
    }
    if (parsed.iv.byteLength !== 12 || parsed.tag.byteLength !== 16) throw new Error("length");
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, parsed.iv, { authTagLength: 16 });
    decipher.setAAD(parsed.protectedHeader.aad);
    decipher.setAuthTag(parsed.tag);
    return concat(decipher.update(parsed.ciphertext), decipher.final());
  } catch {
    throw new TokenDecryptionError("decryption-failed", "the JWE could not be decrypted");
  }
}

/** Options of {@link decryptSessionToken}. */
export interface DecryptOptions {
  /**
   * The session's lifetime in seconds. When set, the token ends at `iat + maxAge` even if its
   * `exp` is later, and a token with neither `iat` nor `exp` is refused.
   */
  maxAge?: number;
}

/**
 * When a session token stops being valid, in seconds since the epoch: its `exp`, capped at
 * `iat + maxAge`. A token without `iat` is bounded by its `exp` alone. `undefined` when the token
 * carries neither.
 *
 * @example
 * ```ts
 * sessionTokenEnd({ iat: 1000, exp: 999999 }, 3600) // 4600
 * ```
 */
export function sessionTokenEnd(
  claims: { iat?: unknown; exp?: unknown },
  maxAge: number,
): number | undefined {
  const exp = typeof claims.exp === "number" ? claims.exp : undefined;
  const cap = typeof claims.iat === "number" ? claims.iat + maxAge : undefined;
  if (exp === undefined) return cap;
  return cap === undefined ? exp : Math.min(exp, cap);
}

// A hard end for one session, whatever its strategy and however often it is read: the claim
// `sxp` (seconds since the epoch), beside `sst` (when the session started). A session that
// carries it reads as signed out from then on, and is never extended past it. Sessions of a
// limited purpose (an administrator's impersonation of a user) carry it; ordinary sessions do
// not, and roll with `updateAge` as before. Unlike `exp`, reaching it is not a decoding error:
// the session reads as ended, so that the readers can clear it.

/** The claim that ends a session at a fixed time (seconds since the epoch). */
export const SESSION_END_CLAIM = "sxp";

/**
 * The end of the session whose claims are `claims`, in milliseconds since the epoch, or
 * undefined when it has none (a session that rolls on with use).
 *
 * @example
 * ```ts
 * const end = sessionEndOf(token) // 1767225600000
 * ```
 */
export function sessionEndOf(
  claims: Record<string, unknown> | null | undefined,
): number | undefined {
  const end = claims?.[SESSION_END_CLAIM];
  return typeof end === "number" && Number.isFinite(end) ? end * 1000 : undefined;
}

/**
 * Whether the session whose claims are `claims` has passed its hard end.
 *
 * @example
 * ```ts
 * if (sessionEnded(token)) return signedOut()
 * ```
 */
export function sessionEnded(
  claims: Record<string, unknown> | null | undefined,
  now = Date.now(),
): boolean {
  const end = sessionEndOf(claims);
  return end !== undefined && end <= now;
}

function validateClaims(payload: unknown, options: DecryptOptions): Record<string, unknown> {
  if (!payload || typeof payload !== "object" || Array.isArray(payload))
    throw new TokenDecryptionError("invalid-claims", "the JWT payload is not an object");
  const claims = payload as Record<string, unknown>;
  const now = nowSeconds();
  for (const name of ["exp", "iat", "nbf"] as const) {
    // JSON allows 1e999 (Infinity): a token that would never expire.
    if (name in claims && !Number.isFinite(claims[name]))
      throw new TokenDecryptionError("invalid-claims", `the "${name}" claim is not a number`);
  }
  const { maxAge } = options;
  const exp = typeof claims.exp === "number" ? claims.exp : undefined;
  let issuedAt = typeof claims.iat === "number" ? claims.iat : undefined;
  // Without `iat`, a token that ends at `exp` cannot have been issued before `exp - maxAge`.
  if (issuedAt === undefined && maxAge !== undefined && exp !== undefined) issuedAt = exp - maxAge;
  // Forged or mis-stamped lifetime: a token "issued" in the future would never come due for
  // renewal nor reach its cap (RFC 7519 §4.1.6; same skew as `exp`).
  if (issuedAt !== undefined && issuedAt > now + CLOCK_TOLERANCE)
    throw new TokenDecryptionError("not-yet-valid", "the JWT was issued in the future");
  const end = maxAge === undefined ? exp : sessionTokenEnd(claims, maxAge);
  if (maxAge !== undefined && end === undefined)
    throw new TokenDecryptionError("invalid-claims", "the session JWT has neither iat nor exp");
  if (end !== undefined && end <= now - CLOCK_TOLERANCE)
    throw new TokenDecryptionError("expired", "the JWT has expired");
  if (typeof claims.nbf === "number" && claims.nbf > now + CLOCK_TOLERANCE)
    throw new TokenDecryptionError("not-yet-valid", "the JWT is not valid yet");
  return claims;
}

// --- engine selection ------------------------------------------------------------------------

/**
 * Encrypts `token` plus `iat`, `exp` and `jti` with the first secret.
 *
 * @example
 * ```ts
 * const jwe = await encryptSessionToken({ sub: "42" }, ["s3cret…"], "authjs.session-token", 2592000)
 * ```
 */
export async function encryptSessionToken(
  token: Record<string, unknown>,
  secrets: readonly string[],
  salt: string,
  maxAge: number,
  engine: CryptoEngine = defaultEngine,
  cache: SessionTokenCache = sharedSessionTokenCache,
): Promise<string> {
  const secret = secrets[0];
  if (!secret) throw new TypeError("a secret is required to encrypt a session token");
  const claims = withStandardClaims(token, maxAge);
  const derived = await cache.keys.derive(WRITE_ENC, secret, salt, engine);
  if (engine === "node" && nodeCrypto())
    return encryptNode(claims, derived.key, derived.kid, cache);
  return encryptWeb(claims, derived.key, derived.kid, cache);
}

/**
 * The key that decrypts a token with key id `kid`: the secret whose derived key has that id, or
 * the first secret for a token without `kid` (written by an old version). Synchronous while the
 * keys derive synchronously (`node:crypto`: the fast path, so a session read never waits), a
 * promise otherwise.
 */
function selectKey(
  kid: unknown,
  enc: ContentEncryption,
  secrets: readonly string[],
  salt: string,
  engine: CryptoEngine,
  cache: SessionTokenCache,
): Uint8Array | Promise<Uint8Array> {
  if (kid === undefined) {
    const first = secrets[0];
    if (!first) throw new TokenDecryptionError("no-matching-secret", "no secret configured");
    const derived = cache.keys.derive(enc, first, salt, engine);
    return derived instanceof Promise ? derived.then(({ key }) => key) : derived.key;
  }
  const fromIndex = (index: number): Uint8Array | Promise<Uint8Array> => {
    for (let i = index; i < secrets.length; i++) {
      const derived = cache.keys.derive(enc, secrets[i] as string, salt, engine);
      if (derived instanceof Promise)
        return derived.then((key) => (key.kid === kid ? key.key : fromIndex(i + 1)));
      if (derived.kid === kid) return derived.key;
    }
    throw new TokenDecryptionError("no-matching-secret", "no secret matches the token's key id");
  };
  return fromIndex(0);
}

/**
 * Decrypts and validates a session token written by Tessera or Auth.js. Throws
 * {@link TokenDecryptionError} when the token is malformed, foreign, tampered, expired, issued
 * in the future, or (with `maxAge`) older than `maxAge`. Both engines apply the same claim checks.
 *
 * @example
 * ```ts
 * const claims = await decryptSessionToken(cookieValue, [process.env.AUTH_SECRET!], "authjs.session-token", undefined, { maxAge: 2592000 })
 * ```
 */
export function decryptSessionToken(
  token: string,
  secrets: readonly string[],
  salt: string,
  engine: CryptoEngine = defaultEngine,
  options: DecryptOptions = {},
  cache: SessionTokenCache = sharedSessionTokenCache,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (engine === "web" || !nodeCrypto())
    return decryptWeb(token, secrets, salt, cache).then((payload) =>
      validateClaims(payload, options),
    );
  // A value, not a promise, on node:crypto once the key is derived: a session read awaits
  // nothing. Failures stay rejections, as callers of an async function expect.
  try {
    return decryptNodeToken(token, secrets, salt, options, cache);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The token's `enc` and `kid`, when its header is one Tessera or Auth.js writes. */
function acceptedHeader(parsed: ParsedJwe): { enc: ContentEncryption; kid: string | undefined } {
  const { alg, enc, kid, zip, crit } = parsed.header;
  // Only what we write is accepted: no algorithm confusion, no compression (zip bombs).
  if (
    alg !== "dir" ||
    (enc !== "A256CBC-HS512" && enc !== "A256GCM") ||
    zip !== undefined ||
    crit !== undefined
  )
    throw new TokenDecryptionError("unsupported", "unsupported JWE header");
  if (kid !== undefined && typeof kid !== "string")
    throw new TokenDecryptionError("malformed", "the JWE key id is not a string");
  return { enc, kid };
}

/** {@link decryptSessionToken} on node:crypto: a promise only while a key is being derived. */
function decryptNodeToken(
  token: string,
  secrets: readonly string[],
  salt: string,
  options: DecryptOptions,
  cache: SessionTokenCache,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const parsed = parseCompact(token, cache);
  const { enc, kid } = acceptedHeader(parsed);
  const selected = selectKey(kid, enc, secrets, salt, "node", cache);
  if (selected instanceof Promise)
    return selected.then((key) => openClaims(parsed, enc, key, options));
  return openClaims(parsed, enc, selected, options);
}

/** Decrypts a parsed token with `key` and checks its claims. */
function openClaims(
  parsed: ParsedJwe,
  enc: ContentEncryption,
  key: Uint8Array,
  options: DecryptOptions,
): Record<string, unknown> {
  const plaintext = decryptNode(parsed, enc, key);
  let payload: unknown;
  try {
    payload = JSON.parse(fromUtf8(plaintext));
  } catch {
    throw new TokenDecryptionError("invalid-claims", "the JWT payload is not JSON");
  }
  return validateClaims(payload, options);
}

async function decryptWeb(
  token: string,
  secrets: readonly string[],
  salt: string,
  cache: SessionTokenCache,
): Promise<unknown> {
  const parsed = parseCompact(token, cache);
  const { enc, kid } = acceptedHeader(parsed);
  const key = await selectKey(kid, enc, secrets, salt, "web", cache);
  let plaintext: Uint8Array;
  try {
    plaintext = await decryptWebContent(parsed, enc, key);
  } catch {
    throw new TokenDecryptionError("decryption-failed", "the JWE could not be decrypted");
  }
  try {
    return JSON.parse(fromUtf8(plaintext));
  } catch {
    throw new TokenDecryptionError("invalid-claims", "the JWT payload is not JSON");
  }
}

// --- WebCrypto engine ---------------------------------------------------------------------------

/** A copy backed by a plain `ArrayBuffer`, as WebCrypto's `BufferSource` requires. */
function own(view: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(view);
}

/** {@link cbcHmacTag} with WebCrypto. */
async function cbcHmacTagWeb(
  macKey: Uint8Array,
  header: ProtectedHeader,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  const hmac = await crypto.subtle.importKey(
    "raw",
    own(macKey),
    { name: "HMAC", hash: "SHA-512" },
    false,
    ["sign"],
  );
  const input = own(concat(header.aad, iv, ciphertext, header.aadLengthBits));
  return new Uint8Array(await crypto.subtle.sign("HMAC", hmac, input), 0, 32);
}

/** Compares two tags in time independent of where they differ (timing attack on the MAC). */
function equalTags(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let diff = 0;
  for (let i = 0; i < a.byteLength; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

async function encryptWeb(
  claims: Record<string, unknown>,
  key: Uint8Array,
  kid: string,
  cache: SessionTokenCache,
): Promise<string> {
  const fields = { alg: "dir", enc: WRITE_ENC, kid };
  const header = protectedHeader(base64url(utf8(JSON.stringify(fields))), cache, fields);
  const iv = crypto.getRandomValues(new Uint8Array(16));
  const aes = await crypto.subtle.importKey("raw", own(key.subarray(32, 64)), "AES-CBC", false, [
    "encrypt",
  ]);
  const plaintext = utf8(JSON.stringify(claims));
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-CBC", iv }, aes, plaintext),
  );
  const mac = await cbcHmacTagWeb(key.subarray(0, 32), header, iv, ciphertext);
  return `${header.encoded}..${base64url(iv)}.${base64url(ciphertext)}.${base64url(mac)}`;
}

/** {@link decryptNode} with WebCrypto: authenticates, then decrypts; throws on any mismatch. */
async function decryptWebContent(
  parsed: ParsedJwe,
  enc: ContentEncryption,
  key: Uint8Array,
): Promise<Uint8Array> {
  if (enc === "A256CBC-HS512") {
    if (parsed.iv.byteLength !== 16 || parsed.tag.byteLength !== 32) throw new Error("length");
    const mac = await cbcHmacTagWeb(
      key.subarray(0, 32),
      parsed.protectedHeader,
      parsed.iv,
      parsed.ciphertext,
    );
    // Authenticate before decrypting: no padding oracle (Vaudenay's CBC attack).
    if (!equalTags(mac, parsed.tag)) throw new Error("tag");
    const aes = await crypto.subtle.importKey("raw", own(key.subarray(32, 64)), "AES-CBC", false, [
      "decrypt",
    ]);
    const iv = own(parsed.iv);
    return new Uint8Array(
      await crypto.subtle.decrypt({ name: "AES-CBC", iv }, aes, own(parsed.ciphertext)),
    );
  }
  if (parsed.iv.byteLength !== 12 || parsed.tag.byteLength !== 16) throw new Error("length");
  const aes = await crypto.subtle.importKey("raw", own(key), "AES-GCM", false, ["decrypt"]);
  return new Uint8Array(
    await crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: own(parsed.iv),
        additionalData: own(parsed.protectedHeader.aad),
        tagLength: 128,
      },
      aes,
      own(concat(parsed.ciphertext, parsed.tag)),
    ),
  );
}

// `encode` and `decode` over a key cache: the public functions of `@tessera/core/jwt` and the
// check cookies use the shared cache (`encodeJwt`, `decodeJwt`), a resolved config binds its own.

/** Thirty days, Auth.js's default session lifetime. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;

/** The configured secrets, empty ones dropped; the first one encrypts. */
export function secretList(secret: string | string[]): string[] {
  // A config's list is read on every session read: copied only when it has empty entries.
  if (Array.isArray(secret)) return secret.every(Boolean) ? secret : secret.filter(Boolean);
  return secret ? [secret] : [];
}

/**
 * Encrypts `params.token` with the first secret, keys cached in `cache`.
 *
 * @example
 * ```ts
 * const jwe = await encodeSessionToken({ token: { sub: "42" }, secret, salt: "authjs.session-token" }, cache)
 * ```
 */
export function encodeSessionToken<Payload = JWT>(
  params: JWTEncodeParams<Payload>,
  cache: SessionTokenCache,
): Promise<string> {
  const { token = {}, secret, salt, maxAge = DEFAULT_MAX_AGE } = params;
  const secrets = secretList(secret);
  if (secrets.length === 0) throw new MissingSecret("encode() needs a secret.");
  if (typeof salt !== "string") throw new TypeError("encode() needs a salt (the cookie name).");
  const claims = token as Record<string, unknown>;
  return encryptSessionToken(claims, secrets, salt, maxAge, defaultEngine, cache);
}

/**
 * Decrypts `params.token` (any of the secrets), keys cached in `cache`; `null` without a token.
 * A value, not a promise, on node:crypto once the key is derived (the session read's fast path:
 * it then awaits nothing); every failure is a rejected promise, as from an async function.
 *
 * @example
 * ```ts
 * const payload = await decodeSessionToken({ token, secret: [next, previous], salt: "authjs.session-token" }, cache)
 * ```
 */
export function decodeSessionToken<Payload = JWT>(
  params: JWTDecodeParams,
  cache: SessionTokenCache,
): Payload | null | Promise<Payload | null> {
  try {
    const { token, secret, salt, maxAge } = params;
    if (!token) return null;
    const secrets = secretList(secret);
    if (secrets.length === 0) throw new MissingSecret("decode() needs a secret.");
    if (typeof salt !== "string") throw new TypeError("decode() needs a salt (the cookie name).");
    if (maxAge !== undefined && !(Number.isFinite(maxAge) && maxAge >= 0))
      throw new TypeError("decode() needs maxAge to be a number of seconds.");
    return decryptSessionToken(token, secrets, salt, defaultEngine, { maxAge }, cache) as
      | Payload
      | Promise<Payload>;
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * {@link encodeSessionToken} with the shared key cache (keyed by secret and salt): what
 * `@tessera/core/jwt`'s `encode` does, and how the PKCE, state, nonce and WebAuthn challenge
 * cookies are sealed.
 *
 * @example
 * ```ts
 * const jwe = await encodeJwt({ token: { value: verifier }, secret, salt: "authjs.pkce.code_verifier", maxAge: 900 })
 * ```
 */
export function encodeJwt<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  return encodeSessionToken(params, sharedSessionTokenCache);
}

/**
 * {@link decodeSessionToken} with the shared key cache, always as a promise: what
 * `@tessera/core/jwt`'s `decode` does, and how the check cookies are opened.
 *
 * @example
 * ```ts
 * const payload = await decodeJwt<{ value: string }>({ token: cookieValue, secret, salt: "authjs.state" })
 * ```
 */
export async function decodeJwt<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  return decodeSessionToken<Payload>(params, sharedSessionTokenCache);
}

/**
 * The default `jwt.encode`/`decode` of one resolved config: {@link encodeSessionToken} and
 * {@link decodeSessionToken} over a key cache of its own, shared with no other config.
 *
 * @example
 * ```ts
 * const { encode, decode } = sessionTokenCodec()
 * ```
 */
export function sessionTokenCodec(): Pick<JWTOptions, "encode" | "decode"> {
  const cache = new SessionTokenCache();
  return {
    encode: (params) => encodeSessionToken(params, cache),
    decode: (params) => decodeSessionToken(params, cache),
  };
}
