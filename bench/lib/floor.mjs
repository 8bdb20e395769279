// @ts-check
/**
 * The floor: the same work a session read or a sign-in needs, done directly with `node:crypto`
 * and the Fetch API objects and nothing else — no configuration, callbacks, cookie policy or
 * error handling. A library cannot be faster than this; the benchmark reports how far above it
 * each library is. Written here independently of both libraries.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from "node:crypto";

/**
 * The A256CBC-HS512 key and key id for `secret` and `salt`, as both libraries derive them
 * (HKDF-SHA-256, RFC 5869; key id = RFC 7638 thumbprint). Derived once, outside the timed loop.
 *
 * @param {string} secret
 * @param {string} salt
 */
export function directKey(secret, salt) {
  const key = Buffer.from(
    hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64),
  );
  const kid = createHash("sha512")
    .update(`{"k":"${key.toString("base64url")}","kty":"oct"}`)
    .digest("base64url");
  return { key, kid };
}

/** @param {Buffer} aad */
function aadBits(aad) {
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(aad.length * 8));
  return length;
}

/**
 * Verifies and decrypts a compact `dir`/A256CBC-HS512 JWE (RFC 7516, RFC 7518 §5.2) and checks
 * `exp`. Throws on any mismatch.
 *
 * @param {string} token
 * @param {{ key: Buffer, kid: string }} derived
 * @returns {Record<string, unknown>}
 */
export function directDecrypt(token, { key, kid }) {
  const [header = "", , iv = "", ciphertext = "", tag = ""] = token.split(".");
  const parsed = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
  if (parsed.alg !== "dir" || parsed.enc !== "A256CBC-HS512" || parsed.kid !== kid)
    throw new Error("header");
  const aad = Buffer.from(header, "latin1");
  const ivBytes = Buffer.from(iv, "base64url");
  const ciphertextBytes = Buffer.from(ciphertext, "base64url");
  const mac = createHmac("sha512", key.subarray(0, 32))
    .update(aad)
    .update(ivBytes)
    .update(ciphertextBytes)
    .update(aadBits(aad))
    .digest()
    .subarray(0, 32);
  if (!timingSafeEqual(mac, Buffer.from(tag, "base64url"))) throw new Error("tag");
  const decipher = createDecipheriv("aes-256-cbc", key.subarray(32), ivBytes);
  const claims = JSON.parse(
    Buffer.concat([decipher.update(ciphertextBytes), decipher.final()]).toString("utf8"),
  );
  if (typeof claims.exp === "number" && claims.exp <= Date.now() / 1000) throw new Error("expired");
  return claims;
}

/**
 * Encrypts `payload` plus `iat`, `exp` and `jti` as a compact `dir`/A256CBC-HS512 JWE.
 *
 * @param {Record<string, unknown>} payload
 * @param {{ key: Buffer, kid: string }} derived
 * @param {number} maxAge seconds
 */
export function directEncrypt(payload, { key, kid }, maxAge) {
  const iat = Math.floor(Date.now() / 1000);
  const claims = { ...payload, iat, exp: iat + maxAge, jti: randomUUID() };
  const header = Buffer.from(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid })).toString(
    "base64url",
  );
  const aad = Buffer.from(header, "latin1");
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-cbc", key.subarray(32), iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(claims), "utf8"), cipher.final()]);
  const tag = createHmac("sha512", key.subarray(0, 32))
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(aadBits(aad))
    .digest()
    .subarray(0, 32);
  return `${header}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag.toString("base64url")}`;
}

/**
 * The value of cookie `name` in a `Cookie` header (no decoding: session values are URL-safe).
 *
 * @param {string | null} header
 * @param {string} name
 */
export function directCookie(header, name) {
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * A CSRF token and its cookie value `token|sha256(token + secret)` (the double-submit scheme).
 *
 * @param {string} secret
 */
export function directCsrf(secret) {
  const token = randomBytes(32).toString("hex");
  return {
    token,
    cookie: `${token}|${createHash("sha256").update(`${token}${secret}`).digest("hex")}`,
  };
}

/**
 * True when `cookieValue` is a CSRF cookie made with `secret` and `bodyToken` matches it.
 *
 * @param {string | undefined} cookieValue
 * @param {unknown} bodyToken
 * @param {string} secret
 */
export function directCsrfCheck(cookieValue, bodyToken, secret) {
  if (!cookieValue || typeof bodyToken !== "string") return false;
  const [token = "", hash = ""] = decodeURIComponent(cookieValue).split("|");
  const expected = createHash("sha256").update(`${token}${secret}`).digest("hex");
  return (
    hash.length === expected.length &&
    timingSafeEqual(Buffer.from(hash), Buffer.from(expected)) &&
    bodyToken.length === token.length &&
    timingSafeEqual(Buffer.from(bodyToken), Buffer.from(token))
  );
}

/** The headers of a session answer (both libraries send these). */
export const NO_CACHE_JSON = {
  "Content-Type": "application/json",
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
};
