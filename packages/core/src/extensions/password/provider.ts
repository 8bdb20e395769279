/**
 * `Password(options)`: a credentials provider (id `password`) whose `authorize` checks the e-mail
 * and password against the hash the adapter keeps, re-hashing it when the parameters changed.
 * The sign-in then takes the core's credentials path (CSRF check, rate limits, `signIn`
 * callback, sign-in steps such as two-factor, either session strategy).
 */
import type { Adapter, AdapterUser } from "../../adapters.js";
import { InvalidExtension } from "../../errors.js";
import Credentials, { type CredentialsConfig } from "../../providers/credentials.js";
import {
  DEFAULT_SCRYPT,
  dummyCheck,
  type ForeignHashCheck,
  hashPassword,
  type ScryptParams,
  verifyPassword,
} from "./hash.js";
import { PASSWORD_ADAPTER_METHODS, type PasswordAdapter } from "./storage.js";

/** Options of {@link Password}. */
export interface PasswordProviderOptions {
  /** The app's adapter (the one in `config.adapter`): it keeps the users and their hashes. */
  adapter: Adapter & PasswordAdapter;
  /** scrypt parameters for new hashes; default {@link DEFAULT_SCRYPT} (OWASP's minimum). */
  scrypt?: ScryptParams;
  /**
   * Refuse sign-in until the address is verified (sign-up's code, or a reset); default true.
   * The refusal is the same as for a wrong password, so it tells nobody the address has an account.
   */
  requireVerifiedEmail?: boolean;
  /**
   * Checks hashes imported from another system that are neither scrypt nor Argon2id (both are
   * built in): bcrypt, PBKDF2, … A password it accepts is re-hashed with scrypt at once.
   */
  verifyPassword?: ForeignHashCheck;
}

/**
 * The id the hash is read for when the address has no account: UUID-shaped (so a SQL column of
 * type uuid takes it) and never given to a user (`crypto.randomUUID()` makes version-4 ids only).
 */
export const NO_USER_ID = "00000000-0000-0000-0000-000000000000";

/** The e-mail address as accounts are keyed: trimmed and lower-case. */
export function canonicalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A credentials provider for password accounts kept by `@tessera/core/password`. Pair it with the
 * `password()` extension, which adds sign-up, verification and reset.
 *
 * @example
 * ```ts
 * import { Password, password } from "@tessera/core/password"
 * const adapter = MemoryAdapter()
 * const config = { adapter, providers: [Password({ adapter })], experimental: { extensions: [password()] } }
 * ```
 */
export function Password(options: PasswordProviderOptions): CredentialsConfig {
  const { adapter } = options;
  const params = options.scrypt ?? DEFAULT_SCRYPT;
  const requireVerified = options.requireVerifiedEmail !== false;
  for (const method of [...PASSWORD_ADAPTER_METHODS, "getUserByEmail"] as const)
    if (typeof adapter?.[method] !== "function")
      throw new InvalidExtension(
        `Password() needs the adapter method ${method}, which the given adapter lacks: use @tessera/memory, @tessera/sql or @tessera/redis, or add it to yours.`,
      );
  const store = adapter as Required<Pick<Adapter, "getUserByEmail">> & PasswordAdapter;
  return Credentials({
    id: "password",
    name: "Password",
    credentials: {
      email: { label: "Email", type: "email", required: true, autocomplete: "username" },
      password: {
        label: "Password",
        type: "password",
        required: true,
        autocomplete: "current-password",
      },
    },
    // The built-in sign-in page shows them under the form (the password() extension's pages).
    links: [
      { label: "Create account", path: "password/signup" },
      { label: "Forgot password?", path: "password/forgot" },
    ],
    async authorize(credentials): Promise<AdapterUser | null> {
      const email = typeof credentials.email === "string" ? canonicalEmail(credentials.email) : "";
      const typed = typeof credentials.password === "string" ? credentials.password : "";
      const user = email ? await store.getUserByEmail(email) : null;
      // Account enumeration by timing: an unknown address makes the same adapter reads (the
      // hash read goes to an id no user has) and pays for one scrypt with the same parameters.
      const stored = await store.getPasswordHash(user?.id ?? NO_USER_ID);
      if (!user || !stored) return dummyCheck(typed, params).then(() => null);
      const { valid, needsRehash } = await verifyPassword(
        typed,
        stored,
        params,
        options.verifyPassword,
      );
      if (!valid) return null;
      if (needsRehash) await store.setPasswordHash(user.id, await hashPassword(typed, params));
      if (requireVerified && !user.emailVerified) return null;
      return user;
    },
  }) as CredentialsConfig;
}
