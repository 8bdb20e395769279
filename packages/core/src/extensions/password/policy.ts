/**
 * The password policy, after NIST SP 800-63B §3.1.1.2: a minimum length (8 by default), at least
 * 64 characters accepted, any Unicode character allowed and normalised (NFKC) before it is
 * counted or hashed, and no composition rules ("one digit, one symbol"), which make passwords
 * harder to remember without making them harder to guess.
 */
import { InvalidExtension } from "../../errors.js";

/** Options of the password policy. */
export interface PasswordPolicy {
  /** Fewest characters (code points, after NFKC); default 8. */
  minLength?: number;
  /** Most characters; default 256, never below 64. */
  maxLength?: number;
}

/** Why a password was refused; null when it passes. */
export type PasswordProblem = "too-short" | "too-long" | null;

/** The policy with defaults, checked once (a bad value stops the app at start-up). */
export function resolvePolicy(policy: PasswordPolicy = {}): Required<PasswordPolicy> {
  const minLength = policy.minLength ?? 8;
  const maxLength = policy.maxLength ?? 256;
  if (!Number.isInteger(minLength) || minLength < 1)
    throw new InvalidExtension(
      `password({ policy: { minLength } }) must be a whole number of at least 1 (NIST asks for 8 or more); it is ${minLength}.`,
    );
  if (!Number.isInteger(maxLength) || maxLength < Math.max(64, minLength))
    throw new InvalidExtension(
      `password({ policy: { maxLength } }) must accept at least 64 characters and no fewer than minLength; it is ${maxLength}.`,
    );
  return { minLength, maxLength };
}

/**
 * Checks `password` against the policy. Length counts code points after NFKC, so "é" typed as
 * one or two code points counts once and an emoji counts as one.
 *
 * @example
 * ```ts
 * checkPassword("short", resolvePolicy()) // "too-short"
 * ```
 */
export function checkPassword(password: string, policy: Required<PasswordPolicy>): PasswordProblem {
  const length = [...password.normalize("NFKC")].length;
  if (length < policy.minLength) return "too-short";
  if (length > policy.maxLength) return "too-long";
  return null;
}
