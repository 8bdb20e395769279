/**
 * The breached-password check, against the "Have I Been Pwned" Pwned Passwords range API with
 * k-anonymity: only the first 5 hex characters of the password's SHA-1 leave the server; the
 * service answers every suffix it knows under that prefix (padded, so the answer's size says
 * nothing either), and the match is made here.
 */
import type { LoggerInstance } from "../../lib/utils/logger.js";

/** Options of the breached-password check (`password({ breachedPasswords })`). */
export interface BreachedPasswordOptions {
  /** The range API's base; default `https://api.pwnedpasswords.com` (`<apiUrl>/range/<prefix>`). */
  apiUrl?: string;
  /**
   * Accept the password when the service cannot be reached (with the warning
   * `breached-password-check-unavailable`); default true. `false` refuses new passwords then.
   */
  failOpen?: boolean;
  /** Milliseconds to wait for the service; default 3000. */
  timeout?: number;
}

/** What the check found: breached, not found, or the service could not answer. */
export type BreachVerdict = "breached" | "clean" | "unavailable";

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Asks the range API whether `password` (after NFKC) appears in known breaches.
 *
 * @example
 * ```ts
 * await breachVerdict("P@ssw0rd", {}, logger) // "breached"
 * ```
 */
export async function breachVerdict(
  password: string,
  options: BreachedPasswordOptions,
  logger: Pick<LoggerInstance, "warn">,
): Promise<BreachVerdict> {
  const hash = (await sha1Hex(password.normalize("NFKC"))).toUpperCase();
  const prefix = hash.slice(0, 5);
  const suffix = hash.slice(5);
  const base = (options.apiUrl ?? "https://api.pwnedpasswords.com").replace(/\/+$/, "");
  try {
    const response = await fetch(`${base}/range/${prefix}`, {
      headers: { "Add-Padding": "true" },
      signal: AbortSignal.timeout(options.timeout ?? 3000),
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const body = await response.text();
    for (const line of body.split("\n")) {
      const [candidate = "", count = "0"] = line.trim().split(":");
      // Padding lines carry a count of 0: they are not breaches.
      if (candidate.toUpperCase() === suffix && Number(count) > 0) return "breached";
    }
    return "clean";
  } catch {
    if (options.failOpen !== false) logger.warn("breached-password-check-unavailable");
    return "unavailable";
  }
}
