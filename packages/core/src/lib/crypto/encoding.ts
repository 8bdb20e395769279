/**
 * Bytes on every runtime: `node:crypto` where the runtime has it (reached without a static
 * import), UTF-8 and base64url ([RFC 4648 §5](https://www.rfc-editor.org/rfc/rfc4648#section-5))
 * codecs, hex, SHA-256 and a constant-time comparison, each taking Node's fast path when it can.
 */

// `node:crypto` without a static import, so that the same module loads on edge runtimes:
// `process.getBuiltinModule` (Node ≥ 20.16, Deno, Bun) returns it synchronously.
type NodeCrypto = typeof import("node:crypto");

interface ProcessWithBuiltins {
  getBuiltinModule?: (id: string) => unknown;
}

function loadNodeCrypto(): NodeCrypto | undefined {
  const proc = (globalThis as { process?: ProcessWithBuiltins }).process;
  try {
    return proc?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
  } catch {
    return undefined;
  }
}

/** `false` until the first call: loading `node:crypto` is not done at import time. */
let loaded: NodeCrypto | undefined | false = false;

/**
 * `node:crypto`, or `undefined` on runtimes without it (then WebCrypto is used). Loaded on the
 * first call rather than at import, so that an app's start-up does not pay for it (the first
 * session read does, as WebCrypto's first use does for libraries built on it).
 *
 * @example
 * ```ts
 * const crypto = nodeCrypto()
 * if (crypto) crypto.createHash("sha256").update("x").digest("hex")
 * ```
 */
export function nodeCrypto(): NodeCrypto | undefined {
  if (loaded === false) loaded = loadNodeCrypto();
  return loaded;
}

/**
 * Whether this runtime has `node:crypto`, answered without loading it: the runtimes that have it
 * are the ones with `process.getBuiltinModule`.
 */
export function hasNodeCrypto(): boolean {
  const proc = (globalThis as { process?: ProcessWithBuiltins }).process;
  return typeof proc?.getBuiltinModule === "function";
}

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
