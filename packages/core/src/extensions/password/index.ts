/**
 * `@tessera/core/password`: password accounts, built as an extension. An app that does not
 * import this entry never loads it (nor scrypt).
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword } from "@tessera/core/password"
 * const stored = await hashPassword("correct horse battery staple")
 * const { valid } = await verifyPassword("correct horse battery staple", stored)
 * ```
 */

export { type PasswordApi, passwordApi } from "./api.js";
export {
  PASSWORD_EMAIL_MESSAGES,
  type PasswordEmailMessages,
  type PasswordNoticeInput,
  renderChangeEmail,
  renderEmailChangedNotice,
} from "./emails.js";
export {
  PASSWORD_ACTION,
  type PasswordEmail,
  type PasswordEvents,
  type PasswordOptions,
  password,
  type SignUpFields,
} from "./extension.js";
export {
  DEFAULT_SCRYPT,
  dummyCheck,
  type ForeignHashCheck,
  hashPassword,
  type PasswordCheck,
  parseScryptHash,
  type ScryptParams,
  verifyPassword,
} from "./hash.js";
export { type PasswordMessages, passwordMessages } from "./messages/index.js";
export type { SignUpField } from "./pages.js";
export {
  checkPassword,
  type PasswordPolicy,
  type PasswordProblem,
  resolvePolicy,
} from "./policy.js";
export { canonicalEmail, Password, type PasswordProviderOptions } from "./provider.js";
export { PASSWORD_ADAPTER_METHODS, type PasswordAdapter } from "./storage.js";
