/**
 * E-mail addresses: the canonical form a sign-in address is stored and looked up under, and the
 * parsing of a configured sender (`"Name <addr@host>"`).
 */
import { type AuthError, type AuthErrorOptions, EmailSignInError } from "../../errors.js";
import type { EmailConfig } from "../provider-types.js";

/** RFC 5321 §4.5.3.1.1 and §4.5.3.1.2: 64 octets of local part, 255 of domain; 254 in a path. */
const MAX_LOCAL_LENGTH = 64;
const MAX_ADDRESS_LENGTH = 254;

// Dot-atom of RFC 5322 §3.2.3 (atext without quoting), widened to any letter or digit for
// internationalised addresses (RFC 6531 §3.3). No quoted strings, comments or whitespace.
const LOCAL_ATOM = /^[\p{L}\p{N}\p{M}!#$%&'*+/=?^_`{|}~-]+$/u;
// A domain label: letters, digits and inner hyphens (RFC 1035 §2.3.1, IDNA U-labels allowed).
const DOMAIN_LABEL = /^[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;
// Characters that render like "@" but are not it (Unicode confusables), refused before NFKC
// would quietly fold some of them into a real "@".
const AT_LOOKALIKES = /[\uFF20\uFE6B]/u;

/** Why an address was refused; the sign-in page has a sentence for each. */
export type AddressRefusal =
  | "address-required"
  | "address-too-long"
  | "address-at-lookalike"
  | "address-quoted"
  | "address-one-at"
  | "address-local-part"
  | "address-domain";

function refuse(reason: string, code: AddressRefusal): never {
  const error = new EmailSignInError(`Invalid e-mail address: ${reason}.`);
  error.code = code;
  throw error;
}

function hasAtLookalike(value: string): boolean {
  for (const char of value) {
    if (char === "@") continue;
    // Homograph defence: "a＠evil.test" must not read as one address and deliver to another.
    if (AT_LOOKALIKES.test(char) || char.normalize("NFKC").includes("@")) return true;
  }
  return false;
}

/**
 * The canonical form of a sign-in address: trimmed, NFKC-normalised, lower-cased. Refuses
 * (with `EmailSignInError`) anything that is not a single plain `local@domain` address: quoted
 * local parts, several `@`, look-alike `@` characters, lists, whitespace and control characters,
 * IP literals, and over-long addresses.
 *
 * @example
 * ```ts
 * normalizeEmailAddress(" Ada@Example.COM ") // "ada@example.com"
 * normalizeEmailAddress("a@b@c")             // throws EmailSignInError
 * ```
 */
export function normalizeEmailAddress(input: unknown): string {
  if (typeof input !== "string") refuse("an address is required", "address-required");
  const trimmed = input.trim();
  if (trimmed === "") refuse("an address is required", "address-required");
  if (trimmed.length > 4 * MAX_ADDRESS_LENGTH) refuse("it is too long", "address-too-long");
  if (hasAtLookalike(trimmed))
    refuse("it contains a character that imitates @", "address-at-lookalike");
  const address = trimmed.normalize("NFKC").toLowerCase();
  if (address.length > MAX_ADDRESS_LENGTH) refuse("it is too long", "address-too-long");
  // Recipient-list and quoted-local-part tricks ("a@x.test,b@evil.test", "\"a@evil\"@x.test")
  // would make the mailer deliver the link somewhere else than the address we store.
  if (address.includes('"')) refuse("quoted addresses are not accepted", "address-quoted");
  const parts = address.split("@");
  if (parts.length !== 2) refuse("it must contain exactly one @", "address-one-at");
  const [local = "", domain = ""] = parts;
  if (local === "" || local.length > MAX_LOCAL_LENGTH)
    refuse("the part before @ is invalid", "address-local-part");
  if (!local.split(".").every((atom) => LOCAL_ATOM.test(atom)))
    refuse("the part before @ contains characters that are not allowed", "address-local-part");
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label)))
    refuse("the domain is invalid", "address-domain");
  return `${local}@${domain}`;
}

/** A sender as `{ address, name? }`. */
export interface Mailbox {
  address: string;
  name?: string;
}

/**
 * Splits a sender given as `"Name <addr@host>"`, `"<addr@host>"` or `"addr@host"`.
 *
 * @example
 * ```ts
 * parseMailbox('"Acme" <no-reply@acme.test>') // { name: "Acme", address: "no-reply@acme.test" }
 * ```
 */
export function parseMailbox(value: string): Mailbox {
  const match = /^\s*(.*?)\s*<([^<>\s]+)>\s*$/.exec(value);
  if (!match) return { address: value.trim() };
  const name = (match[1] ?? "").replace(/^"(.*)"$/, "$1").trim();
  const address = match[2] ?? "";
  return name ? { name, address } : { address };
}

/**
 * The identifier a provider signs `input` in under: its own `normalizeIdentifier` when set, else
 * {@link normalizeEmailAddress}. Any refusal is thrown as `ErrorType` (`EmailSignInError` when a
 * link is requested, `Verification` when one is followed), with the cause kept for the log.
 *
 * @example
 * ```ts
 * normalizeProviderIdentifier(provider, form.email, EmailSignInError) // "ada@example.com"
 * ```
 */
export function normalizeProviderIdentifier(
  provider: Pick<EmailConfig, "id" | "normalizeIdentifier">,
  input: unknown,
  ErrorType: new (message: string, options?: AuthErrorOptions) => AuthError,
): string {
  try {
    if (!provider.normalizeIdentifier) return normalizeEmailAddress(input);
    if (typeof input !== "string" || input.trim() === "")
      refuse("an address is required", "address-required");
    const identifier = provider.normalizeIdentifier(input);
    if (typeof identifier !== "string" || identifier === "")
      throw new TypeError(
        `normalizeIdentifier of "${provider.id}" must return a non-empty string.`,
      );
    return identifier;
  } catch (error) {
    if (error instanceof ErrorType) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ErrorType(message, { cause: error });
  }
}
