/**
 * HOTP (RFC 4226) and TOTP (RFC 6238) over WebCrypto's HMAC, so the same code runs on Node, Bun,
 * Deno and workers. Base32 (RFC 4648) is the alphabet authenticator apps take secrets in.
 */

/** The HMAC hash of a TOTP factor; authenticator apps know SHA1, most know the other two. */
export type TotpAlgorithm = "SHA1" | "SHA256" | "SHA512";

/** How codes are made: RFC 6238's defaults are SHA1, 6 digits and 30-second steps. */
export interface TotpOptions {
  algorithm: TotpAlgorithm;
  digits: 6 | 7 | 8;
  period: number;
}

/** RFC 6238's defaults, which every authenticator app understands. */
export const DEFAULT_TOTP: TotpOptions = { algorithm: "SHA1", digits: 6, period: 30 };

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const WEB_HASH: Record<TotpAlgorithm, string> = {
  SHA1: "SHA-1",
  SHA256: "SHA-256",
  SHA512: "SHA-512",
};

/**
 * `bytes` in base32 without padding, as `otpauth://` URIs carry secrets.
 *
 * @example
 * ```ts
 * base32Encode(new TextEncoder().encode("foo")) // "MZXW6"
 * ```
 */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The bytes of a base32 string (case, spaces and padding ignored, as people type keys), or null
 * when it holds a character outside the alphabet.
 *
 * @example
 * ```ts
 * base32Decode("mzxw 6===") // Uint8Array [102, 111, 111]
 * ```
 */
export function base32Decode(text: string): Uint8Array | null {
  const clean = text.replace(/[\s=-]/g, "").toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index === -1) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/**
 * The HOTP value of `counter` (RFC 4226 §5.3: dynamic truncation, then `digits` decimal digits).
 *
 * @example
 * ```ts
 * await hotp(new TextEncoder().encode("12345678901234567890"), 0) // "755224"
 * ```
 */
export async function hotp(
  key: Uint8Array,
  counter: number,
  options: Pick<TotpOptions, "algorithm" | "digits"> = DEFAULT_TOTP,
): Promise<string> {
  const message = new Uint8Array(8);
  // The counter is a 64-bit big-endian integer; time steps fit in 53 bits.
  new DataView(message.buffer).setBigUint64(0, BigInt(counter));
  const hmacKey = await crypto.subtle.importKey(
    "raw",
    key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: WEB_HASH[options.algorithm] },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, message));
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary =
    (((mac[offset] as number) & 0x7f) << 24) |
    ((mac[offset + 1] as number) << 16) |
    ((mac[offset + 2] as number) << 8) |
    (mac[offset + 3] as number);
  return String(binary % 10 ** options.digits).padStart(options.digits, "0");
}

/** The time step of `time` (ms since the epoch) for steps of `period` seconds. */
export function timeStep(time: number, period: number): number {
  return Math.floor(time / 1000 / period);
}

/**
 * The TOTP code at `time` (ms since the epoch; default now).
 *
 * @example
 * ```ts
 * await totp(secretBytes, { time: 59_000, algorithm: "SHA1", digits: 8, period: 30 }) // "94287082"
 * ```
 */
export function totp(
  key: Uint8Array,
  options: Partial<TotpOptions> & { time?: number } = {},
): Promise<string> {
  const resolved = { ...DEFAULT_TOTP, ...options };
  return hotp(key, timeStep(options.time ?? Date.now(), resolved.period), resolved);
}

/** Compares two strings of digits in time independent of where they differ. */
function sameCode(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++)
    difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/**
 * The time step whose code `code` is, within `drift` steps either side of `time`, or null. Every
 * step in the window is computed and compared, so the time taken does not tell which matched.
 * Replay refusal (a step already used) is the caller's: it needs the shared store.
 *
 * @example
 * ```ts
 * const step = await matchTotp(key, "287082", { time: Date.now() })
 * ```
 */
export async function matchTotp(
  key: Uint8Array,
  code: string,
  options: Partial<TotpOptions> & { time?: number; drift?: number } = {},
): Promise<number | null> {
  const resolved = { ...DEFAULT_TOTP, ...options };
  const typed = code.replace(/\s/g, "");
  if (!/^\d+$/.test(typed) || typed.length !== resolved.digits) return null;
  const now = timeStep(options.time ?? Date.now(), resolved.period);
  const drift = options.drift ?? 1;
  let matched: number | null = null;
  for (let step = now - drift; step <= now + drift; step++) {
    const expected = await hotp(key, step, resolved);
    if (sameCode(expected, typed) && matched === null) matched = step;
  }
  return matched;
}

/**
 * The `otpauth://totp/` URI an authenticator app reads from a QR code (Google Authenticator's
 * key URI format).
 *
 * @example
 * ```ts
 * otpauthUri({ issuer: "Example", account: "ada@example.com", secret: "JBSWY3DPEHPK3PXP" })
 * // "otpauth://totp/Example:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example&algorithm=SHA1&digits=6&period=30"
 * ```
 */
export function otpauthUri(p: {
  issuer: string;
  account: string;
  secret: string;
  options?: TotpOptions;
}): string {
  const { algorithm, digits, period } = p.options ?? DEFAULT_TOTP;
  const label = `${encodeURIComponent(p.issuer)}:${encodeURIComponent(p.account)}`;
  const query = new URLSearchParams({
    secret: p.secret,
    issuer: p.issuer,
    algorithm,
    digits: String(digits),
    period: String(period),
  });
  return `otpauth://totp/${label}?${query}`;
}
