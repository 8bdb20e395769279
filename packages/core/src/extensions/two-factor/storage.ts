/**
 * What two-factor authentication stores, as optional adapter methods: `@tessera/memory`,
 * `@tessera/sql` and `@tessera/redis` implement them (the conformance suite's two-factor section
 * checks any adapter). Types only: an adapter package imports them without loading the extension.
 */
import type { Awaitable } from "../../adapters.js";

/** One user's TOTP factor. */
export interface TwoFactorRecord {
  userId: string;
  /** The TOTP secret, sealed with a key derived from the app's secret (never stored in clear). */
  secret: string;
  /** When a first valid code activated the factor; null while enrolment waits for that code. */
  enabledAt: Date | null;
  /** The last time step whose code was accepted (replay refusal); null before the first. */
  lastUsedStep: number | null;
}

/**
 * The adapter methods two-factor authentication needs. Every write that decides whether a code
 * counts is one atomic operation, so that two instances (or two parallel requests) cannot both
 * accept the same code.
 */
export interface TwoFactorAdapter {
  /** The user's factor, pending or active; null when none. */
  getTwoFactor(userId: string): Awaitable<TwoFactorRecord | null>;
  /** Creates or replaces the user's factor (enrolment, activation). */
  setTwoFactor(record: TwoFactorRecord): Awaitable<void>;
  /** Removes the user's factor and their backup codes. */
  deleteTwoFactor(userId: string): Awaitable<void>;
  /**
   * Records `step` as the user's last used time step, only when it is later than the one stored
   * (or none is); true when this call recorded it. Atomic: of two parallel calls with one step,
   * exactly one answers true.
   */
  useTotpStep(userId: string, step: number): Awaitable<boolean>;
  /** Replaces the user's backup codes with `hashes` (the previous set stops working). */
  setBackupCodes(userId: string, hashes: readonly string[]): Awaitable<void>;
  /**
   * Removes the backup code `hash` of the user; true when this call removed it. Atomic: of two
   * parallel uses of one code, exactly one answers true.
   */
  useBackupCode(userId: string, hash: string): Awaitable<boolean>;
  /** How many unused backup codes the user has. */
  countBackupCodes(userId: string): Awaitable<number>;
}

/** The method names, for the config check (`requires`). */
export const TWO_FACTOR_ADAPTER_METHODS = [
  "getTwoFactor",
  "setTwoFactor",
  "deleteTwoFactor",
  "useTotpStep",
  "setBackupCodes",
  "useBackupCode",
  "countBackupCodes",
] as const satisfies readonly (keyof TwoFactorAdapter)[];
