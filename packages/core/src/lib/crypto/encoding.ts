import { nodeCrypto } from "./node.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });
const hasBuffer = typeof (globalThis as { Buffer?: unknown }).Buffer === "function";

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Decodes UTF-8; throws `TypeError` on invalid sequences (hostile tokens). */
export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** RFC 4648 §5 base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  if (hasBuffer)
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Decodes base64url; throws `TypeError` on characters outside the alphabet. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  if (!BASE64URL.test(text)) throw new TypeError("invalid base64url");
  if (hasBuffer) return new Uint8Array(Buffer.from(text, "base64url"));
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * Decodes base64url like {@link fromBase64url}, without copying out of Node's buffer pool: the
 * bytes may share memory with other small buffers, so only read them and do not keep them.
 *
 * @example
 * ```ts
 * const iv = fromBase64urlView(parts[2]) // handed to a cipher, then dropped
 * ```
 */
export function fromBase64urlView(text: string): Uint8Array {
  if (!hasBuffer) return fromBase64url(text);
  if (!BASE64URL.test(text)) throw new TypeError("invalid base64url");
  return Buffer.from(text, "base64url");
}

/** Lower-case hex of bytes. */
export function hex(bytes: Uint8Array): string {
  if (hasBuffer)
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** `size` random bytes as hex. */
export function randomHex(size: number): string {
  return hex(crypto.getRandomValues(new Uint8Array(size)));
}

/** SHA-256 of a UTF-8 string, as hex. Synchronous on Node, a promise elsewhere. */
export function sha256Hex(message: string): string | Promise<string> {
  const node = nodeCrypto();
  if (node) return node.createHash("sha256").update(message).digest("hex");
  return crypto.subtle.digest("SHA-256", utf8(message)).then((d) => hex(new Uint8Array(d)));
}

/**
 * Compares two strings in time that depends only on their length, so that an attacker cannot
 * learn a secret value byte by byte from response times (timing attack).
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const left = utf8(a);
  const right = utf8(b);
  if (left.byteLength !== right.byteLength) return false;
  const node = nodeCrypto();
  if (node) return node.timingSafeEqual(left, right);
  let diff = 0;
  for (let i = 0; i < left.byteLength; i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return diff === 0;
}
