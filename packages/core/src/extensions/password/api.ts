/**
 * The server functions of password accounts, written once against an {@link ActionRunner}: every
 * integration hands its own runner (`actionRunner(req, config)` in Express, `actionRunner(event)`
 * in SvelteKit, `actionRunner()` in Next.js, `nodeActionRunner`, the core's
 * `actionRunner(request, config)`), so none needs code for this extension. The cookies of a
 * sign-in (after `verify`, `reset`, `change`) travel with the runner's answer, as for every
 * in-process action.
 */
import { PasswordRefused } from "../../errors.js";
import type { ActionRunner } from "../../lib/in-process.js";
import { PASSWORD_ACTION } from "./extension.js";

/** The password functions for server code, bound to a runner. */
export interface PasswordApi {
  /** Creates the account (or e-mails the owner of a taken address); the same answer either way. */
  signUp(input: { email: string; password: string; name?: string }): Promise<void>;
  /** Spends the sign-up code and signs in; resolves with where to go. */
  verify(input: { email: string; code: string }): Promise<{ url: string }>;
  /** E-mails a reset code when the address has an account; the same answer either way. */
  requestReset(email: string): Promise<void>;
  /** Spends the reset code, sets the password, ends every other session and signs in. */
  reset(input: { email: string; code: string; password: string }): Promise<{ url: string }>;
  /** The signed-in user's new password; the current one is required. */
  change(input: { currentPassword: string; password: string }): Promise<void>;
  /**
   * E-mails a code to the signed-in user's new address; the password confirms the request. The
   * same answer whether or not the new address has an account (then no e-mail leaves).
   */
  changeEmail(input: { email: string; currentPassword: string }): Promise<void>;
  /** Spends the code sent to the new address: the account moves there; the old one is told. */
  confirmEmail(input: { email: string; code: string }): Promise<void>;
  /** Deletes the signed-in user's account; the password confirms it. */
  deleteAccount(currentPassword: string): Promise<void>;
}

async function call(
  run: ActionRunner,
  subPath: string,
  body: Record<string, unknown>,
  what: string,
): Promise<{ url: string }> {
  const answer = await run({ action: PASSWORD_ACTION, subPath, body });
  if (answer.redirect) return { url: answer.redirect };
  const status = answer.status ?? 200;
  if (status !== 200) {
    const error = (answer.body as { error?: unknown } | undefined)?.error;
    throw new PasswordRefused(
      `${what} was refused (${status}${typeof error === "string" ? ` ${error}` : ""}): codes must be current and unused, passwords must meet the policy, and changing one needs a signed-in user and the current password.`,
    );
  }
  return { url: "" };
}

/**
 * The password server functions for one request. Call them from code that your app protects
 * against CSRF (server actions, form actions, a route with a CSRF token).
 *
 * @example
 * ```ts
 * import { actionRunner } from "@tessera/core"
 * import { passwordApi } from "@tessera/core/password"
 * await passwordApi(actionRunner(request, config)).requestReset("ada@example.com")
 * ```
 */
export function passwordApi(run: ActionRunner): PasswordApi {
  return {
    async signUp(input) {
      await call(run, "signup", input, "Sign-up");
    },
    verify: (input) => call(run, "verify", input, "Verifying the address"),
    async requestReset(email) {
      await call(run, "forgot", { email }, "Asking for a reset");
    },
    reset: (input) => call(run, "reset", input, "The reset"),
    async change(input) {
      await call(run, "change", input, "Changing the password");
    },
    async changeEmail(input) {
      await call(run, "change-email", input, "Changing the e-mail address");
    },
    async confirmEmail(input) {
      await call(run, "confirm-email", input, "Confirming the new address");
    },
    async deleteAccount(currentPassword) {
      await call(run, "delete", { currentPassword }, "Deleting the account");
    },
  };
}
