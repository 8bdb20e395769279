/**
 * Verification tokens of e-mail sign-in. The raw token only ever travels in the e-mailed link;
 * the adapter stores `sha256hex(token + secret)`, so a leaked database holds no usable links.
 */

import { randomHex, sha256Hex } from "../crypto/encoding.js";
import type { EmailConfig } from "../provider-types.js";

/** Bytes of randomness in a default token (256 bits, as 64 hex characters). */
const TOKEN_BYTES = 32;

/**
 * A new raw token: the provider's `generateVerificationToken`, else 32 random bytes as hex.
 *
 * @example
 * ```ts
 * const token = await createVerificationToken(provider) // "9f86d081…" (64 hex characters)
 * ```
 */
export async function createVerificationToken(
  provider: Pick<EmailConfig, "generateVerificationToken">,
): Promise<string> {
  const token = await provider.generateVerificationToken?.();
  if (token !== undefined) {
    // Short codes (OTP style) are allowed for compatibility; their strength is the app's choice.
    if (typeof token !== "string" || token === "")
      throw new TypeError("generateVerificationToken must return a non-empty string.");
    return token;
  }
  return randomHex(TOKEN_BYTES);
}

/**
 * What the adapter stores for `token`: `sha256hex(token + secret)` (the Auth.js format, so
 * pending links survive a switch in either direction).
 *
 * @example
 * ```ts
 * await hashVerificationToken("abc", "secret") // sha256hex("abcsecret")
 * ```
 */
export async function hashVerificationToken(token: string, secret: string): Promise<string> {
  return sha256Hex(`${token}${secret}`);
}

/**
 * The secrets a token may have been hashed with, newest first: the provider's own `secret`
 * when set, else every configured secret, so rotating `AUTH_SECRET` keeps pending links valid.
 */
export function verificationSecrets(
  provider: Pick<EmailConfig, "secret">,
  configSecrets: readonly string[],
): string[] {
  return provider.secret ? [provider.secret] : [...new Set(configSecrets)];
}
