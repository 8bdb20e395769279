/**
 * The server functions of two-factor authentication, written once against an
 * {@link ActionRunner}: every integration hands its own runner (`actionRunner(req, config)` in
 * Express, `actionRunner(event)` in SvelteKit, `actionRunner()` in Next.js, `nodeActionRunner`,
 * the core's `actionRunner(request, config)`), so none needs code for this extension.
 */
import { TwoFactorFailed } from "../../errors.js";
import type { ActionCall, ActionRunner } from "../../lib/in-process.js";
import { TWO_FACTOR_ACTION } from "./extension.js";

/** The signed-in user's factor. */
export interface TwoFactorStatus {
  enabled: boolean;
  /** Enrolment started and waits for its first code. */
  pending: boolean;
  backupCodesLeft: number;
}

/** What enrolment answers: the key, its `otpauth://` URI and the QR code of that URI (SVG). */
export interface TwoFactorEnrolment {
  secret: string;
  uri: string;
  qrSvg: string;
}

/** The two-factor functions for server code, bound to a runner. */
export interface TwoFactorApi {
  /** The signed-in user's factor, or null when signed out. */
  status(): Promise<TwoFactorStatus | null>;
  /** Starts enrolment (replacing a pending one). Throws `TwoFactorFailed` when already enabled. */
  enrol(): Promise<TwoFactorEnrolment>;
  /** Activates the pending factor with its first code; resolves with the backup codes (shown once). */
  activate(code: string): Promise<string[]>;
  /** Replaces the backup codes; needs a valid code now. */
  regenerateBackupCodes(code: string): Promise<string[]>;
  /** Turns the factor off; needs a valid code (or backup code) now. */
  disable(code: string): Promise<void>;
  /**
   * Stops trusting every browser of the signed-in user ("don't ask again" ends): call it after a
   * password change or "sign out everywhere".
   */
  forgetTrustedDevices(): Promise<void>;
}

async function call<T>(run: ActionRunner, action: ActionCall, what: string): Promise<T> {
  const answer = await run(action);
  const status = answer.status ?? 200;
  if (status !== 200) {
    const error = (answer.body as { error?: unknown } | undefined)?.error;
    throw new TwoFactorFailed(
      `${what} was refused (${status}${typeof error === "string" ? ` ${error}` : ""}): the user must be signed in, and codes must be current and unused.`,
    );
  }
  return answer.body as T;
}

/**
 * The two-factor server functions for one request. Call the state-changing ones from code that
 * your app protects against CSRF (server actions, form actions, a route with a CSRF token).
 *
 * @example
 * ```ts
 * import { actionRunner } from "@tessera/core"
 * import { twoFactorApi } from "@tessera/core/two-factor"
 * const api = twoFactorApi(actionRunner(request, config))
 * const { qrSvg } = await api.enrol()
 * ```
 */
export function twoFactorApi(run: ActionRunner): TwoFactorApi {
  const action = TWO_FACTOR_ACTION;
  return {
    async status() {
      const answer = await run({ action, subPath: "status" });
      if (answer.status === 401) return null;
      return call<TwoFactorStatus>(async () => answer, { action }, "Reading the status");
    },
    enrol: () => call(run, { action, subPath: "enrol", body: {} }, "Enrolment"),
    async activate(code) {
      const body = { code };
      const answer = await call<{ backupCodes: string[] }>(
        run,
        { action, subPath: "activate", body },
        "Activation",
      );
      return answer.backupCodes;
    },
    async regenerateBackupCodes(code) {
      const body = { code };
      const answer = await call<{ backupCodes: string[] }>(
        run,
        { action, subPath: "backup-codes", body },
        "Regenerating backup codes",
      );
      return answer.backupCodes;
    },
    async disable(code) {
      await call(run, { action, subPath: "disable", body: { code } }, "Disabling");
    },
    async forgetTrustedDevices() {
      await call(run, { action, subPath: "forget-devices", body: {} }, "Forgetting devices");
    },
  };
}
