/**
 * `@tessera/core/two-factor`: TOTP second factor with backup codes, built as an extension. An
 * app that does not import this entry never loads it (nor the QR encoder it uses).
 *
 * @example
 * ```ts
 * import { twoFactor } from "@tessera/core/two-factor"
 * import { memoryAdapter } from "@tessera/memory"
 * const config = { adapter: memoryAdapter(), providers, experimental: { extensions: [twoFactor()] } }
 * ```
 */
export {
  type TwoFactorApi,
  type TwoFactorEnrolment,
  type TwoFactorStatus,
  twoFactorApi,
} from "./api.js";
export {
  type RecentAuthenticationOptions,
  requireRecentAuthentication,
  type SessionAuthentication,
} from "./authentication.js";
export {
  TWO_FACTOR_ACTION,
  TWO_FACTOR_STEP,
  type TwoFactorEventMessage,
  type TwoFactorEvents,
  type TwoFactorOptions,
  twoFactor,
} from "./extension.js";
export { type TwoFactorMessages, twoFactorMessages } from "./messages/index.js";
export {
  TWO_FACTOR_ADAPTER_METHODS,
  type TwoFactorAdapter,
  type TwoFactorRecord,
} from "./storage.js";
export {
  base32Decode,
  base32Encode,
  DEFAULT_TOTP,
  hotp,
  matchTotp,
  otpauthUri,
  type TotpAlgorithm,
  type TotpOptions,
  totp,
} from "./totp.js";
