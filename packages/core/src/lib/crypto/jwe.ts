/**
 * JWT sessions as compact JWE (RFC 7516) with `alg: "dir"`. Writes A256CBC-HS512, reads it and
 * A256GCM (RFC 7518 §5.2.5, §5.3), exactly as Auth.js v5 does.
 *
 * Two engines produce and accept the same tokens: `node:crypto` (many times faster on Node) and
 * WebCrypto through `jose` (edge runtimes).
 */
import { EncryptJWT, jwtDecrypt } from "jose";
import { base64url, fromBase64url, fromUtf8, utf8 } from "./encoding.js";
import { type ContentEncryption, type CryptoEngine, defaultEngine, deriveKey } from "./keys.js";
import { nodeCrypto } from "./node.js";

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

function aadLengthBits(aad: Uint8Array): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(aad.byteLength) * 8n);
  return out;
}

/** Standard claims added to every session token. */
function withStandardClaims(token: Record<string, unknown>, maxAge: number) {
  const iat = nowSeconds();
  return { ...token, iat, exp: iat + maxAge, jti: crypto.randomUUID() };
}

// --- node:crypto engine -----------------------------------------------------------------------

function encryptNode(claims: Record<string, unknown>, key: Uint8Array, kid: string): string {
  const crypto = nodeCrypto!;
  const protectedHeader = base64url(utf8(JSON.stringify({ alg: "dir", enc: WRITE_ENC, kid })));
  const aad = utf8(protectedHeader);
  const iv = crypto.randomBytes(16);
  const cipher = crypto.createCipheriv("aes-256-cbc", key.subarray(32, 64), iv);
  const plaintext = utf8(JSON.stringify(claims));
  const ciphertext = concat(cipher.update(plaintext), cipher.final());
  const mac = crypto
    .createHmac("sha512", key.subarray(0, 32))
    .update(concat(aad, iv, ciphertext, aadLengthBits(aad)))
    .digest()
    .subarray(0, 32);
  return `${protectedHeader}..${base64url(iv)}.${base64url(ciphertext)}.${base64url(mac)}`;
}

interface ParsedJwe {
  header: { alg?: unknown; enc?: unknown; kid?: unknown; zip?: unknown; crit?: unknown };
  protectedHeader: string;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
}

function parseCompact(token: string): ParsedJwe {
  const parts = token.split(".");
  if (parts.length !== 5 || parts[1] !== "")
    throw new TokenDecryptionError("malformed", "not a compact JWE with direct encryption");
  const [protectedHeader = "", , iv = "", ciphertext = "", tag = ""] = parts;
  let header: unknown;
  try {
    header = JSON.parse(fromUtf8(fromBase64url(protectedHeader)));
    return {
      header: header as ParsedJwe["header"],
      protectedHeader,
      iv: fromBase64url(iv),
      ciphertext: fromBase64url(ciphertext),
      tag: fromBase64url(tag),
    };
  } catch {
    throw new TokenDecryptionError("malformed", "the JWE is not well-formed");
  }
}

function decryptNode(parsed: ParsedJwe, enc: ContentEncryption, key: Uint8Array): Uint8Array {
  const crypto = nodeCrypto!;
  const aad = utf8(parsed.protectedHeader);
  try {
    if (enc === "A256CBC-HS512") {
      if (parsed.iv.byteLength !== 16 || parsed.tag.byteLength !== 32) throw new Error("length");
      const mac = crypto
        .createHmac("sha512", key.subarray(0, 32))
        .update(concat(aad, parsed.iv, parsed.ciphertext, aadLengthBits(aad)))
        .digest()
        .subarray(0, 32);
      // Authenticate before decrypting: no padding oracle (Vaudenay's CBC attack).
      if (!crypto.timingSafeEqual(mac, parsed.tag)) throw new Error("tag");
      const decipher = crypto.createDecipheriv("aes-256-cbc", key.subarray(32, 64), parsed.iv);
      return concat(decipher.update(parsed.ciphertext), decipher.final());
    }
    if (parsed.iv.byteLength !== 12 || parsed.tag.byteLength !== 16) throw new Error("length");
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, parsed.iv, { authTagLength: 16 });
    decipher.setAAD(aad);
    decipher.setAuthTag(parsed.tag);
    return concat(decipher.update(parsed.ciphertext), decipher.final());
  } catch {
    throw new TokenDecryptionError("decryption-failed", "the JWE could not be decrypted");
  }
}

function validateClaims(payload: unknown): Record<string, unknown> {
  if (!payload || typeof payload !== "object" || Array.isArray(payload))
    throw new TokenDecryptionError("invalid-claims", "the JWT payload is not an object");
  const claims = payload as Record<string, unknown>;
  const now = nowSeconds();
  for (const name of ["exp", "iat", "nbf"] as const) {
    if (name in claims && typeof claims[name] !== "number")
      throw new TokenDecryptionError("invalid-claims", `the "${name}" claim is not a number`);
  }
  if (typeof claims.exp === "number" && claims.exp <= now - CLOCK_TOLERANCE)
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
): Promise<string> {
  const secret = secrets[0];
  if (!secret) throw new TypeError("a secret is required to encrypt a session token");
  const claims = withStandardClaims(token, maxAge);
  const derived = await deriveKey(WRITE_ENC, secret, salt, engine);
  if (engine === "node" && nodeCrypto) return encryptNode(claims, derived.key, derived.kid);
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: WRITE_ENC, kid: derived.kid })
    .encrypt(derived.key);
}

async function selectKey(
  kid: unknown,
  enc: ContentEncryption,
  secrets: readonly string[],
  salt: string,
  engine: CryptoEngine,
): Promise<Uint8Array> {
  // A token without `kid` was written by an old version: only the first secret applies.
  if (kid === undefined) {
    const first = secrets[0];
    if (!first) throw new TokenDecryptionError("no-matching-secret", "no secret configured");
    return (await deriveKey(enc, first, salt, engine)).key;
  }
  for (const secret of secrets) {
    const derived = await deriveKey(enc, secret, salt, engine);
    if (derived.kid === kid) return derived.key;
  }
  throw new TokenDecryptionError("no-matching-secret", "no secret matches the token's key id");
}

/**
 * Decrypts and validates a session token written by Tessera or Auth.js. Throws
 * {@link TokenDecryptionError} when the token is malformed, foreign, tampered or expired.
 */
export async function decryptSessionToken(
  token: string,
  secrets: readonly string[],
  salt: string,
  engine: CryptoEngine = defaultEngine,
): Promise<Record<string, unknown>> {
  if (engine === "web" || !nodeCrypto) return decryptWeb(token, secrets, salt);
  const parsed = parseCompact(token);
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
  const key = await selectKey(kid, enc, secrets, salt, "node");
  const plaintext = decryptNode(parsed, enc, key);
  let payload: unknown;
  try {
    payload = JSON.parse(fromUtf8(plaintext));
  } catch {
    throw new TokenDecryptionError("invalid-claims", "the JWT payload is not JSON");
  }
  return validateClaims(payload);
}

async function decryptWeb(
  token: string,
  secrets: readonly string[],
  salt: string,
): Promise<Record<string, unknown>> {
  try {
    const { payload } = await jwtDecrypt(
      token,
      async ({ kid, enc }) => selectKey(kid, enc as ContentEncryption, secrets, salt, "web"),
      {
        clockTolerance: CLOCK_TOLERANCE,
        keyManagementAlgorithms: ["dir"],
        contentEncryptionAlgorithms: ["A256CBC-HS512", "A256GCM"],
      },
    );
    return payload;
  } catch (error) {
    if (error instanceof TokenDecryptionError) throw error;
    const code = (error as { code?: string }).code;
    if (code === "ERR_JWT_EXPIRED")
      throw new TokenDecryptionError("expired", "the JWT has expired");
    if (code === "ERR_JWE_DECRYPTION_FAILED")
      throw new TokenDecryptionError("decryption-failed", "the JWE could not be decrypted");
    throw new TokenDecryptionError("malformed", "the JWE is not valid");
  }
}
